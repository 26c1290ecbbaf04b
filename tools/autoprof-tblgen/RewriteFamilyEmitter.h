//===- RewriteFamilyEmitter.h - Rewrite family backends ---------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The backends of include/autoprof/Optimizer/RewriteFamilies.td: the C++
// table the family registries are built from, and the reference page of the
// families.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLS_AUTOPROF_TBLGEN_REWRITEFAMILYEMITTER_H
#define AUTOPROF_TOOLS_AUTOPROF_TBLGEN_REWRITEFAMILYEMITTER_H

namespace llvm {
class raw_ostream;
class RecordKeeper;
} // namespace llvm

namespace autoprof::tblgen {

/// Emits RewriteFamilies.h.inc: the enum of the built-in families, their
/// declarations and the lists of the families of each kernel form. Returns
/// true on error.
bool emitRewriteFamilyDefs(const llvm::RecordKeeper &records,
                           llvm::raw_ostream &os);

/// Emits the Markdown reference page of the families. Returns true on error.
bool emitRewriteFamilyDoc(const llvm::RecordKeeper &records,
                          llvm::raw_ostream &os);

} // namespace autoprof::tblgen

#endif // AUTOPROF_TOOLS_AUTOPROF_TBLGEN_REWRITEFAMILYEMITTER_H
