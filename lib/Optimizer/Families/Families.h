//===- Families.h - The built-in rewrite families ---------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// One constructor per built-in family (each defined in its own file of this
// folder), and the few steps two families share. Internal to the optimizer
// library.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_FAMILIES_FAMILIES_H
#define AUTOPROF_LIB_OPTIMIZER_FAMILIES_FAMILIES_H

#include "autoprof/Optimizer/RewriteFamily.h"

#include "../ThreadRemap.h"

#include "mlir/IR/IRMapping.h"

#include <variant>

namespace mlir::autoprof::rewrites {

/// block-size=N: re-launch a 1-D kernel with N threads per block.
std::unique_ptr<RewriteFamily> createBlockSizeFamily();
/// launch-bounds=1: promise the exact block size (nvvm.maxntid).
std::unique_ptr<RewriteFamily> createLaunchBoundsFamily();
/// min-blocks=K: ask for K resident blocks per SM.
std::unique_ptr<RewriteFamily> createMinBlocksFamily();
/// max-registers=R: cap registers per thread.
std::unique_ptr<RewriteFamily> createMaxRegistersFamily();
/// unroll=F: unroll innermost constant-step loops.
std::unique_ptr<RewriteFamily> createUnrollFamily();
/// restrict=1: mark buffers no-alias and never-written ones read-only.
std::unique_ptr<RewriteFamily> createRestrictFamily();
/// coarsen=C: each thread does the work of C threads of C blocks.
std::unique_ptr<RewriteFamily> createCoarsenFamily();
/// coarsen-rows=R: each thread does the work of R neighbours along y or z,
/// their loops jammed.
std::unique_ptr<RewriteFamily> createCoarsenRowsFamily();
/// vectorize=V: each thread handles V consecutive elements with vectors.
std::unique_ptr<RewriteFamily> createVectorizeFamily();
/// register-accumulate=1: keep an accumulated element in a register.
std::unique_ptr<RewriteFamily> createRegisterAccumulateFamily();
/// privatize-atomics=C: per-block shared copies of atomically updated
/// buffers.
std::unique_ptr<RewriteFamily> createPrivatizeAtomicsFamily();
/// distribute-loop=L: L lanes per original thread split its loop.
std::unique_ptr<RewriteFamily> createDistributeLoopFamily();
/// coalesce=P: the contiguous dimension moves to x.
std::unique_ptr<RewriteFamily> createCoalesceFamily();
/// map-nest=T: a kernel raised to its iteration space, mapped anew with
/// the contiguous dimension along the lanes and T threads per block.
std::unique_ptr<RewriteFamily> createMapNestFamily();
/// map-lanes=L: a raised kernel mapped anew with L lanes per parallel point
/// splitting its reductions.
std::unique_ptr<RewriteFamily> createMapLanesFamily();
/// map-vector=V: a raised kernel mapped anew with V consecutive points per
/// thread along the contiguous dimension.
std::unique_ptr<RewriteFamily> createMapVectorFamily();
/// map-split=S: a raised kernel mapped anew with each point's reductions
/// split into S chunks across the grid, combined by atomic operations.
std::unique_ptr<RewriteFamily> createMapSplitFamily();
/// map-reuse=R: a raised kernel mapped anew with R points per thread along
/// the parallel dimension whose points share the largest loads.
std::unique_ptr<RewriteFamily> createMapReuseFamily();
/// map-stack=S: a raised kernel mapped anew in blocks of 8 rows of 32
/// points, the rows splitting each point's reductions, in S chunks.
std::unique_ptr<RewriteFamily> createMapStackFamily();
/// map-tile=R: a raised contraction mapped anew with a register tile of R
/// points along the reuse dimension times 4 (or 2) along the contiguous one.
std::unique_ptr<RewriteFamily> createMapTileFamily();

/// map-stage=R: a raised contraction mapped anew in block tiles whose shared
/// operand slices are staged in shared memory, R x V points per thread.
std::unique_ptr<RewriteFamily> createMapStageFamily();
/// form-blocks=N: one-thread blocks become blocks of N threads.
std::unique_ptr<RewriteFamily> createFormBlocksFamily();

/// transpose-tile=T: a transposition staged through T x T shared tiles.
std::unique_ptr<RewriteFamily> createTransposeTileFamily();
/// warp-reduce=L: L lanes of a warp split a reduction loop.
std::unique_ptr<RewriteFamily> createWarpReduceFamily();
/// block-reduce=S: S threads along y split a reduction loop.
std::unique_ptr<RewriteFamily> createBlockReduceFamily();

/// contraction-tile=S: a contraction staged through shared-memory tiles,
/// an S x S block of results per block of threads.
std::unique_ptr<RewriteFamily> createContractionTileFamily();
/// mma-tile=S: contraction-tile's tiles of f16 or bf16 operands on tensor
/// cores.
std::unique_ptr<RewriteFamily> createMmaTileFamily();
/// contraction-pipeline=S and mma-pipeline=S: the same tiles with two shared
/// buffers per staged tile.
std::unique_ptr<RewriteFamily> createContractionPipelineFamily();
std::unique_ptr<RewriteFamily> createMmaPipelineFamily();
/// pad-shared=P: every shared tile's rows widened by P bytes.
std::unique_ptr<RewriteFamily> createPadSharedFamily();

/// fold-host-loop=1: a host loop around a launch moves into the kernel.
std::unique_ptr<RewriteFamily> createFoldHostLoopFamily();

/// halo-tile=1: the window a block's stencil reads, with its halo, staged in
/// shared memory once.
std::unique_ptr<RewriteFamily> createHaloTileFamily();

/// Whether the definition of `value`, through operands and the values
/// regions carry (the operands and yields of the operation that owns a
/// region argument), reaches an operation for which `matches` holds.
bool reachesDefinition(Value value,
                       llvm::function_ref<bool(Operation *)> matches);

/// Whether `op` has memory effects (or effects the interface does not
/// describe), loops and branches excepted: what they contain is reached
/// through the values they yield.
bool touchesMemory(Operation *op);

/// Whether `op` itself, not what it nests, may write memory (or has effects
/// the interface does not describe).
bool writesMemoryItself(Operation *op);

/// Whether `op` or an operation nested in it may write memory (or has
/// effects the interface does not describe).
bool mayWriteMemory(Operation *op);

/// Merges loads and stores of neighbouring elements into vector accesses:
/// where accesses directly in one block of `kernel` (launched with blocks
/// of `blockSize`) reach a kernel buffer (static shape, identity layout)
/// through the same outer indices and innermost indices that the
/// memory-access analysis expresses as one affine form plus different
/// constants, every `w` of them that cover an aligned group of `w`
/// elements (the form's terms and the innermost extent multiples of `w`, at
/// most 128 bits) become one `vector.load` or `vector.store` aligned to the
/// group. Loads merge where nothing between the first and the last may
/// write memory, stores where nothing between them touches memory and
/// each element is stored once. Buffers are taken to start 16-byte
/// aligned, as CUDA allocations do. Returns how many accesses were merged.
int64_t mergeNeighbouringAccesses(RewriterBase &rewriter,
                                  gpu::GPUFuncOp kernel,
                                  std::array<int64_t, 3> blockSize);

/// Whether every floating-point value `kernel` stores is a sum, difference
/// or product of loaded values, scalars and constants (through the values
/// loops, branches and shuffles carry): then the reference on the absolute
/// values of the inputs bounds each term's magnitude, which is what the
/// verification of a kernel marked `autoprof.reassociated` relies on (sums
/// in another order, products fused with their sums). Otherwise `why` says
/// which operation computes a stored value.
bool storesSumsOfProducts(gpu::GPUFuncOp kernel, std::string &why);

/// Whether `value` may differ between the threads of one block: it depends
/// on a thread, lane or global id, an NVVM special register, or memory.
bool mayDifferInBlock(Value value);

/// Builds, at the rewriter's insertion point, the i1 that holds when each
/// buffer of `buffers` lies apart from every other buffer of `others` (by
/// their address ranges: aligned pointer and static size), or returns null
/// when there is nothing to compare. The buffers must have static shapes.
Value buildBuffersApart(RewriterBase &rewriter, Location loc,
                        ArrayRef<Value> buffers, ArrayRef<Value> others);

struct Accumulation;

/// Keeps the element of each accumulation in a register: one load before its
/// loop (and before the enclosing loops it is carried through), the value
/// carried through iter_args, one store after them. The caller has made sure
/// that no other buffer the loops access overlaps the element's buffer.
LogicalResult carryInRegisters(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                               ArrayRef<Accumulation> accumulations);

/// Divides the grid along x of every launch by `factor`, rounding up.
void shrinkGridX(RewriterBase &rewriter, ArrayRef<gpu::LaunchFuncOp> launches,
                 int64_t factor);

/// Why the threads of `target` cannot each take over the work of several
/// (coarsen, vectorize), or nothing: the kernel must have no workgroup
/// memory or required block size, a single-block body, constant launches,
/// and x ids used only in the global index.
std::optional<std::string> checkCoarsenable(const RewriteTarget &target);

/// Runs the body of `kernel` `factor` times per thread: block b of a grid
/// `factor` times smaller along x does the work of blocks b*factor ..
/// b*factor+factor-1 of the original one, one after the other, so
/// consecutive threads still touch consecutive elements. The launches are
/// not changed (shrinkGridX).
void coarsenKernel(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                   int64_t factor);

/// What a thread remap is for.
enum class RemapKind {
  /// form-blocks=N: one-thread blocks become blocks of N threads along the
  /// dimension whose consecutive indices walk contiguous memory.
  FormBlocks,
  /// coalesce=P: that dimension moves to x with P threads of a block along
  /// it.
  Coalesce,
  /// block-size=N: blocks of several threads become blocks of N threads,
  /// that dimension along x.
  Resize,
};

/// The thread remap of `kind` with `parameter` for `target`, or why there is
/// none.
FailureOr<ThreadRemapPlan> planRemap(RemapKind kind, int64_t parameter,
                                     const RewriteTarget &target,
                                     std::string &why);

/// The constant block size every launch of `target` shares, when the kernel
/// has no launch bounds yet (what launch-bounds and min-blocks promise).
FailureOr<std::array<int64_t, 3>> matchLaunchBounds(const RewriteTarget &target,
                                                    std::string &why);

/// Promises `block` as the kernel's maximum block size (nvvm.maxntid).
void setMaxThreads(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                   std::array<int64_t, 3> block);

/// How much the access pattern favours rewrites that remap threads (coalesce,
/// distribute-loop): +2 for scattered accesses, -6 for coalesced ones.
double remapBonus(const RewriteEvidence &evidence);

/// Replaces the launch sizes `grid` and `block` of `launch` (entries left
/// unset keep their operand).
void setLaunchSizes(RewriterBase &rewriter, gpu::LaunchFuncOp launch,
                    std::array<std::optional<int64_t>, 3> grid,
                    std::array<std::optional<int64_t>, 3> block);

/// Whether `op` reads the launch geometry: a thread, block or global id, a
/// block or grid size.
bool isGeometryOp(Operation *op);

/// Maps each of `geometry` (operations that isGeometryOp accepts, of a kernel
/// launched with `grid` x `block`) in `mapping` to its value in the original
/// thread whose global index along each dimension is `global` (block id *
/// block size + thread id), built at the rewriter's insertion point: the
/// block and grid sizes become constants, the thread and block ids the
/// remainder and quotient of the global index by the block size.
void mapGeometry(RewriterBase &rewriter, Location loc,
                 ArrayRef<Operation *> geometry, std::array<Value, 3> global,
                 std::array<int64_t, 3> grid, std::array<int64_t, 3> block,
                 IRMapping &mapping);

/// The operations `target` depends on through operands, in an order that
/// clones them in dominance order (a pre-order walk of their common kernel),
/// not looking through `stop` (mapped instead) nor through the operations of
/// the launch geometry (mapped by mapGeometry).
SmallVector<Operation *> getGeometrySlice(Operation *target, Operation *stop);

} // namespace mlir::autoprof::rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_FAMILIES_FAMILIES_H
