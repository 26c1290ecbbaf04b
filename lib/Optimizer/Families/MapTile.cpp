//===- MapTile.cpp - map-tile=R: a register tile of R x V points ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A contraction that raises to its iteration space (autoprof/Raise) gets a
// new body whose schedule (autoprof/Schedule/NestSchedule.h) gives each
// thread a register tile: R consecutive points along the reuse dimension
// (as map-reuse) times V consecutive points along the contiguous one (as
// map-vector), V the widest of 4 and 2 that divides its extent. Per
// reduction point the thread loads the operand the reuse dimension does not
// index once as a vector of V elements, and the other operand once per row
// of the tile (common-subexpression elimination merges the copies' loads
// of one address), for R x V multiply-adds: R + 1 loads where one thread
// per point makes 2 R V. Whatever the operands' layout (a transposed
// operand, a convolution's window), the tile is found in the raised form.
// Where no vector width divides the contiguous extent, V is 1: the tile is
// map-reuse's.
//
//===----------------------------------------------------------------------===//

#include "Families.h"
#include "NestGeneration.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {

class MapTileFamily : public NestMappingFamily {
public:
  MapTileFamily() : NestMappingFamily(BuiltinRewriteFamily::MapTile) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where map-reuse is proposed (getNestReuseScore): 4 rows, right before
    // map-reuse=4. A 4 x 4 tile then fills half the slots at least, as
    // many as its registers let stay resident. Not set from a measurement
    // yet.
    std::optional<double> base = getNestReuseScore(evidence);
    if (!base)
      return;
    ranked.push_back({*base - 0.015, 4});
  }

protected:
  NestShape getShape(int64_t rows, const NestProblem &problem) const override {
    NestShape shape;
    shape.threadsPerBlock = kNestThreadsPerBlock;
    shape.reuse = rows;
    int64_t extent = problem.parallelExtents.empty()
                         ? 1
                         : problem.parallelExtents[problem.contiguous];
    shape.vector = extent % 4 == 0 ? 4 : extent % 2 == 0 ? 2 : 1;
    return shape;
  }
};

} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMapTileFamily() {
  return std::make_unique<MapTileFamily>();
}
