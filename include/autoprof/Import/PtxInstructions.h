//===- PtxInstructions.h - What a PTX entry's instructions do ---*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Counts the instructions of one PTX entry by what they do, under the names
// of the per-thread operation counts of the feature schema
// (docs/kernel-features.md): global and shared loads and stores and their
// bytes, atomics, barriers, branches and the branches whose predicate
// depends on the thread index, floating-point operations by type (FMA = 2),
// special functions, integer operations, conversions, tensor-core
// operations, warp shuffles. PTX states no loop trip counts: each
// instruction counts once, a loop's body included, as the feature counter
// of a gpu.func counts a loop whose trip count it does not know; the loops
// (backward branches) are counted and their nesting measured.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_IMPORT_PTXINSTRUCTIONS_H
#define AUTOPROF_IMPORT_PTXINSTRUCTIONS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::autoprof {

struct PtxInstructionCounts {
  /// Counts by feature name ("global_loads", "flops_f32", ...); names with
  /// no instruction are absent. Two more than the schema has:
  /// "flops_other" (formats without a feature of their own: f8, tf32) and
  /// "global_atomic_bytes".
  llvm::StringMap<double> counts;
  /// Loops: the distinct targets of backward branches.
  unsigned loops = 0;
  /// The deepest nesting of those loops.
  unsigned loopDepth = 0;
  /// Bits of the widest vector global (or generic) load or store, 0
  /// without one.
  uint64_t maxVectorBits = 0;

  double get(llvm::StringRef name) const { return counts.lookup(name); }
};

/// Counts the instructions of `body`, the text between the braces of a PTX
/// entry (getPtxEntryBody). Declarations, directives, comments and
/// instructions that only move values (mov, ld.param, selp, cvta) count
/// nothing.
PtxInstructionCounts countPtxInstructions(llvm::StringRef body);

} // namespace mlir::autoprof

#endif // AUTOPROF_IMPORT_PTXINSTRUCTIONS_H
