//===- ReductionSplit.h - A reduction loop shared by threads ----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// What the families that split one thread's reduction loop among several
// threads (warp-reduce through shuffles, block-reduce through shared memory)
// prove and change alike: the loop, the operations that combine its carried
// values and their neutral elements, the writes the first of the threads
// performs alone, and the conditions under which the threads of one original
// thread follow the same path to the combination and the others have no
// observable effect. Internal to the optimizer library.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_FAMILIES_REDUCTIONSPLIT_H
#define AUTOPROF_LIB_OPTIMIZER_FAMILIES_REDUCTIONSPLIT_H

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Optimizer/RewriteFamily.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <string>

namespace mlir::autoprof::rewrites {

/// A reduction loop that several threads can share.
struct ReductionSplit {
  scf::ForOp loop;
  /// For each value the loop carries, the operation of its body that
  /// combines it with the iteration's contribution.
  SmallVector<Operation *> combiners;
  /// Operations outside the loop that write memory: the first thread of
  /// each group runs them.
  SmallVector<Operation *> writes;
  /// The geometry every launch shares.
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
  /// A combination is a floating-point sum or product: splitting
  /// reassociates it.
  bool reassociates = false;
  /// How many consecutive iterations each thread runs at a time (1: one):
  /// the loads of `chunkLoads` read a chunk's elements as one vector.
  int64_t chunk = 1;
  SmallVector<memref::LoadOp> chunkLoads;
};

/// The reduction loop of `target` that `lanes` threads can split, or why
/// there is none: the thread-remapping conditions; exactly one scf.for
/// carries values, each combined once per iteration by an associative and
/// commutative operation of f32 or i32; constant bounds that lanes * step
/// does not overflow, with at least 2 * lanes iterations; no write in the
/// loop; only scf.if around it and no
/// write before it; every write outside it returns no value; no address,
/// bound or condition outside it depends on memory; and for a float sum or
/// product, stored floats that are sums of products of loaded values.
FailureOr<ReductionSplit> matchReductionSplit(const RewriteTarget &target,
                                              int64_t lanes, std::string &why);

/// Chooses the chunk of `split` for `lanes` threads: the widest number of
/// iterations (at most 128 bits of each load) for which some load of the
/// loop's body walks its buffer's innermost dimension by one element per
/// iteration, at vector-aligned offsets (by the memory-access analysis of
/// the kernel: every other term of its innermost index a multiple of the
/// width and invariant in the loop, the other indices defined outside it,
/// a static identity layout whose innermost extent the width divides),
/// and divides the trip count. `analysis` is that of the kernel with the
/// split's block. Leaves one iteration when none qualifies.
void planChunks(MemoryAccessAnalysis &analysis, ReductionSplit &split,
                int64_t lanes);

/// What the loop carried in and where its results were used, before the
/// split: the totals combine the former with the partial results and
/// replace the latter.
struct SplitLoop {
  SmallVector<Value> initial;
  SmallVector<SmallVector<OpOperand *>> uses;
};

/// Makes thread `lane` of `lanes` (an index) run iterations lane,
/// lane+lanes, ... of the loop from the combinations' neutral elements (at
/// the rewriter's insertion point, which must dominate the loop); with a
/// chunk of C iterations, chunks lane, lane+lanes, ..., each iteration of
/// a chunk in order, the chunk loads of its iterations one vector load.
SplitLoop splitReductionLoop(RewriterBase &rewriter,
                             const ReductionSplit &split, Value lane,
                             Value lanes);

/// The neutral element of `op` when it combines two values of a float or
/// integer type by an associative and commutative operation: a sum,
/// product, minimum, maximum or bitwise operation (-0 for a float sum, NaN
/// for maxnumf and minnumf, infinities for maximumf and minimumf).
std::optional<TypedAttr> getCombinerIdentity(Operation *op);

/// A group of `lanes` consecutive lanes of a warp that starts at a multiple
/// of `lanes` (a power of two up to 32), as the lane's own group: its first
/// lane and the shuffle mask that names just its lanes (both i32).
struct LaneGroup {
  Value firstLane;
  Value mask;
};
LaneGroup buildLaneGroup(RewriterBase &rewriter, Location loc, int64_t lanes);

/// `combiner` applied to `lhs` and `rhs`, without the flags a combination
/// in another order breaks (no overflow, no NaN, no infinity).
Value combinePartials(RewriterBase &rewriter, Operation *combiner, Value lhs,
                      Value rhs);

/// Replaces the former uses of the loop's results by `totals`, marks the
/// kernel reassociated where it is, and puts every write under
/// `isFirstLane`.
void finishReductionSplit(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                          const ReductionSplit &split, const SplitLoop &loop,
                          ValueRange totals, Value isFirstLane);

} // namespace mlir::autoprof::rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_FAMILIES_REDUCTIONSPLIT_H
