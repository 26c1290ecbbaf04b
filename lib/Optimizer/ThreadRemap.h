//===- ThreadRemap.h - Give a kernel a new thread geometry ------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A rewrite that changes a kernel's grid and block must keep every use of
// the launch geometry true, including constants that equal it and index
// arithmetic no analysis sees through. A thread remap does that by
// construction: each hardware thread of the new launch computes the global
// index it stands for along each original dimension, recovers the original
// thread and block ids from it (division and remainder by the original block
// size), and every original id, block size and grid size in the kernel is
// replaced by those values. Threads past the original problem skip the body.
// Legal for kernels whose threads do not cooperate: no barriers, shared
// memory, subgroup operations, calls or NVVM intrinsics. Internal to the
// optimizer library.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_THREADREMAP_H
#define AUTOPROF_LIB_OPTIMIZER_THREADREMAP_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::autoprof::rewrites {

/// A new geometry for a kernel's launches.
struct ThreadRemapPlan {
  /// The geometry every launch has now.
  std::array<int64_t, 3> oldGrid = {1, 1, 1}, oldBlock = {1, 1, 1};
  /// The new dimension along which each original dimension's global index
  /// runs (a permutation of 0, 1, 2).
  std::array<int, 3> newDimOf = {0, 1, 2};
  std::array<int64_t, 3> newGrid = {1, 1, 1}, newBlock = {1, 1, 1};
};

/// Why the threads of `kernel` cannot be remapped, or nothing; on success
/// `grid` and `block` hold the constant geometry every launch shares.
std::optional<std::string> checkRemappable(gpu::GPUFuncOp kernel,
                                           ArrayRef<gpu::LaunchFuncOp> launches,
                                           std::array<int64_t, 3> &grid,
                                           std::array<int64_t, 3> &block);

/// A plan that runs original dimension `fastest` along x with `threadsX`
/// threads per block (fewer when the dimension is smaller) and the others
/// along y and z in their order, with at most `threadsPerBlock` threads in
/// all; grids are rounded up. Fails with `why` when a grid dimension would
/// exceed the hardware's limits.
FailureOr<ThreadRemapPlan> planThreadRemap(std::array<int64_t, 3> grid,
                                           std::array<int64_t, 3> block,
                                           int fastest, int64_t threadsX,
                                           int64_t threadsPerBlock,
                                           std::string &why);

/// Rewrites `kernel` and every launch in `launches` to `plan`. The kernel
/// must be remappable (checkRemappable).
void applyThreadRemap(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                      ArrayRef<gpu::LaunchFuncOp> launches,
                      const ThreadRemapPlan &plan);

/// Folds the original ids a remap recombines, (g mod C) + (g div C) * C ->
/// g, with the canonicalizations of additions and products, in `kernel`:
/// later analyses and LLVM see the global index again.
void simplifyRecombinedIndices(gpu::GPUFuncOp kernel);

} // namespace mlir::autoprof::rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_THREADREMAP_H
