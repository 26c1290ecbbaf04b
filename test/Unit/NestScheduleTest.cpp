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

TEST(NestScheduleTest, GivesEachPointItsLanes) {
  // Global average pooling over NHWC: (n, c) parallel, (h, w) reduced; the
  // channels are contiguous, the reduction is not.
  NestProblem problem;
  problem.parallelExtents = {32, 256};
  problem.contiguous = 1;
  problem.reductionExtents = {7, 7};
  problem.reductionPoints = 49;
  std::string why;
  std::optional<NestSchedule> schedule = scheduleNest(problem, 256, 8, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->lanes, 8);
  EXPECT_EQ(schedule->points, 32 * 256);
  EXPECT_EQ(schedule->blocks, 32 * 256 * 8 / 256);
  EXPECT_EQ(schedule->reductionOrder, (llvm::SmallVector<unsigned>{0, 1}));
  // One lane per point keeps the reductions in each thread's loops.
  schedule = scheduleNest(problem, 256, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->lanes, 1);
  EXPECT_TRUE(schedule->reductionOrder.empty());
}

TEST(NestScheduleTest, PutsTheContiguousReductionOnTheLanes) {
  // A row sum over (k, j) of a buffer [k][i][j]: j is contiguous.
  NestProblem problem;
  problem.parallelExtents = {1000};
  problem.reductionExtents = {3, 4096};
  problem.reductionPoints = 3 * 4096;
  problem.contiguousReduction = 1;
  std::string why;
  std::optional<NestSchedule> schedule = scheduleNest(problem, 128, 32, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->reductionOrder, (llvm::SmallVector<unsigned>{0, 1}));
  EXPECT_EQ(schedule->blocks, 1000 * 32 / 128);
  problem.contiguousReduction = 0;
  schedule = scheduleNest(problem, 128, 32, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->reductionOrder, (llvm::SmallVector<unsigned>{1, 0}));
}

TEST(NestScheduleTest, RefusesLanesWithoutReductionPoints) {
  NestProblem problem;
  problem.parallelExtents = {1024};
  problem.reductionExtents = {7};
  problem.reductionPoints = 7;
  std::string why;
  EXPECT_TRUE(scheduleNest(problem, 256, 2, why)) << why;
  EXPECT_FALSE(scheduleNest(problem, 256, 4, why));
  EXPECT_EQ(why, "the nest has fewer than 8 reduction points for 4 lanes");
  EXPECT_FALSE(scheduleNest(problem, 256, 3, why));
  EXPECT_EQ(why, "lanes per point must be a power of two up to 512");
  // Beyond a warp, within a block.
  problem.reductionExtents = {4096};
  problem.reductionPoints = 4096;
  EXPECT_TRUE(scheduleNest(problem, 256, 256, why)) << why;
  EXPECT_FALSE(scheduleNest(problem, 128, 256, why));
  EXPECT_EQ(why, "256 lanes per point do not fit in a block of 128 threads");
  EXPECT_FALSE(scheduleNest(problem, 512, 1024, why));
  EXPECT_EQ(why, "lanes per point must be a power of two up to 512");
  NestProblem elementwise;
  elementwise.parallelExtents = {1024};
  EXPECT_FALSE(scheduleNest(elementwise, 256, 2, why));
  EXPECT_EQ(why, "the nest has fewer than 4 reduction points for 2 lanes");
}

TEST(NestScheduleTest, GivesEachThreadConsecutivePoints) {
  // NHWC f16 channels, 8 per thread: 64 channels make 8 groups.
  NestProblem problem;
  problem.parallelExtents = {8, 56, 56, 64};
  problem.contiguous = 3;
  std::string why;
  std::optional<NestSchedule> schedule =
      scheduleNest(problem, 256, /*lanes=*/1, /*vector=*/8, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->vector, 8);
  EXPECT_EQ(schedule->points, 8 * 56 * 56 * 8);
  EXPECT_EQ(schedule->blocks, 8 * 56 * 56 * 8 / 256);
  EXPECT_EQ(schedule->order, (llvm::SmallVector<unsigned>{0, 1, 2, 3}));
}

