//===- MapNest.cpp - map-nest=T: a raised nest mapped anew ----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel that raises to its iteration space (autoprof/Raise) gets a new
// body generated from a schedule (autoprof/Schedule/NestSchedule.h): one
// thread per parallel point, the points linearized with the dimension the
// largest accesses walk contiguously innermost, so that a warp's lanes take
// consecutive elements along it, in blocks of T threads along x; each thread
// runs the reductions in loops that keep the accumulated elements in
// registers and stores each output once. The original mapping does not
// matter: a rank-4 NHWC nest whose channels upstream left to a per-thread
// loop or to the grid's z gets its channels on the lanes.
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

class MapNestFamily : public NestMappingFamily {
public:
  MapNestFamily() : NestMappingFamily(BuiltinRewriteFamily::MapNest) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    std::optional<double> base = getNestMappingScore(evidence);
    if (!base)
      return;
    ranked.push_back({*base, 256});
    ranked.push_back({*base - 0.1, 128});
    ranked.push_back({*base - 0.2, 512});
  }

protected:
  NestShape getShape(int64_t threads, const NestProblem &) const override {
    return {threads};
  }
};

} // namespace

std::unique_ptr<RewriteFamily> mlir::autoprof::rewrites::createMapNestFamily() {
  return std::make_unique<MapNestFamily>();
}
