//===- MapStack.cpp - map-stack=S: stacked lanes for strided reductions ---===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel that raises to its iteration space (autoprof/Raise), whose
// largest loads do not walk a reduction contiguously (a column reduction, a
// pool over rows, channel statistics in NHWC), gets a new body whose
// schedule (autoprof/Schedule/NestSchedule.h) stacks 8 lanes per point: a
// block of 256 threads is 8 rows of 32 consecutive points, row l takes
// every 8th reduction point, and after a barrier the first row combines
// the rows through shared memory. Each warp reads 32 consecutive points of
// one reduction row, as one thread per point would, with 8 times the
// threads. With S chunks (S > 1) the blocks also split each point's
// reductions across the grid, each chunk's total combined into the output
// by an atomic operation, as map-split does: one atomic per block and point
// instead of one per thread.
//
//===----------------------------------------------------------------------===//

#include "Families.h"
#include "NestGeneration.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {

/// Lanes (rows) per point: rows of a warp of points in a block of
/// kNestThreadsPerBlock.
constexpr int64_t kStackedLanes = 8;

class MapStackFamily : public NestMappingFamily {
public:
  MapStackFamily() : NestMappingFamily(BuiltinRewriteFamily::MapStack) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where no reduction is what the largest loads walk contiguously (the
    // lanes of map-lanes and map-split would read apart), there is a row of
    // 32 points at least, and 8 threads per point still fit the GPU's
    // resident thread slots: the chunks that fill them (chooseNestSplit,
    // within what the combination bears), 1 where none. Where map-split's
    // chunks are limited by a compare-and-swap combination, first (10.25);
    // where the points fill at most a quarter of the GPU, right after
    // map-split (10.19), else after it (9.69). Not for a contraction, whose
    // tile families stage the shared operand. On an H100, the first rule
    // took a column maximum over 1000 i8 columns to 36.8 us with 16
    // chunks, from 246 us with one thread per column (map-split was
    // slower); the other two were not measured yet.
    if (!evidence.raises || evidence.raisedContiguousReduction ||
        evidence.raisedContraction || evidence.raisedParallelPoints < 32 ||
        evidence.raisedReductionPoints < 2 * kStackedLanes * 16)
      return;
    double slots = evidence.getResidentThreadSlots();
    if (evidence.raisedParallelPoints * kStackedLanes > slots)
      return;
    int64_t split =
        chooseNestSplit(evidence, kStackedLanes, evidence.raisedSplitLimit)
            .value_or(1);
    std::optional<int64_t> unlimited = chooseNestSplit(evidence, 1);
    bool limited = unlimited && evidence.raisedSplitLimit < *unlimited;
    bool few = evidence.raisedParallelPoints <= slots / 4;
    ranked.push_back({limited ? 10.25 : few ? 10.19 : 9.69, split});
  }

protected:
  NestShape getShape(int64_t split, const NestProblem &) const override {
    NestShape shape;
    shape.threadsPerBlock = kNestThreadsPerBlock;
    shape.lanes = kStackedLanes;
    shape.split = split;
    shape.stacked = true;
    return shape;
  }
};

} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMapStackFamily() {
  return std::make_unique<MapStackFamily>();
}
