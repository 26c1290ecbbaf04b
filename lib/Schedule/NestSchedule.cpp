//===- NestSchedule.cpp - Schedules for a raised parallel nest ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Schedule/NestSchedule.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir::autoprof;

llvm::ArrayRef<int64_t> mlir::autoprof::getNestBlockSizes() {
  static const int64_t sizes[] = {64, 128, 256, 512};
  return sizes;
}

std::optional<NestSchedule>
mlir::autoprof::scheduleNest(const NestProblem &problem,
                             int64_t threadsPerBlock, std::string &why) {
  if (!llvm::is_contained(getNestBlockSizes(), threadsPerBlock)) {
    why = "threads per block must be 64, 128, 256 or 512";
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
  NestSchedule schedule;
  for (unsigned d = 0; d < problem.parallelExtents.size(); ++d)
    if (d != problem.contiguous)
      schedule.order.push_back(d);
  schedule.order.push_back(problem.contiguous);
  schedule.threadsPerBlock = threadsPerBlock;
  schedule.points = points;
  schedule.blocks = (points + threadsPerBlock - 1) / threadsPerBlock;
  if (schedule.blocks > maxBlocks) {
    why = "the nest needs more blocks than a grid holds along x";
    return std::nullopt;
  }
  return schedule;
}
