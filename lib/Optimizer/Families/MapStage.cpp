//===- MapStage.cpp - map-stage=R: a block tile staged in shared memory ---===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A contraction that raises to its iteration space (autoprof/Raise) gets a
// new body whose schedule (autoprof/Schedule/NestSchedule.h) gives each
// block of 256 threads a tile of 16 V points along the contiguous dimension
// times 16 R along the reuse dimension, each thread R x V of them (V the
// widest of 4, 2 and 1 that divides the contiguous extent and leaves the
// tile less than half past it), and runs
// the reductions in chunks of 16 points: per chunk the block copies the
// slices of the operands its points share into shared memory once
// (NestStaging.cpp), and each thread's R + V reads there serve R x V
// multiply-adds. Where map-tile's threads each load the slices they need
// from global memory (through L1), the block loads each element once per
// chunk. Whatever the operands' layout (a transposed operand, a
// convolution's window), the tile and the slices are found in the raised
// form.
//
//===----------------------------------------------------------------------===//

#include "Families.h"
#include "NestGeneration.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {

/// Reduction points per chunk.
constexpr int64_t kChunk = 16;

class MapStageFamily : public NestMappingFamily {
public:
  MapStageFamily() : NestMappingFamily(BuiltinRewriteFamily::MapStage) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Every raised contraction, ahead of map-nest. On an H100 host
    // (docs/results/map-stage-h100.md) 4 rows per thread (a tile of 64 x 64
    // points) ran 3.2x to 4.5x faster than map-nest=256 on four matmuls,
    // among them one of fewer points than 8 resident slots each, and 1.5x
    // to 3.4x faster than map-tile=4; 2 rows (64 x 32) ran 2.8x faster than
    // map-nest=256 on a strided NCHW convolution, where 4 rows leave a tile
    // more than half past the extent. Below the tile families
    // (contraction-tile, mma-tile), faster where they apply.
    std::optional<double> base = getNestMappingScore(evidence);
    if (!base || !evidence.raisedContraction)
      return;
    ranked.push_back({*base + 0.04, 4});
    ranked.push_back({*base + 0.03, 2});
  }

protected:
  NestShape getShape(int64_t rows, const NestProblem &problem) const override {
    NestShape shape;
    shape.threadsPerBlock = kNestThreadsPerBlock;
    shape.reuse = rows;
    shape.stageChunk = kChunk;
    int64_t extent = problem.parallelExtents.empty()
                         ? 1
                         : problem.parallelExtents[problem.contiguous];
    shape.vector = 1;
    for (int64_t vector : {4, 2})
      if (extent % vector == 0 && kStagedTileColumns * vector < 2 * extent) {
        shape.vector = vector;
        break;
      }
    return shape;
  }
};

} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMapStageFamily() {
  return std::make_unique<MapStageFamily>();
}
