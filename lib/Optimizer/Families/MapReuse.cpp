//===- MapReuse.cpp - map-reuse=R: points per thread that share loads -----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel that raises to its iteration space (autoprof/Raise) gets a new
// body whose schedule (autoprof/Schedule/NestSchedule.h) gives each thread
// R consecutive points along the reuse dimension: the parallel dimension
// that the largest loads per reduction point do not depend on. The R
// points' copies of the body load those elements once (the copies' loads
// of one address are one load after common-subexpression elimination) and
// keep R accumulators in registers: a convolution's thread computes R
// output channels from each input element it loads, a product's R rows
// from each element of the other operand. Whatever the loop structure
// upstream left (the output channels in a per-thread loop, in the grid's
// z, or in a tile's y), the reuse is found in the raised form.
//
//===----------------------------------------------------------------------===//

#include "Families.h"
#include "NestGeneration.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {

class MapReuseFamily : public NestMappingFamily {
public:
  MapReuseFamily() : NestMappingFamily(BuiltinRewriteFamily::MapReuse) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where a new mapping is worth it (getNestMappingScore) and points
    // share the loads of a reduction (a contraction), 4 and 8 points per
    // thread right after map-nest with 256 threads, where the GPU's thread
    // slots stay filled twice over with 4. Not set from a measurement yet.
    std::optional<double> base = getNestReuseScore(evidence);
    if (!base)
      return;
    ranked.push_back({*base - 0.02, 4});
    ranked.push_back({*base - 0.03, 8});
  }

protected:
  NestShape getShape(int64_t reuse, const NestProblem &) const override {
    NestShape shape;
    shape.threadsPerBlock = kNestThreadsPerBlock;
    shape.reuse = reuse;
    return shape;
  }
};

} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMapReuseFamily() {
  return std::make_unique<MapReuseFamily>();
}
