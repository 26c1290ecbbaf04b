//===- RewriteAnalysis.h - What the built-in rewrites check -----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The analyses behind the built-in rewrites' preconditions: constant
// launches, how a kernel uses its thread ids, and the loops, accesses and
// buffers each family rewrites. Internal to the optimizer library.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_REWRITEANALYSIS_H
#define AUTOPROF_LIB_OPTIMIZER_REWRITEANALYSIS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::autoprof::rewrites {

/// Every launch of `kernel` in `module`.
SmallVector<gpu::LaunchFuncOp> getLaunches(ModuleOp module,
                                           gpu::GPUFuncOp kernel);

/// The value of an integer constant that fits in 64 bits, or nothing.
std::optional<int64_t> getConstant(Value value);

/// The constant block sizes shared by every launch, or nothing.
std::optional<std::array<int64_t, 3>>
getUniformBlock(ArrayRef<gpu::LaunchFuncOp> launches);

/// Whether every use of the thread, block and block-size ids along each of
/// `dims` is that dimension's global index `block_id * block_dim +
/// thread_id`: then the set of indices a launch covers depends only on the
/// total number of threads along those dimensions. Ids along other
/// dimensions are left alone.
bool usesOnlyGlobalIndex(gpu::GPUFuncOp kernel, ArrayRef<gpu::Dimension> dims,
                         std::string &why);

/// usesOnlyGlobalIndex along x: the rewrites that rely on it keep the block
/// 1-D and do not change the grid's y and z.
bool usesOnlyGlobalIndexX(gpu::GPUFuncOp kernel, std::string &why);

/// Innermost scf.for loops with a constant step that may run at least
/// `factor` iterations.
SmallVector<scf::ForOp> getUnrollableLoops(gpu::GPUFuncOp kernel,
                                           int64_t factor);

/// A load and a store of the same element of a kernel buffer in one loop
/// iteration, at indices that do not change in the loop.
struct Accumulation {
  scf::ForOp loop;
  memref::LoadOp load;
  memref::StoreOp store;
  /// How many loops around `loop` (each directly enclosing the previous)
  /// the element can be carried through as well: they run at least once,
  /// nothing else in them touches the buffer, and the indices do not change
  /// in them either.
  unsigned enclosing = 0;
};

/// Whether `loop` runs at least once in every launch: constant lower bound
/// and step, and an upper bound that is a constant or a kernel argument every
/// launch feeds with a constant.
bool runsAtLeastOnce(scf::ForOp loop, gpu::GPUFuncOp kernel,
                     ArrayRef<gpu::LaunchFuncOp> launches);

/// Loops that load and store one element of a global kernel buffer every
/// iteration (C[i][j] += ... in a naive matmul): nothing else in the loop
/// touches that buffer, the indices are loop-invariant, and the loop has no
/// barriers, atomics or calls; with the enclosing loops that qualify alike.
SmallVector<Accumulation>
findAccumulations(gpu::GPUFuncOp kernel, ArrayRef<gpu::LaunchFuncOp> launches);

/// Whether the launches provably pass distinct, non-overlapping buffers: each
/// comes from its own allocation or from a host argument marked llvm.noalias,
/// except at most one of unknown origin.
bool passesDistinctBuffers(ArrayRef<gpu::LaunchFuncOp> launches,
                           std::string &why);

/// Checks that every launch has a constant grid, a constant 1-D block and no
/// dynamic shared memory; with `oneDimensionalGrid` the grid must be 1-D too.
std::optional<std::string>
checkConstantLaunches(ArrayRef<gpu::LaunchFuncOp> launches,
                      bool oneDimensionalGrid);

/// Checks that every launch's grid x is a multiple of `factor`.
std::optional<std::string>
checkGridDivisible(ArrayRef<gpu::LaunchFuncOp> launches, int64_t factor);

/// The values `block_id x * block_dim x + thread_id x` of `kernel`.
SmallVector<Value> getGlobalIndices(gpu::GPUFuncOp kernel);

/// The constant `value` has in `launch`: a constant, or a kernel argument the
/// launch feeds with one.
std::optional<int64_t> getLaunchValue(Value value, gpu::GPUFuncOp kernel,
                                      gpu::LaunchFuncOp launch);

/// Whether `value` is a constant or a kernel argument that every launch feeds
/// with a constant multiple of `factor`.
bool isUniformMultipleOf(Value value, int64_t factor, gpu::GPUFuncOp kernel,
                         ArrayRef<gpu::LaunchFuncOp> launches);

/// A kernel whose body is `if (g < n) { ... }` with g the global index: the
/// guarded region touches buffers only at [..., g] and computes elementwise.
struct VectorizableRegion {
  Value globalIndex;
  arith::CmpIOp guard;
  scf::IfOp guarded;
};

/// Finds the region `vectorize=V` rewrites, or says why there is none.
FailureOr<VectorizableRegion>
findVectorizableRegion(gpu::GPUFuncOp kernel,
                       ArrayRef<gpu::LaunchFuncOp> launches, int64_t factor,
                       std::string &why);

/// Bytes of the kernel's workgroup attributions.
int64_t getWorkgroupBytes(gpu::GPUFuncOp kernel);

/// Kernel buffers that are only ever targets of atomic adds whose results are
/// unused: small enough to keep a copy per block in `sharedLimit` bytes of
/// shared memory.
SmallVector<BlockArgument> findPrivatizableBuffers(gpu::GPUFuncOp kernel,
                                                   int64_t sharedLimit,
                                                   std::string &why);

/// The one loop of `kernel` whose iterations `distribute-loop` may spread
/// over threads, or why there is none: no results, a constant positive step,
/// only loads, stores and side-effect-free operations in the body, every
/// buffer it writes written at indices that include the induction variable
/// and read in the loop only at those indices, and no other writes anywhere
/// in the kernel (each lane repeats the code around the loop).
FailureOr<scf::ForOp> findDistributableLoop(gpu::GPUFuncOp kernel,
                                            std::string &why);

/// What `coalesce=P` does to a kernel: which dimension moves to x, and the
/// new grid and block of every launch.
struct CoalescePlan {
  gpu::Dimension fastest = gpu::Dimension::x;
  SmallVector<std::pair<std::array<int64_t, 3>, std::array<int64_t, 3>>> shapes;
};

/// The dimension whose global index `block_id * block_dim + thread_id` is
/// `value`, possibly through additions and subtractions, if any.
std::optional<gpu::Dimension> getIndexDimension(Value value);

/// Plans `coalesce=P`: the dimension most accesses use as their innermost
/// (contiguous) index becomes x, with P threads of a block along it.
FailureOr<CoalescePlan> planCoalesce(gpu::GPUFuncOp kernel,
                                     ArrayRef<gpu::LaunchFuncOp> launches,
                                     int64_t p, std::string &why);

/// Why the kernel's block size cannot change (workgroup memory sized for it,
/// or launch bounds that promise it), or nothing.
std::optional<std::string> checkBlockShapeIsFree(gpu::GPUFuncOp kernel);

/// Why the launches of `kernel` cannot get a new 1-D block size: the block
/// size is tied to the kernel (checkBlockShapeIsFree) or a launch is not a
/// constant 1-D launch (checkConstantLaunches); nothing when they can.
std::optional<std::string>
checkOneDimensionalResizable(gpu::GPUFuncOp kernel,
                             ArrayRef<gpu::LaunchFuncOp> launches);

} // namespace mlir::autoprof::rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_REWRITEANALYSIS_H
