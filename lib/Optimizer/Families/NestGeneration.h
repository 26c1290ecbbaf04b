//===- NestGeneration.h - Kernels generated from a raised nest --*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// What the families that map a raised iteration space anew (map-nest,
// map-lanes, map-vector, map-split, map-stage, ...) share: the plan (the
// raised form, its schedule, whether the launches need a host check that
// the buffers lie apart) and the generation of the kernel's new body from
// it. Each family chooses the schedule's
// parameters; the generated code only follows the schedule
// (autoprof/Schedule/NestSchedule.h). Internal to the optimizer library.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_FAMILIES_NESTGENERATION_H
#define AUTOPROF_LIB_OPTIMIZER_FAMILIES_NESTGENERATION_H

#include "autoprof/Optimizer/RewriteFamily.h"
#include "autoprof/Raise/IterationSpace.h"
#include "autoprof/Schedule/NestSchedule.h"

#include <string>

namespace mlir::autoprof::rewrites {

/// How a staged schedule's block reads an operand: from global memory at
/// each point, or from the slice the block copies into its shared memory
/// per chunk of reductions, along the reuse dimension (the operand indexes
/// it, not the contiguous one) or along the contiguous one (the other way
/// round).
enum class NestStaging { None, AlongReuse, AlongContiguous };

/// Threads per block of the launches the families generate.
constexpr int64_t kNestThreadsPerBlock = 256;

/// A raised kernel and the schedule its new body follows.
struct NestPlan {
  IterationSpace space;
  NestSchedule schedule;
  /// The buffers are not proved distinct: each launch checks on the host
  /// that the written buffers lie apart from the others, and launches a
  /// copy of the original kernel (autoprof.fallback_of) where they do not.
  bool versioned = false;
  /// With lanes or a split: for each accumulated operand (the outputs the nest
  /// reads and writes, in operand order), the body's operation that combines
  /// the element so far with the point's contribution.
  SmallVector<unsigned> accumulated;
  SmallVector<Operation *> combiners;
  /// With a staged chunk: how the block reads each operand (in operand
  /// order), and for each staged one whether its copy walks the chunk
  /// innermost (the operand is contiguous along the innermost reduction
  /// dimension, not along the tile's): then the slice's rows are padded.
  SmallVector<NestStaging> staging;
  SmallVector<bool> stagedAlongChunk;
};

/// How promising a new mapping of a raised kernel is (the score of
/// map-nest with 256 threads), or nothing where it is not worth proposing:
/// where the contiguous dimension already runs along x in whole warps.
/// Where more than half of the loaded bytes are rows each thread walks with
/// a loop, one thread per output leaves them scattered whatever the
/// mapping: 4.4, after the reduction families. Where a thread dimension
/// walks the contiguous memory, the thread remaps and vectorize come first:
/// 7.5. A contraction goes to register-accumulate (10) first, on which the
/// tile families build: 9.95. Where only a per-thread loop walks it, no
/// other family reaches it: 11.95. Then 6 less where the loads are
/// coalesced already.
std::optional<double> getNestMappingScore(const RewriteEvidence &evidence);

/// The score map-reuse and map-tile build on, or nothing where several
/// points per thread along the reuse dimension are not worth proposing:
/// getNestMappingScore's, for a contraction whose parallel points fill the
/// GPU's resident thread slots eight times at least.
std::optional<double> getNestReuseScore(const RewriteEvidence &evidence);

/// chooseNestSplit for the raised form the evidence describes: its parallel
/// and reduction points with `lanes` lanes each, on the GPU's resident
/// thread slots, within `maxSplit` chunks.
std::optional<int64_t> chooseNestSplit(const RewriteEvidence &evidence,
                                       int64_t lanes,
                                       int64_t maxSplit = kMaxNestSplit);

/// The problem a schedule of `space` solves: its parallel and reduction
/// extents and the dimensions the largest accesses walk contiguously.
NestProblem getNestProblem(const IterationSpace &space);

/// Raises `target`'s kernel and schedules it in the shape `getShape` asks
/// for its problem, or fails with `why`: the kernel does not raise; its
/// launch shape is tied (launch bounds); a launch is asynchronous or has a
/// cluster; a launch passes one buffer twice where the buffers are not
/// proved distinct; with lanes or a split, an output that is not
/// accumulated, or an accumulation whose element is not combined once per
/// point by an associative and commutative operation with a contribution
/// of its own; with a split, a combination that has no atomic form (a
/// product); or the schedule's refusal.
FailureOr<NestPlan>
matchNestPlan(const RewriteTarget &target,
              llvm::function_ref<NestShape(const NestProblem &)> getShape,
              std::string &why);

/// Replaces the kernel's body by the one `plan` schedules, re-sizes every
/// launch and, where `plan.versioned`, puts each launch under the host
/// check with the original kernel as its fallback.
LogicalResult generateNest(RewriterBase &rewriter, const RewriteTarget &target,
                           const NestPlan &plan);

/// The elements of padding after each row of a staged slice that a copy
/// fills along the chunk: 16 bytes' worth.
int64_t getStagedRowPadding(Type element);

/// generateNest for a staged schedule (NestStaging.cpp).
LogicalResult generateStagedNest(RewriterBase &rewriter,
                                 const RewriteTarget &target,
                                 const NestPlan &plan);

/// Keeps the original kernel as a fallback and puts each launch under a
/// host check that the buffers the nest writes lie apart from the others;
/// returns the launches of the rewritten kernel.
SmallVector<gpu::LaunchFuncOp> versionNestLaunches(RewriterBase &rewriter,
                                                   const RewriteTarget &target,
                                                   const IterationSpace &space);

/// Replaces the kernel's body by a new entry block with its arguments (the
/// rewriter's insertion point at its start) and returns the mapping of the
/// old arguments; the old block is left for the caller to erase.
IRMapping beginNestBody(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                        Block *&entry);

/// Clones the body of `space` once per copy (`mappings`, one per copy), each
/// operation for every copy before the next, so that the copies' accesses
/// of one operand neighbour each other. Loads of an accumulated operand
/// (`accumulated`, in register slot * copies + copy) read `current`, and its
/// stores set `next`; the other loads and stores are built by `load` and
/// `store` (operand index, copy).
void cloneNestBody(RewriterBase &rewriter, const IterationSpace &space,
                   MutableArrayRef<IRMapping> mappings,
                   ArrayRef<unsigned> accumulated, ValueRange current,
                   SmallVectorImpl<Value> &next,
                   llvm::function_ref<Value(unsigned, int64_t)> load,
                   llvm::function_ref<void(unsigned, int64_t, Value)> store);

/// Gives the kernel and every launch the one-dimensional geometry of
/// `schedule`.
void setNestGeometry(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                     ArrayRef<gpu::LaunchFuncOp> launches,
                     const NestSchedule &schedule);

/// A family whose rewrite is the kernel generated anew from a schedule of
/// its raised form (map-nest, map-lanes, map-vector, map-split): each chooses
/// the schedule's shape from its parameter, and ranks.
class NestMappingFamily : public RewriteFamilyWithPlan<NestPlan> {
public:
  using RewriteFamilyWithPlan::RewriteFamilyWithPlan;

protected:
  /// The schedule's shape for `parameter` (a valid one) and `problem`.
  virtual NestShape getShape(int64_t parameter,
                             const NestProblem &problem) const = 0;

  FailureOr<NestPlan> matchPlan(const RewriteTarget &target, int64_t parameter,
                                std::string &why) const final {
    return matchNestPlan(
        target,
        [&](const NestProblem &problem) {
          return getShape(parameter, problem);
        },
        why);
  }
  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t, NestPlan &plan) const final {
    return generateNest(rewriter, target, plan);
  }
};

} // namespace mlir::autoprof::rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_FAMILIES_NESTGENERATION_H
