//===- IterationSpace.h - A kernel raised to its iteration space -*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel whose memory accesses are affine in its thread ids, block ids and
// loop induction variables computes the same thing as a loop nest over its
// whole iteration space: the parallel dimensions (the points whose outputs
// are distinct: threads, blocks and the per-thread loops that write distinct
// elements), the reduction dimensions (loops that accumulate into one
// element), each buffer access as an affine map of those dimensions, the
// guards folded into the dimensions' extents, and the body's computation.
// Raising recovers that nest from a normalized kernel
// (autoprof-normalize-kernels) so that a new mapping to threads and blocks
// can be generated for it, whatever mapping the kernel had.
//
// The raised form prints as an upstream affine nest: `affine.parallel` over
// the parallel dimensions and `affine.for` over the reductions, with
// `affine.load` and `affine.store` at each access's map. (`linalg.generic`
// infers its loop extents from its operands' shapes, so it cannot state a
// window loop that no operand is shaped like, or a guard that stops short of
// a buffer's size.)
//
// A kernel of one thread whose loops all accumulate into the same elements
// (a whole-tensor reduction) raises with a parallel dimension of one point.
//
// Loops that accumulate an element in a register (iter_args started from a
// load of the element and stored back to it after the loop) raise like the
// same accumulation through memory.
//
// Kernels that are not such nests keep the families' path; raising says why:
// workgroup memory, barriers, atomics, gathers (an index loaded from memory),
// data-dependent control, other values carried across loop iterations, an
// output written by several threads.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_RAISE_ITERATIONSPACE_H
#define AUTOPROF_RAISE_ITERATIONSPACE_H

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::autoprof {

/// Where a dimension of an iteration space comes from in the kernel.
enum class SpaceDimSource {
  /// The global index block_id * block_size + thread_id along one hardware
  /// dimension.
  Global,
  /// The thread id alone along one hardware dimension (the block ids there
  /// index something else, or the grid has one block).
  Thread,
  /// The block id alone along one hardware dimension.
  Block,
  /// An scf.for loop of constant bounds.
  Loop,
};

/// One dimension of an iteration space: an index in [0, extent).
struct SpaceDim {
  SpaceDimSource source = SpaceDimSource::Loop;
  /// The hardware dimension (Global, Thread, Block).
  gpu::Dimension hardware = gpu::Dimension::x;
  /// The loop (Loop): its induction variable is lower + step * index.
  scf::ForOp loop;
  int64_t lower = 0, step = 1;
  /// Points along the dimension, after the kernel's guards.
  int64_t extent = 1;
  /// Whether the dimension accumulates into one element of every output
  /// (reduction) or indexes distinct elements (parallel).
  bool reduction = false;

  /// "16*bid.x + tid.x", "tid.y", "loop at depth 1".
  std::string describe(int64_t blockSize) const;
};

/// A buffer the nest reads or writes through one affine map.
struct SpaceOperand {
  /// The kernel argument.
  BlockArgument buffer;
  /// dimensions -> the buffer's indices.
  AffineMap map;
  /// Written by the nest (an output); an output that is also read is an
  /// accumulator: each point reads the element it writes.
  bool written = false, read = false;
};

/// An element a loop accumulates in a register (a loop's iter_args): the
/// innermost carrying loop's region argument holds the element's value so
/// far, and its yield the value after the iteration.
struct CarriedValue {
  Value value;
  Value yielded;
  /// The accumulated operand (an index into IterationSpace::operands).
  unsigned operand;
};

/// A kernel raised to its iteration space.
struct IterationSpace {
  gpu::GPUFuncOp kernel;
  /// The block size of every launch (known_block_size).
  std::array<int64_t, 3> blockSize = {1, 1, 1};
  /// Dimensions in the kernel's order: hardware dimensions x, y, z first,
  /// then the loops from the outermost.
  SmallVector<SpaceDim> dims;
  SmallVector<SpaceOperand> operands;
  /// Each load and store of the body -> its operand.
  llvm::DenseMap<Operation *, unsigned> operandOf;
  /// The body's loads, computation and stores in program order: what a new
  /// nest clones, loads and stores replaced.
  SmallVector<Operation *> body;
  /// Elements loops carry in registers; their loads start them and their
  /// stores follow the loops.
  SmallVector<CarriedValue> carried;

  /// The value a store of the body writes: the stored value, or for an
  /// element carried in a register the value the innermost loop yields.
  Value getStoredValue(Operation *store) const;

  /// Indices of the parallel (reduction) dimensions, in order.
  SmallVector<unsigned> getParallelDims() const;
  SmallVector<unsigned> getReductionDims() const;
  /// The product of the parallel (reduction) extents.
  int64_t getParallelPoints() const;
  int64_t getReductionPoints() const;
  /// The element stride of dimension `dim` in `operand`'s buffer (the
  /// buffer's row-major strides weighed by the map's coefficients).
  int64_t getStride(const SpaceOperand &operand, unsigned dim) const;
  /// The parallel dimension along which most bytes of the accesses are
  /// contiguous (stride 1), each operand weighing its element size; the
  /// outputs' innermost dimension when no access has a contiguous one.
  unsigned getContiguousDim() const;

  /// One line per dimension and per operand.
  std::string describe() const;
};

/// Raises `kernel` (normalized: known block and grid sizes, launch
/// constants sunk), or fails with `why`.
FailureOr<IterationSpace> raiseKernel(gpu::GPUFuncOp kernel, std::string &why);
/// The same, reading `analysis`, the memory-access analysis of `kernel`
/// a caller already has (one integer-range solver per kernel).
FailureOr<IterationSpace> raiseKernel(gpu::GPUFuncOp kernel,
                                      MemoryAccessAnalysis &analysis,
                                      std::string &why);

/// Builds the raised form of `space` as an affine nest at `builder`'s
/// insertion point, `arguments` standing for the kernel's arguments.
void buildAffineNest(OpBuilder &builder, Location loc,
                     const IterationSpace &space, ValueRange arguments);

} // namespace mlir::autoprof

#endif // AUTOPROF_RAISE_ITERATIONSPACE_H
