//===- MapVector.cpp - map-vector=V: V points per thread of a raised nest -===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A raised kernel (autoprof/Raise) mapped as map-nest maps it, one point
// per thread along the lanes, moves one element per access: two bytes for
// f16, one for i8, where a memory-bound kernel wants 16 bytes in flight per
// access. Here each thread takes V consecutive points along the contiguous
// dimension (autoprof/Schedule/NestSchedule.h; V divides its extent): each
// operation of the body runs once per point, the copies side by side, and
// the copies' accesses of neighbouring elements merge into one access of V
// elements where the memory-access analysis proves them aligned
// (mergeNeighbouringAccesses). Blocks have 256 threads.
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

class MapVectorFamily : public NestMappingFamily {
public:
  MapVectorFamily() : NestMappingFamily(BuiltinRewriteFamily::MapVector) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where a new mapping is worth it (getNestMappingScore), 16 bytes of
    // the narrowest element per thread, right after map-nest with 256
    // threads: a memory-bound kernel of elements narrower than 4 bytes
    // gains the most.
    std::optional<double> base = getNestMappingScore(evidence);
    if (!base)
      return;
    int64_t bytes = std::max<int64_t>(1, evidence.narrowestElementBytes);
    ranked.push_back({*base - 0.05, std::min<int64_t>(16, 16 / bytes)});
  }

protected:
  NestShape getShape(int64_t vector, const NestProblem &) const override {
    return {kNestThreadsPerBlock, /*lanes=*/1, vector};
  }
};

} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMapVectorFamily() {
  return std::make_unique<MapVectorFamily>();
}
