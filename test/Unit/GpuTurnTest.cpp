//===- GpuTurnTest.cpp - Workers' turns on a shared GPU -------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Two turns on one lock file stand for two workers of one GPU (flock(2)
// locks of two open files conflict within a process as across processes).
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/GpuTurn.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace autoprof::runtime;

namespace {

class GpuTurnTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gpu-turn", folder));
    lockPath = folder;
    llvm::sys::path::append(lockPath, "gpu0.lock");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(folder); }

  llvm::SmallString<128> folder, lockPath;
};

TEST_F(GpuTurnTest, ASecondWorkerWaitsUntilTheFirstGivesTheGpuBack) {
  GpuTurn first(lockPath.str().str());
  llvm::Expected<double> waited = first.take();
  ASSERT_TRUE(static_cast<bool>(waited)) << llvm::toString(waited.takeError());
  EXPECT_LT(*waited, 1.0);
  EXPECT_TRUE(first.held());

  std::atomic<bool> secondHasIt{false};
  double secondWaited = 0;
  std::thread other([&] {
    GpuTurn second(lockPath.str().str());
    llvm::Expected<double> w = second.take();
    ASSERT_TRUE(static_cast<bool>(w)) << llvm::toString(w.takeError());
    secondWaited = *w;
    secondHasIt = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(secondHasIt) << "two workers ran on the GPU at once";
  first.give();
  EXPECT_FALSE(first.held());
  other.join();
  EXPECT_TRUE(secondHasIt);
  EXPECT_GE(secondWaited, 0.25);
}

TEST_F(GpuTurnTest, TakingATurnHeldAlreadyOrWithoutALockDoesNotWait) {
  GpuTurn turn(lockPath.str().str());
  ASSERT_TRUE(static_cast<bool>(turn.take()));
  llvm::Expected<double> again = turn.take();
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(*again, 0.0);

  GpuTurn alone("");
  llvm::Expected<double> waited = alone.take();
  ASSERT_TRUE(static_cast<bool>(waited));
  EXPECT_EQ(*waited, 0.0);
  EXPECT_FALSE(alone.held());
}

TEST_F(GpuTurnTest, TheTurnEndsWithItsOwner) {
  {
    GpuTurn turn(lockPath.str().str());
    ASSERT_TRUE(static_cast<bool>(turn.take()));
  }
  GpuTurn next(lockPath.str().str());
  llvm::Expected<double> waited = next.take();
  ASSERT_TRUE(static_cast<bool>(waited));
  EXPECT_LT(*waited, 1.0);
}

TEST_F(GpuTurnTest, ALockFileThatCannotBeOpenedIsAnErrorNamingIt) {
  llvm::SmallString<128> missing(folder);
  llvm::sys::path::append(missing, "no-such-folder", "gpu0.lock");
  GpuTurn turn(missing.str().str());
  llvm::Expected<double> waited = turn.take();
  ASSERT_FALSE(static_cast<bool>(waited));
  std::string message = llvm::toString(waited.takeError());
  EXPECT_NE(message.find("cannot open the GPU's lock file"), std::string::npos)
      << message;
  EXPECT_NE(message.find(missing.str().str()), std::string::npos) << message;
  EXPECT_NE(message.find("AUTOPROF_GPU_LOCK"), std::string::npos) << message;
  EXPECT_FALSE(turn.held());
}

TEST_F(GpuTurnTest, TheEnvironmentNamesTheLockFile) {
  ::setenv(kGpuLockVariable, lockPath.c_str(), 1);
  GpuTurn named = GpuTurn::fromEnvironment();
  EXPECT_EQ(named.path(), lockPath.str());
  ::unsetenv(kGpuLockVariable);
  GpuTurn none = GpuTurn::fromEnvironment();
  EXPECT_TRUE(none.path().empty());
}

} // namespace
