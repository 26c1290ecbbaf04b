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

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::autoprof {

/// A floating-point format by its precision: mantissa and exponent bits
/// (f32: 23 and 8; tf32: 10 and 8; f16: 10 and 5; bf16: 7 and 8).
struct FloatFormat {
  unsigned mantissa = 0;
  unsigned exponent = 0;

  /// Whether `this` is at least as precise as `other` in both respects.
  bool covers(const FloatFormat &other) const {
    return mantissa >= other.mantissa && exponent >= other.exponent;
  }
  /// Componentwise the least precise of the two.
  FloatFormat meet(const FloatFormat &other) const {
    return {std::min(mantissa, other.mantissa),
            std::min(exponent, other.exponent)};
  }
  bool operator==(const FloatFormat &other) const {
    return mantissa == other.mantissa && exponent == other.exponent;
  }
};

/// The format PTX names `name` ("f32", "f16x2", "bf16", "tf32", "e4m3",
/// ...), if it is a floating-point one.
std::optional<FloatFormat> getFloatFormat(llvm::StringRef name);
/// "f64", "f32", "tf32", "f16", "bf16", "e4m3", "e5m2", "e3m2", "e2m3",
/// "e2m1", "an unknown format" ({0, 0}), or "m<M>e<E>".
std::string describeFloatFormat(const FloatFormat &format);

/// The least precise formats an entry's floating-point arithmetic uses.
/// A product (mul, fma, a tensor-core product) has two: its operands' (the
/// more precise of the two, each of the instruction's format unless exact
/// widenings made it, through moves and selections: f16 values widened to
/// f32) and the format it is rounded to (the instruction's; a tensor core's
/// accumulator). f16 values multiplied in f32 and a tensor core's f16
/// products accumulated in f32 are alike; f16 products rounded to f16 are
/// not. A value rounded to tf32 has tf32 operands. Additions, fma's
/// addend and tensor-core accumulators are accumulations. Divisions, roots
/// and special functions count in all three; minima, maxima, comparisons,
/// conversions for storage and atomics in none. A tensor-core product of a
/// format this does not know (tcgen05.mma, whose formats are in its
/// descriptor) counts as the unknown format {0, 0}.
struct PtxMathPrecision {
  std::optional<FloatFormat> productOperands, productRounding, accumulation;
};

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
  /// The least precise formats of its arithmetic.
  PtxMathPrecision precision;

  double get(llvm::StringRef name) const { return counts.lookup(name); }
};

/// Counts the instructions of `body`, the text between the braces of a PTX
/// entry (getPtxEntryBody). Declarations, directives, comments and
/// instructions that only move values (mov, ld.param, selp, cvta) count
/// nothing.
PtxInstructionCounts countPtxInstructions(llvm::StringRef body);

} // namespace mlir::autoprof

#endif // AUTOPROF_IMPORT_PTXINSTRUCTIONS_H