TEST(NestScheduleTest, RefusesVectorWidthsThatDoNotFit) {
  NestProblem problem;
  problem.parallelExtents = {1000, 12};
  problem.contiguous = 1;
  problem.reductionExtents = {64};
  problem.reductionPoints = 64;
  std::string why;
  EXPECT_TRUE(scheduleNest(problem, 256, 1, 4, why)) << why;
  EXPECT_FALSE(scheduleNest(problem, 256, 1, 8, why));
  EXPECT_EQ(why, "the vector width 8 does not divide the contiguous extent 12");
  EXPECT_FALSE(scheduleNest(problem, 256, 1, 3, why));
  EXPECT_EQ(why, "the vector width must be 1, 2, 4, 8 or 16");
  EXPECT_FALSE(scheduleNest(problem, 256, 8, 4, why));
  EXPECT_EQ(why, "a schedule takes lanes per point or a split, or several "
                 "points per thread, not both");
}

TEST(NestScheduleTest, GivesEachThreadPointsThatShareLoads) {
  // An NCHW convolution's output [32][64][64][64] (n, f, y, x), x
  // contiguous, the input shared across f: 4 channels per thread.
  NestProblem problem;
  problem.parallelExtents = {32, 64, 64, 64};
  problem.contiguous = 3;
  problem.reuse = 1;
  problem.reductionExtents = {3, 5, 5};
  problem.reductionPoints = 75;
  std::string why;
  NestShape shape;
  shape.reuse = 4;
  std::optional<NestSchedule> schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->reuse, 4);
  EXPECT_EQ(schedule->reuseDim, 1u);
  EXPECT_EQ(schedule->points, 32 * 16 * 64 * 64);
  EXPECT_EQ(schedule->blocks, 32 * 16 * 64 * 64 / 256);
  // With a vector width too: 4 x 2 points per thread.
  shape.vector = 2;
  schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->points, 32 * 16 * 64 * 32);
}

TEST(NestScheduleTest, RefusesReusesThatDoNotFit) {
  NestProblem problem;
  problem.parallelExtents = {40, 1000};
  problem.contiguous = 1;
  problem.reductionExtents = {64};
  problem.reductionPoints = 64;
  std::string why;
  NestShape shape;
  shape.reuse = 4;
  EXPECT_FALSE(scheduleNest(problem, shape, why));
  EXPECT_EQ(why, "no parallel dimension's points share the loads of a "
                 "reduction point");
  problem.reuse = 0;
  EXPECT_TRUE(scheduleNest(problem, shape, why)) << why;
  shape.reuse = 32;
  EXPECT_FALSE(scheduleNest(problem, shape, why));
  EXPECT_EQ(why, "the reuse must be a power of two up to 16");
  shape.reuse = 16;
  EXPECT_FALSE(scheduleNest(problem, shape, why));
  EXPECT_EQ(why, "the reuse 16 does not divide the reuse dimension's "
                 "extent 40");
  shape.reuse = 2;
  shape.lanes = 2;
  EXPECT_FALSE(scheduleNest(problem, shape, why));
  EXPECT_EQ(why, "a schedule takes lanes per point or a split, or several "
                 "points per thread, not both");
}

TEST(NestScheduleTest, SplitsReductionsIntoChunksOutermost) {
  // A column maximum over 8192 rows of 1000 columns, in 64 chunks: one
  // thread per point in each chunk, the chunks after all the points.
  NestProblem problem;
  problem.parallelExtents = {1000};
  problem.reductionExtents = {8192};
  problem.reductionPoints = 8192;
  std::string why;
  std::optional<NestSchedule> schedule =
      scheduleNest(problem, NestShape{256, 1, 1, 64}, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->split, 64);
  EXPECT_EQ(schedule->points, 1000);
  EXPECT_EQ(schedule->blocks, 1000 * 64 / 256);
  EXPECT_EQ(schedule->reductionOrder, (llvm::SmallVector<unsigned>{0}));
  // With lanes, a chunk is every point's lanes.
  schedule = scheduleNest(problem, NestShape{256, 32, 1, 4}, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->blocks, 1000 * 32 * 4 / 256);
}

