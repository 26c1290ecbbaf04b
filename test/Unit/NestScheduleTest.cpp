//===- NestScheduleTest.cpp - Schedules for a raised parallel nest --------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Schedule/NestSchedule.h"

#include "gtest/gtest.h"

using namespace mlir::autoprof;

namespace {

TEST(NestScheduleTest, PutsTheContiguousDimensionInnermost) {
  // An NHWC output (n, h, w, c) whose channels are contiguous.
  NestProblem problem;
  problem.parallelExtents = {8, 56, 56, 64};
  problem.contiguous = 3;
  std::string why;
  std::optional<NestSchedule> schedule = scheduleNest(problem, 256, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->order, (llvm::SmallVector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(schedule->points, 8 * 56 * 56 * 64);
  EXPECT_EQ(schedule->blocks, 8 * 56 * 56 * 64 / 256);
  EXPECT_EQ(schedule->threadsPerBlock, 256);
}

TEST(NestScheduleTest, MovesAnInnerDimensionOutOfTheLanes) {
  // Upstream's order (c, h, w) for an HWC buffer whose c is contiguous:
  // c goes innermost, h and w keep their order outside it.
  NestProblem problem;
  problem.parallelExtents = {32, 512, 512};
  problem.contiguous = 0;
  std::string why;
  std::optional<NestSchedule> schedule = scheduleNest(problem, 128, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->order, (llvm::SmallVector<unsigned>{1, 2, 0}));
}

TEST(NestScheduleTest, RoundsTheGridUpForSizesNoBlockDivides) {
  NestProblem problem;
  problem.parallelExtents = {1000, 777};
  problem.contiguous = 1;
  std::string why;
  std::optional<NestSchedule> schedule = scheduleNest(problem, 512, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->points, 777000);
  EXPECT_EQ(schedule->blocks, (777000 + 511) / 512);
  EXPECT_GT(schedule->blocks * schedule->threadsPerBlock, schedule->points);
}

TEST(NestScheduleTest, RefusesWhatNoLaunchCanRun) {
  std::string why;
  NestProblem problem;
  problem.parallelExtents = {1024};
  EXPECT_FALSE(scheduleNest(problem, 96, why));
  EXPECT_EQ(why, "threads per block must be 64, 128, 256 or 512");

  NestProblem empty;
  EXPECT_FALSE(scheduleNest(empty, 256, why));
  EXPECT_EQ(why, "the nest has no parallel dimension");

  NestProblem huge;
  huge.parallelExtents = {int64_t(1) << 40, 64};
  EXPECT_FALSE(scheduleNest(huge, 64, why));
  EXPECT_EQ(why, "the nest needs more blocks than a grid holds along x");

  NestProblem overflow;
  overflow.parallelExtents = {int64_t(1) << 40, int64_t(1) << 40};
  EXPECT_FALSE(scheduleNest(overflow, 64, why));
  EXPECT_EQ(why, "the nest has more points than a 64-bit index counts");
}

} // namespace
