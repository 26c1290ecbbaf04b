//===- MapSplit.cpp - map-split=S: reductions split across blocks ---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel that raises to its iteration space (autoprof/Raise) gets a new
// body whose schedule (autoprof/Schedule/NestSchedule.h) splits each
// point's reductions into S chunks of threads across the grid: a warp of
// lanes per point where the largest loads walk a reduction contiguously,
// else one thread per point with consecutive threads on consecutive
// points. Each chunk accumulates its share in registers from the
// combination's neutral element, the lanes combine theirs by shuffles, and
// the chunk's total goes into the output by an atomic operation. Where the
// parallel points are few (a whole-tensor reduction has one, a column
// reduction as many as columns), the other families leave most of the GPU
// idle; the chunks fill it.
//
//===----------------------------------------------------------------------===//

#include "Families.h"
#include "NestGeneration.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {

class MapSplitFamily : public NestMappingFamily {
public:
  MapSplitFamily() : NestMappingFamily(BuiltinRewriteFamily::MapSplit) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where the parallel points (times the lanes each gets) leave resident
    // thread slots free, as many chunks as fill them (chooseNestSplit),
    // within what the outputs' atomic combination bears
    // (getNestSplitLimit). Where they fill less than a quarter of the GPU,
    // first, above register-accumulate (10) and map-lanes (9.9), and an
    // eighth of those chunks as the next try (fewer atomic combinations per
    // element); else, or where the combination's limit keeps the chunks
    // below a quarter of the GPU, just below map-lanes. A contraction's
    // tile families come first. None of these scores was set from a
    // measurement yet.
    if (!evidence.raises || evidence.raisedReductionPoints < 64 ||
        evidence.raisedParallelPoints < 1)
      return;
    int64_t lanes = evidence.raisedContiguousReduction ? 32 : 1;
    double slots = evidence.getResidentThreadSlots();
    std::optional<int64_t> split =
        chooseNestSplit(evidence, lanes, evidence.raisedSplitLimit);
    if (!split)
      return;
    std::optional<int64_t> unlimited = chooseNestSplit(evidence, lanes);
    bool limited =
        unlimited && *unlimited > *split &&
        evidence.raisedParallelPoints * double(lanes * *split) < slots / 4;
    bool few = evidence.raisedParallelPoints * lanes <= slots / 4;
    if (evidence.raisedContraction || !few || limited) {
      ranked.push_back({9.7, *split});
      return;
    }
    ranked.push_back({10.2, *split});
    if (*split >= 16)
      ranked.push_back({9.75, *split / 8});
  }

protected:
  NestShape getShape(int64_t split, const NestProblem &problem) const override {
    NestShape shape;
    shape.threadsPerBlock = kNestThreadsPerBlock;
    shape.lanes = getNestSplitLanes(problem);
    shape.split = split;
    return shape;
  }
};

} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMapSplitFamily() {
  return std::make_unique<MapSplitFamily>();
}