TEST(NestScheduleTest, RefusesSplitsThatDoNotFit) {
  NestProblem problem;
  problem.parallelExtents = {16};
  problem.reductionExtents = {256};
  problem.reductionPoints = 256;
  std::string why;
  EXPECT_TRUE(scheduleNest(problem, NestShape{256, 8, 1, 16}, why)) << why;
  EXPECT_FALSE(scheduleNest(problem, NestShape{256, 8, 1, 32}, why));
  EXPECT_EQ(why, "the nest has fewer than 512 reduction points for 8 lanes "
                 "in 32 chunks");
  EXPECT_FALSE(scheduleNest(problem, NestShape{256, 1, 1, 3}, why));
  EXPECT_EQ(why, "the split must be a power of two up to 4096");
  EXPECT_FALSE(scheduleNest(problem, NestShape{256, 1, 1, 8192}, why));
  EXPECT_EQ(why, "the split must be a power of two up to 4096");
  EXPECT_FALSE(scheduleNest(problem, NestShape{256, 1, 2, 2}, why));
  EXPECT_EQ(why, "a schedule takes lanes per point or a split, or several "
                 "points per thread, not both");
}

TEST(NestScheduleTest, SplitsLanesOnlyAlongAContiguousReduction) {
  NestProblem problem;
  problem.parallelExtents = {1000};
  problem.reductionExtents = {8192};
  problem.reductionPoints = 8192;
  EXPECT_EQ(getNestSplitLanes(problem), 1);
  problem.contiguousReduction = 0;
  EXPECT_EQ(getNestSplitLanes(problem), 32);
}

TEST(NestScheduleTest, ChoosesTheSplitThatFillsTheGpu) {
  // An H100's 132 SMs of 2048 threads.
  const int64_t slots = 132 * 2048;
  // One point of a warp's lanes over 2^24 elements: the slots would take
  // 8192 chunks; 4096 is the most.
  EXPECT_EQ(chooseNestSplit(1, int64_t(1) << 24, 32, slots), 4096);
  // Over 2^20: each thread keeps 16 points at least.
  EXPECT_EQ(chooseNestSplit(1, int64_t(1) << 20, 32, slots), 2048);
  // 1000 columns of 8192 rows, a thread per point: 512 chunks of 16 rows.
  EXPECT_EQ(chooseNestSplit(1000, 8192, 1, slots), 512);
  // 100000 columns fill half the GPU: two chunks.
  EXPECT_EQ(chooseNestSplit(200000, 8192, 1, slots), 2);
  // Points that fill the GPU, or reductions too short to share: none.
  EXPECT_EQ(chooseNestSplit(300000, 8192, 1, slots), std::nullopt);
  EXPECT_EQ(chooseNestSplit(1000, 31, 1, slots), std::nullopt);
  EXPECT_EQ(chooseNestSplit(0, 8192, 1, slots), std::nullopt);
  // A limit from the combination: 1000 columns of i8 take 16 chunks.
  EXPECT_EQ(chooseNestSplit(1000, 8192, 1, slots, 16), 16);
  EXPECT_EQ(chooseNestSplit(1000, 8192, 1, slots, 1), std::nullopt);
}

