//===- MapLanes.cpp - map-lanes=L: lanes split a raised nest's reductions -===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A raised kernel (autoprof/Raise) whose reductions are long and whose
// parallel points are few, or whose largest loads walk a reduction
// dimension contiguously, gets a new body in which L consecutive lanes of a
// warp share each parallel point (autoprof/Schedule/NestSchedule.h): lane l
// accumulates every L-th point of the linearized reductions (the contiguous
// reduction dimension innermost, so that the lanes read consecutive
// elements) from the combination's neutral element, shuffles combine the
// lanes' partial results, and the first lane combines the output's element
// with the total and stores it. Unlike warp-reduce, which splits one loop
// that carries a value in f32 or i32, it splits any number of reduction
// dimensions in any mapping, of any element type up to 64 bits, and needs
// no register-accumulate first. Blocks have 256 threads. Beyond a warp
// (64, 128 or 256 lanes), the warps of a point combine their totals through
// the block's shared memory after a barrier: the block reduction strategy,
// for points so few that a warp each leaves the GPU idle.
//
// The body follows the schedule (NestGeneration.cpp), which also keeps the
// original kernel as the fallback of launches whose buffers may overlap.
//
//===----------------------------------------------------------------------===//

#include "Families.h"
#include "NestGeneration.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {

class MapLanesFamily : public NestMappingFamily {
public:
  MapLanesFamily() : NestMappingFamily(BuiltinRewriteFamily::MapLanes) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Lanes pay where the reductions are long (two points per lane at
    // least). Where the lanes read a reduction's contiguous elements, a
    // warp's requests become contiguous: 32 and 8 lanes, just below
    // register-accumulate, on which the loop-splitting families build (a
    // contraction's contiguous reduction reads its other operand across
    // rows, which the tile families stage: there only where its points
    // are few). Where only the parallel points are few (fewer than the
    // GPU's resident thread slots), the lanes fill the GPU but each reads
    // another row: as many lanes as keep a 32-byte sector's worth of
    // consecutive points per row, late.
    if (!evidence.raises || evidence.raisedReductionPoints < 64)
      return;
    bool few = evidence.raisedParallelPoints <
               evidence.getResidentThreadSlots();
    if (evidence.raisedContiguousReduction &&
        (few || !evidence.raisedContraction)) {
      ranked.push_back({9.9, 32});
      // Where a warp per point still fills at most a quarter of the slots
      // and each of 256 lanes keeps 16 points, a block per point.
      if (evidence.raisedParallelPoints * 32 <=
              evidence.getResidentThreadSlots() / 4 &&
          evidence.raisedReductionPoints >= 256 * 16)
        ranked.push_back({9.85, 256});
      ranked.push_back({9.8, 8});
      return;
    }
    if (few && evidence.narrowestElementBytes >= 2)
      ranked.push_back({4.3, evidence.narrowestElementBytes});
  }

protected:
  NestShape getShape(int64_t lanes, const NestProblem &) const override {
    return {kNestThreadsPerBlock, lanes};
  }
};

} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMapLanesFamily() {
  return std::make_unique<MapLanesFamily>();
}
