//===- NestSchedule.cpp - Schedules for a raised parallel nest ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Schedule/NestSchedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::autoprof;

llvm::ArrayRef<int64_t> mlir::autoprof::getNestBlockSizes() {
  static const int64_t sizes[] = {64, 128, 256, 512};
  return sizes;
}

llvm::ArrayRef<int64_t> mlir::autoprof::getNestLaneCounts() {
  static const int64_t counts[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  return counts;
}

llvm::ArrayRef<int64_t> mlir::autoprof::getNestVectorWidths() {
  static const int64_t widths[] = {1, 2, 4, 8, 16};
  return widths;
}

int64_t mlir::autoprof::getNestSplitLimit(const NestProblem &problem) {
  if (problem.compareSwapPointsPerWord <= 0)
    return kMaxNestSplit;
  return std::max<int64_t>(
      1, kMaxCompareSwapContention / problem.compareSwapPointsPerWord);
}

int64_t mlir::autoprof::getNestSplitLanes(const NestProblem &problem) {
  return problem.contiguousReduction ? 32 : 1;
}

std::optional<int64_t> mlir::autoprof::chooseNestSplit(int64_t points,
                                                       int64_t reductionPoints,
                                                       int64_t lanes,
                                                       int64_t residentThreads,
                                                       int64_t maxSplit) {
  if (points <= 0 || lanes <= 0 || reductionPoints <= 0)
    return std::nullopt;
  int64_t split = 1;
  while (split < std::min(maxSplit, kMaxNestSplit) &&
         points < residentThreads / (lanes * split) &&
         reductionPoints / (lanes * split * 2) >= 16)
    split *= 2;
  if (split < 2)
    return std::nullopt;
  return split;
}

std::optional<NestSchedule>
mlir::autoprof::scheduleNest(const NestProblem &problem,
                             const NestShape &shape, std::string &why) {
  int64_t threadsPerBlock = shape.threadsPerBlock, lanes = shape.lanes,
          vector = shape.vector, split = shape.split, reuse = shape.reuse;
  if (!llvm::is_contained(getNestBlockSizes(), threadsPerBlock)) {
    why = "threads per block must be 64, 128, 256 or 512";
    return std::nullopt;
  }
  if (!llvm::is_contained(getNestLaneCounts(), lanes)) {
    why = "lanes per point must be a power of two up to 512";
    return std::nullopt;
  }
  // Lanes beyond a warp combine through the block's shared memory: a
  // point's lanes stay within one block.
  if (lanes > threadsPerBlock) {
    why = std::to_string(lanes) + " lanes per point do not fit in a block of " +
          std::to_string(threadsPerBlock) + " threads";
    return std::nullopt;
  }
  if (shape.stacked && (lanes < 2 || lanes * 32 > threadsPerBlock)) {
    why = "stacked lanes must be 2 at least and leave each row of the block a "
          "warp of points: at most " +
          std::to_string(threadsPerBlock / 32) + " in a block of " +
          std::to_string(threadsPerBlock) + " threads";
    return std::nullopt;
  }
  if (split < 1 || split > kMaxNestSplit || !llvm::isPowerOf2_64(split)) {
    why = "the split must be a power of two up to " +
          std::to_string(kMaxNestSplit);
    return std::nullopt;
  }
  // Each lane runs two reduction points at least: fewer leave lanes idle
  // and cost the shuffles (or the atomic combinations) for nothing.
  if ((lanes > 1 || split > 1) &&
      problem.reductionPoints < 2 * lanes * split) {
    why = "the nest has fewer than " + std::to_string(2 * lanes * split) +
          " reduction points for ";
    if (lanes > 1)
      why += std::to_string(lanes) + " lanes" + (split > 1 ? " in " : "");
    if (split > 1)
      why += std::to_string(split) + " chunks";
    return std::nullopt;
  }
  if (!llvm::is_contained(getNestVectorWidths(), vector)) {
    why = "the vector width must be 1, 2, 4, 8 or 16";
    return std::nullopt;
  }
  if ((lanes > 1 || split > 1) && (vector > 1 || reuse > 1)) {
    why = "a schedule takes lanes per point or a split, or several points "
          "per thread, not both";
    return std::nullopt;
  }
  if (reuse < 1 || reuse > kMaxNestReuse || !llvm::isPowerOf2_64(reuse)) {
    why = "the reuse must be a power of two up to " +
          std::to_string(kMaxNestReuse);
    return std::nullopt;
  }
  if (reuse > 1 && (!problem.reuse || *problem.reuse == problem.contiguous ||
                    *problem.reuse >= problem.parallelExtents.size())) {
    why = "no parallel dimension's points share the loads of a reduction "
          "point";
    return std::nullopt;
  }
  if (problem.contiguousReduction &&
      *problem.contiguousReduction >= problem.reductionExtents.size()) {
    why = "the contiguous reduction dimension is not one of the nest's";
    return std::nullopt;
  }
  if (problem.parallelExtents.empty() ||
      problem.contiguous >= problem.parallelExtents.size()) {
    why = "the nest has no parallel dimension";
    return std::nullopt;
  }
  // The largest grid along x (2^31 - 1 blocks), and points whose linear
  // index fits 63 bits.
  constexpr int64_t maxBlocks = (int64_t(1) << 31) - 1;
  int64_t points = 1;
  for (int64_t extent : problem.parallelExtents) {
    if (extent <= 0) {
      why = "the nest has no points";
      return std::nullopt;
    }
    if (points > (int64_t(1) << 62) / extent) {
      why = "the nest has more points than a 64-bit index counts";
      return std::nullopt;
    }
    points *= extent;
  }
  int64_t contiguousExtent = problem.parallelExtents[problem.contiguous];
  if (contiguousExtent % vector != 0) {
    why = "the vector width " + std::to_string(vector) +
          " does not divide the contiguous extent " +
          std::to_string(contiguousExtent);
    return std::nullopt;
  }
  points /= vector;
  int64_t stage = shape.stageChunk;
  if (stage != 0) {
    if (stage < 2 || stage > kMaxStageChunk || !llvm::isPowerOf2_64(stage)) {
      why = "the staged chunk must be a power of two from 2 to " +
            std::to_string(kMaxStageChunk);
      return std::nullopt;
    }
    if (lanes > 1 || split > 1 || shape.stacked) {
      why = "a staged schedule takes no lanes per point or split";
      return std::nullopt;
    }
    if (!problem.reuse || *problem.reuse == problem.contiguous ||
        *problem.reuse >= problem.parallelExtents.size()) {
      why = "no parallel dimension's points share the loads of a reduction "
            "point";
      return std::nullopt;
    }
    if (problem.reductionPoints < stage) {
      why = "the nest has fewer reduction points than a staged chunk of " +
            std::to_string(stage);
      return std::nullopt;
    }
    // The tile: kStagedTileColumns threads of `vector` points along the
    // contiguous dimension, the block's other threads of `reuse` points
    // along the reuse one. Past either extent its threads only copy; a
    // tile of which more than half would lie past an extent is refused
    // (fewer points per thread cover it).
    int64_t columns = kStagedTileColumns * vector;
    int64_t rows = threadsPerBlock / kStagedTileColumns * reuse;
    int64_t reuseExtent = problem.parallelExtents[*problem.reuse];
    if ((vector > 1 && columns >= 2 * contiguousExtent) ||
        (reuse > 1 && rows >= 2 * reuseExtent)) {
      why = "a staged tile of " + std::to_string(columns) + " x " +
            std::to_string(rows) +
            " points lies more than half past the contiguous and reuse "
            "extents " +
            std::to_string(contiguousExtent) + " x " +
            std::to_string(reuseExtent);
      return std::nullopt;
    }
  }
  NestSchedule schedule;
  schedule.stageChunk = stage;
  if (stage != 0)
    schedule.reuseDim = *problem.reuse;
  if (reuse > 1) {
    int64_t reuseExtent = problem.parallelExtents[*problem.reuse];
    if (reuseExtent % reuse != 0) {
      why = "the reuse " + std::to_string(reuse) +
            " does not divide the reuse dimension's extent " +
            std::to_string(reuseExtent);
      return std::nullopt;
    }
    points /= reuse;
    schedule.reuseDim = *problem.reuse;
  }
  schedule.vector = vector;
  schedule.reuse = reuse;
  for (unsigned d = 0; d < problem.parallelExtents.size(); ++d)
    if (d != problem.contiguous)
      schedule.order.push_back(d);
  schedule.order.push_back(problem.contiguous);
  schedule.threadsPerBlock = threadsPerBlock;
  schedule.points = points;
  schedule.lanes = lanes;
  schedule.split = split;
  if (stage != 0) {
    // The raised form's order: each point's sums keep their order.
    for (unsigned d = 0; d < problem.reductionExtents.size(); ++d)
      schedule.reductionOrder.push_back(d);
  } else if (lanes > 1 || split > 1) {
    for (unsigned d = 0; d < problem.reductionExtents.size(); ++d)
      if (d != problem.contiguousReduction)
        schedule.reductionOrder.push_back(d);
    if (problem.contiguousReduction)
      schedule.reductionOrder.push_back(*problem.contiguousReduction);
  }
  if (points > (int64_t(1) << 62) / (lanes * split)) {
    why = "the nest has more threads than a 64-bit index counts";
    return std::nullopt;
  }
  schedule.stacked = shape.stacked;
  if (shape.stacked) {
    // Each chunk takes whole blocks of threadsPerBlock / lanes points.
    int64_t rowPoints = threadsPerBlock / lanes;
    int64_t chunkBlocks = (points + rowPoints - 1) / rowPoints;
    schedule.blocks = chunkBlocks > maxBlocks / split ? maxBlocks + 1
                                                       : chunkBlocks * split;
  } else if (stage != 0) {
    // One block per tile: its threads take `vector` x `reuse` points each.
    int64_t columns = kStagedTileColumns * vector;
    int64_t rows = threadsPerBlock / kStagedTileColumns * reuse;
    int64_t tiles = 1;
    for (auto [d, extent] : llvm::enumerate(problem.parallelExtents)) {
      int64_t tile = d == problem.contiguous ? columns
                     : d == *problem.reuse   ? rows
                                             : 1;
      int64_t count = (extent + tile - 1) / tile;
      tiles = tiles > maxBlocks / count ? maxBlocks + 1 : tiles * count;
    }
    schedule.blocks = tiles;
  } else {
    int64_t threads = points * lanes * split;
    schedule.blocks = (threads + threadsPerBlock - 1) / threadsPerBlock;
  }
  if (schedule.blocks > maxBlocks) {
    why = "the nest needs more blocks than a grid holds along x";
    return std::nullopt;
  }
  return schedule;
}