TEST(NestScheduleTest, LimitsTheSplitOfACompareAndSwapCombination) {
  NestProblem problem;
  problem.parallelExtents = {1000};
  problem.reductionPoints = 8192;
  // Atomic instructions of their own: the most chunks.
  EXPECT_EQ(getNestSplitLimit(problem), kMaxNestSplit);
  // 32-bit elements combined by a compare-and-swap loop (a float maximum):
  // 64 chunks contend for each word.
  problem.compareSwapPointsPerWord = 1;
  EXPECT_EQ(getNestSplitLimit(problem), kMaxCompareSwapContention);
  // i8 elements: four points share a word, a quarter of the chunks.
  problem.compareSwapPointsPerWord = 4;
  EXPECT_EQ(getNestSplitLimit(problem), kMaxCompareSwapContention / 4);
  // Never below one chunk.
  problem.compareSwapPointsPerWord = 2 * kMaxCompareSwapContention;
  EXPECT_EQ(getNestSplitLimit(problem), 1);
}

} // namespace

namespace {

TEST(NestScheduleTest, StacksLanesInRowsOfAWarpOfPoints) {
  // 1000 columns of 8192 rows: rows of 32 columns, 8 rows a block.
  NestProblem problem;
  problem.parallelExtents = {1000};
  problem.reductionPoints = 8192;
  problem.reductionExtents = {8192};
  NestShape shape;
  shape.threadsPerBlock = 256;
  shape.lanes = 8;
  shape.stacked = true;
  std::string why;
  std::optional<NestSchedule> schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_TRUE(schedule->stacked);
  // 1000 columns take 32 blocks of 32 (the last one partly).
  EXPECT_EQ(schedule->blocks, 32);
  EXPECT_EQ(schedule->lanes, 8);
  EXPECT_EQ(schedule->reductionOrder, (llvm::SmallVector<unsigned>{0}));
  // Each chunk takes whole blocks.
  shape.split = 16;
  schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->blocks, 32 * 16);
  // 16 rows of a 256-thread block leave a row 16 points: refused.
  shape.split = 1;
  shape.lanes = 16;
  EXPECT_FALSE(scheduleNest(problem, shape, why));
  EXPECT_NE(why.find("at most 8 in a block of 256 threads"), std::string::npos)
      << why;
  // In a block of 512, 16 rows of 32.
  shape.threadsPerBlock = 512;
  EXPECT_TRUE(scheduleNest(problem, shape, why)) << why;
  // One row is no stack.
  shape.lanes = 1;
  EXPECT_FALSE(scheduleNest(problem, shape, why));
}

} // namespace

namespace {

TEST(NestScheduleTest, StagesTilesOfTheContiguousAndReuseDimensions) {
  // A batched product of 8 x 128 x 256 points over 40 reduction points:
  // the reuse dimension (index 1) has 128 rows, the contiguous one (index
  // 2) 256 columns.
  NestProblem problem;
  problem.parallelExtents = {8, 128, 256};
  problem.contiguous = 2;
  problem.reuse = 1;
  problem.reductionPoints = 40;
  problem.reductionExtents = {40};
  NestShape shape;
  shape.threadsPerBlock = 256;
  shape.vector = 4;
  shape.reuse = 4;
  shape.stageChunk = 16;
  std::string why;
  std::optional<NestSchedule> schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  // Tiles of 64 columns x 64 rows: 8 x 2 x 4 blocks, one per tile.
  EXPECT_EQ(schedule->stageChunk, 16);
  EXPECT_EQ(schedule->blocks, 8 * 2 * 4);
  EXPECT_EQ(schedule->points, 8 * 128 * 256 / 16);
  EXPECT_EQ(schedule->reuseDim, 1u);
  EXPECT_EQ(schedule->order, (llvm::SmallVector<unsigned>{0, 1, 2}));
  EXPECT_EQ(schedule->reductionOrder, (llvm::SmallVector<unsigned>{0}));
  // One row per thread: tiles of 64 x 16, four times the blocks.
  shape.reuse = 1;
  schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->blocks, 8 * 8 * 4);
  EXPECT_EQ(schedule->reuseDim, 1u);
  // Eight rows per thread: a tile of 128 rows.
  shape.reuse = 8;
  schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->blocks, 8 * 1 * 4);
  // Tiles that do not divide the extents: 200 rows take 4 tiles of 64,
  // 100 columns 2 of 64.
  problem.parallelExtents = {8, 200, 100};
  shape.reuse = 4;
  schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->blocks, 8 * 4 * 2);
  EXPECT_EQ(schedule->points, 8 * 200 * 100 / 16);
}

