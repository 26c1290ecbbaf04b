//===- RewriteFamilyDecl.cpp - What the families declare ------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The built-in families' declarations, generated from
// include/autoprof/Optimizer/RewriteFamilies.td, and the check of a
// parameter against its family's domain.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/RewriteFamily.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace mlir::autoprof {
#define GET_REWRITE_FAMILY_DECLS
#include "autoprof/Optimizer/RewriteFamilies.h.inc"
} // namespace mlir::autoprof

std::optional<std::string> ParameterDomain::check(int64_t parameter) const {
  bool valid = true;
  switch (kind) {
  case Kind::Values:
    valid = llvm::is_contained(values, parameter);
    break;
  case Kind::Range:
    valid = parameter >= low && parameter <= high && parameter % step == 0;
    break;
  case Kind::PowersOfTwo:
    valid =
        parameter >= low && parameter <= high && llvm::isPowerOf2_64(parameter);
    break;
  case Kind::TargetLimited:
    break;
  }
  if (valid)
    return std::nullopt;
  return (noun + " must be " + phrase).str();
}

ArrayRef<RewriteFamilyDecl> mlir::autoprof::getBuiltinRewriteFamilyDecls() {
  return kBuiltinRewriteFamilyDecls;
}

ArrayRef<StringRef> mlir::autoprof::getDeclaredFactNames() {
  return kDeclaredFactNames;
}

const RewriteFamilyDecl &
mlir::autoprof::getBuiltinRewriteFamilyDecl(BuiltinRewriteFamily family) {
  return kBuiltinRewriteFamilyDecls[static_cast<unsigned>(family)];
}
