//===- WorkerClientTest.cpp - Failure paths of running the worker ---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Stand-in workers (shell scripts) play the ways a real worker can fail, so
// that the client's handling is tested without a GPU.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/WorkerClient.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof::runtime;

namespace {

/// A temporary executable shell script.
class FakeWorker {
public:
  explicit FakeWorker(llvm::StringRef body) {
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("fake-worker", "sh", path));
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    EXPECT_FALSE(ec);
    os << "#!/bin/sh\n" << body << "\n";
    os.close();
    llvm::sys::fs::setPermissions(path, llvm::sys::fs::owner_all);
  }
  ~FakeWorker() { llvm::sys::fs::remove(path); }
  std::string get() const { return std::string(path); }

private:
  llvm::SmallString<128> path;
};

EvaluationJob makeJob() {
  EvaluationJob job;
  job.kernel.code = "code";
  job.kernel.entry = "k";
  return job;
}

/// Result file argument of the fake worker: "$4" (--job J --result R ...).
constexpr const char *kResult = "\"$4\"";

TEST(WorkerClient, PassesTheResultThrough) {
  FakeWorker worker(std::string("cat > ") + kResult +
                    " <<'EOF'\n{\"status\": \"ok\", \"timing\": "
                    "{\"median_us\": 42.0, \"samples\": 10}}\nEOF");
  llvm::Expected<EvaluationResult> result =
      runWorker(makeJob(), {worker.get(), 30, 1});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, "ok");
  EXPECT_EQ(result->medianUs, std::optional<double>(42.0));
}

TEST(WorkerClient, SendsTheJob) {
  // The fake worker echoes the entry name of the job it was given.
  FakeWorker worker(
      std::string("entry=$(sed -n 's/.*\"entry\":\"\\([a-z]*\\)\".*/\\1/p' "
                  "\"$2\")\necho \"{\\\"status\\\": \\\"error\\\", "
                  "\\\"reason\\\": \\\"$entry\\\"}\" > ") +
      kResult);
  llvm::Expected<EvaluationResult> result =
      runWorker(makeJob(), {worker.get(), 30, 1});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->reason, "k");
}

TEST(WorkerClient, KillsAWorkerPastItsDeadline) {
  FakeWorker worker("echo stuck >&2; sleep 30");
  llvm::Expected<EvaluationResult> result =
      runWorker(makeJob(), {worker.get(), 1, 1});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, "rejected");
  EXPECT_NE(result->reason.find("did not finish within the deadline of 2 s"),
            std::string::npos)
      << result->reason;
  EXPECT_NE(result->reason.find("stuck"), std::string::npos) << result->reason;
}

TEST(WorkerClient, ReportsAWorkerKilledByASignal) {
  FakeWorker worker("kill -SEGV $$");
  llvm::Expected<EvaluationResult> result =
      runWorker(makeJob(), {worker.get(), 30, 1});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, "rejected");
  EXPECT_NE(result->reason.find("the worker crashed"), std::string::npos)
      << result->reason;
}

TEST(WorkerClient, AWorkerThatWritesNothingIsAnError) {
  FakeWorker worker("echo 'something went wrong' >&2; exit 3");
  llvm::Expected<EvaluationResult> result =
      runWorker(makeJob(), {worker.get(), 30, 1});
  ASSERT_FALSE(static_cast<bool>(result));
  std::string message = llvm::toString(result.takeError());
  EXPECT_NE(message.find("exited with status 3 without writing a result"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("something went wrong"), std::string::npos);
}

TEST(WorkerClient, AnUnreadableResultIsAnError) {
  FakeWorker worker(std::string("echo '{\"status\": \"maybe\"}' > ") + kResult);
  llvm::Expected<EvaluationResult> result =
      runWorker(makeJob(), {worker.get(), 30, 1});
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_NE(llvm::toString(result.takeError())
                .find("unreadable result: expected \"ok\", \"rejected\" or "
                      "\"error\" at result.status"),
            std::string::npos);
}

TEST(WorkerClient, AMissingWorkerIsAnError) {
  llvm::Expected<EvaluationResult> result =
      runWorker(makeJob(), {"/nonexistent/autoprof-worker", 30, 1});
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "worker '/nonexistent/autoprof-worker' is not an executable file");
}

} // namespace