TEST(NestScheduleTest, StagedReductionsKeepTheirOrder) {
  // A convolution's three reduction dimensions, the last contiguous: the
  // chunks take them in the raised form's order all the same.
  NestProblem problem;
  problem.parallelExtents = {32, 64, 64};
  problem.contiguous = 2;
  problem.reuse = 0;
  problem.reductionExtents = {3, 5, 5};
  problem.reductionPoints = 75;
  problem.contiguousReduction = 1;
  NestShape shape;
  shape.vector = 4;
  shape.reuse = 2;
  shape.stageChunk = 16;
  std::string why;
  std::optional<NestSchedule> schedule = scheduleNest(problem, shape, why);
  ASSERT_TRUE(schedule) << why;
  EXPECT_EQ(schedule->reductionOrder, (llvm::SmallVector<unsigned>{0, 1, 2}));
  EXPECT_EQ(schedule->blocks, 64);
}

TEST(NestScheduleTest, RefusesStagedSchedulesThatDoNotFit) {
  NestProblem problem;
  problem.parallelExtents = {128, 256};
  problem.contiguous = 1;
  problem.reuse = 0;
  problem.reductionPoints = 64;
  problem.reductionExtents = {64};
  NestShape shape;
  shape.vector = 4;
  shape.reuse = 4;
  shape.stageChunk = 16;
  std::string why;
  ASSERT_TRUE(scheduleNest(problem, shape, why)) << why;
  auto refuses = [&](const NestShape &refused, const std::string &reason) {
    std::string message;
    EXPECT_FALSE(scheduleNest(problem, refused, message));
    EXPECT_NE(message.find(reason), std::string::npos) << message;
  };
  // Chunks: a power of two from 2 to kMaxStageChunk.
  NestShape chunk = shape;
  chunk.stageChunk = 12;
  refuses(chunk, "the staged chunk must be a power of two from 2 to 64");
  chunk.stageChunk = 2 * kMaxStageChunk;
  refuses(chunk, "the staged chunk must be a power of two from 2 to 64");
  // No lanes or split beside it.
  NestShape lanes = shape;
  lanes.vector = 1;
  lanes.reuse = 1;
  lanes.lanes = 4;
  refuses(lanes, "no lanes per point or split");
  // A tile whose rows or columns lie more than half past the extent.
  NestShape wide = shape;
  wide.reuse = 16;
  refuses(wide, "a staged tile of 64 x 256 points lies more than half past "
                "the contiguous and reuse extents 256 x 128");
  problem.parallelExtents = {128, 32};
  refuses(shape, "a staged tile of 64 x 64 points lies more than half past "
                 "the contiguous and reuse extents 32 x 128");
  // One point per thread along it is never refused: a tile of 16 x 64.
  NestShape narrow = shape;
  narrow.vector = 1;
  EXPECT_TRUE(scheduleNest(problem, narrow, why)) << why;
  problem.parallelExtents = {128, 256};
  // Fewer reduction points than a chunk.
  NestShape longer = shape;
  longer.stageChunk = 64;
  ASSERT_TRUE(scheduleNest(problem, longer, why)) << why;
  problem.reductionPoints = 32;
  refuses(longer, "fewer reduction points than a staged chunk of 64");
  // No reuse dimension.
  problem.reductionPoints = 64;
  problem.reuse.reset();
  NestShape plain = shape;
  plain.reuse = 1;
  refuses(plain, "no parallel dimension's points share the loads");
}

} // namespace
