//===- GpuTargetTest.cpp - What the rewrites assume of a GPU --------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Target/GpuTarget.h"

#include "gtest/gtest.h"

using namespace mlir::autoprof;

namespace {

TEST(GpuTargetTest, DescribesTheDefaultChip) {
  const GpuTarget &gpu = getDefaultGpuTarget();
  EXPECT_EQ(gpu.chip, "sm_90");
  EXPECT_EQ(gpu.multiprocessors, 132);
  EXPECT_EQ(gpu.getResidentThreadSlots(), 132 * 2048);
  EXPECT_EQ(gpu.staticSharedPerBlock, 48 * 1024);
  EXPECT_EQ(gpu.registersPerBlock, 65536);
}

TEST(GpuTargetTest, FindsChipsByTheirPtxName) {
  const GpuTarget *ampere = findGpuTarget("sm_80");
  ASSERT_NE(ampere, nullptr);
  EXPECT_EQ(ampere->multiprocessors, 108);
  // An architecture-specific suffix names the same chip.
  EXPECT_EQ(findGpuTarget("sm_90a"), &getDefaultGpuTarget());
  EXPECT_EQ(findGpuTarget("sm_9000"), nullptr);
  EXPECT_EQ(findGpuTarget(""), nullptr);
}

TEST(GpuTargetTest, EveryChipIsConsistent) {
  for (const GpuTarget &gpu : getGpuTargets()) {
    EXPECT_TRUE(gpu.chip.starts_with("sm_")) << gpu.chip.str();
    EXPECT_GT(gpu.multiprocessors, 0) << gpu.chip.str();
    EXPECT_GE(gpu.threadsPerMultiprocessor, gpu.maxThreadsPerBlock)
        << gpu.chip.str();
    EXPECT_LE(gpu.registersPerBlock, gpu.registersPerMultiprocessor)
        << gpu.chip.str();
    EXPECT_LE(gpu.staticSharedPerBlock, gpu.sharedPerMultiprocessor)
        << gpu.chip.str();
    EXPECT_EQ(findGpuTarget(gpu.chip), &gpu);
  }
}

} // namespace
