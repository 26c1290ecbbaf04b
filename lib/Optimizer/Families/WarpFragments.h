//===- WarpFragments.h - A warp's 16 x 16 fragments on tensor cores -------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// How the warps of mma-tile (MmaTile.cpp, ContractionTile.cpp) load,
// multiply and store 16 x 16 fragments of a tile's products of f16 or bf16
// elements: nvgpu.ldmatrix and nvvm.mma.sync (m16n8k16); each lane holds
// its part of a fragment in registers: four pairs of the row operand,
// four of the column operand (two columns of eight), eight f32 sums. (Not
// gpu.subgroup_mma_*, which lowers to WMMA: its !gpu.mma_matrix takes no
// bf16, and on an H100 a 2048^3 f16 matmul through it ran 81 us where the
// same kernel of bf16 through ldmatrix and mma.sync ran 73 us.)
// Internal to the optimizer library.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_FAMILIES_WARPFRAGMENTS_H
#define AUTOPROF_LIB_OPTIMIZER_FAMILIES_WARPFRAGMENTS_H

#include "mlir/IR/Builders.h"

#include <memory>

namespace mlir::autoprof::rewrites {

/// The 16 x 16 fragments a warp multiplies: the row operand's (rows of the
/// results by iterations), the column operand's (iterations by columns of
/// the results) and the f32 sums (rows by columns). Staged tiles hold a
/// row per result row or column and the iterations along it
/// (`byElement`: tile[e][k]), or a row per iteration (tile[k][e]); their
/// rows are a multiple of 16 bytes long and start 32-byte aligned.
class WarpFragments {
public:
  virtual ~WarpFragments();

  /// Values that carry one fragment of sums (through the stages' loop).
  virtual unsigned getSumValues() const = 0;
  /// A fragment of sums that are all zero.
  virtual SmallVector<Value> createZeroSums(OpBuilder &builder,
                                            Location loc) const = 0;
  /// The row operand's fragment of rows `first` .. `first` + 15 and
  /// iterations `step` .. `step` + 15 of `tile` (of its buffer `buffer`,
  /// the tile's first index, where `buffer` is not null).
  virtual SmallVector<Value> loadRows(OpBuilder &builder, Location loc,
                                      Value tile, Value buffer, Value first,
                                      int64_t step) const = 0;
  /// The column operand's fragment of columns `first` .. `first` + 15 and
  /// iterations `step` .. `step` + 15 of `tile` (of its buffer `buffer`
  /// where not null).
  virtual SmallVector<Value> loadColumns(OpBuilder &builder, Location loc,
                                         Value tile, Value buffer, Value first,
                                         int64_t step) const = 0;
  /// `sums` += `rows` x `columns`.
  virtual void multiplyAdd(OpBuilder &builder, Location loc, ValueRange rows,
                           ValueRange columns,
                           MutableArrayRef<Value> sums) const = 0;
  /// Stores `sums` to rows `row` .. `row` + 15 and columns `column` ..
  /// `column` + 15 of `tile`, a row-major tile of f32.
  virtual void storeSums(OpBuilder &builder, Location loc, ValueRange sums,
                         Value tile, Value row, Value column) const = 0;
};

/// Whether the tensor cores multiply `element`s here (f16 or bf16).
bool isTensorCoreElement(Type element);

/// The fragments of `element` (isTensorCoreElement) for staged tiles that
/// hold a row per result row (`rowsByElement`) or per iteration, and per
/// result column (`columnsByElement`) or per iteration. Creates at the
/// builder's insertion point what every fragment's addresses share (a
/// lane's place in its warp, from `linear`, the thread's index in its
/// block).
std::unique_ptr<WarpFragments> createWarpFragments(OpBuilder &builder,
                                                   Location loc, Type element,
                                                   Value linear,
                                                   bool rowsByElement,
                                                   bool columnsByElement);

} // namespace mlir::autoprof::rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_FAMILIES_WARPFRAGMENTS_H
