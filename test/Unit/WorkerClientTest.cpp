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
  EXPECT_EQ(result->status, JobStatus::Ok);
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

TEST(WorkerClient, CompilesForTheChipsVirtualArchitecture) {
  // The fake worker answers with the job's compile.arch as its PTX.
  FakeWorker worker(
      std::string("arch=$(sed -n 's/.*\"arch\":\"\\([a-z_0-9]*\\)\".*/\\1/p' "
                  "\"$2\")\necho \"{\\\"status\\\": \\\"ok\\\", "
                  "\\\"ptx\\\": \\\"$arch\\\"}\" > ") +
      kResult);
  WorkerOptions options{worker.get(), 30, 1};
  llvm::Expected<std::string> ptx =
      compileCudaToPtx("code", "k", "sm_90a", {}, options);
  ASSERT_TRUE(static_cast<bool>(ptx)) << llvm::toString(ptx.takeError());
  EXPECT_EQ(*ptx, "compute_90a");
  // A name that is no chip is refused before any worker runs.
  ptx = compileCudaToPtx("code", "k", "compute_90", {}, options);
  ASSERT_FALSE(static_cast<bool>(ptx));
  EXPECT_EQ(llvm::toString(ptx.takeError()),
            "cannot compile for 'compute_90': expected a chip sm_XX (e.g. "
            "sm_90)");
}

TEST(WorkerClient, KillsAWorkerPastItsDeadline) {
  FakeWorker worker("echo stuck >&2; sleep 30");
  llvm::Expected<EvaluationResult> result =
      runWorker(makeJob(), {worker.get(), 1, 1});
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, JobStatus::Rejected);
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
  EXPECT_EQ(result->status, JobStatus::Rejected);
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

// A stand-in compute-sanitizer gets: --tool T --error-exitcode N
// --report-api-errors no --log-file L WORKER --job J --result R --watchdog=S.

TEST(WorkerClient, ASanitizerErrorIsAFindingWithItsReport) {
  FakeWorker worker(std::string("echo '{\"status\": \"ok\"}' > ") + kResult);
  FakeWorker sanitizer(
      "[ \"$1 $2 $3 $4 $5 $6 $7\" = '--tool racecheck --error-exitcode 86 "
      "--report-api-errors no --log-file' ] || exit 7\n"
      "log=$8; shift 8; \"$@\"\n"
      "printf '========= COMPUTE-SANITIZER\\n========= Error: Race reported "
      "between Write access at k+0x10\\n=========     and Read access at "
      "k+0x20\\n=========\\n========= RACECHECK SUMMARY: 1 hazard displayed "
      "(1 error, 0 warnings)\\n' > \"$log\"\nexit 86");
  llvm::Expected<SanitizerReport> report =
      runWorkerUnderSanitizer(makeJob(), {worker.get(), 30, 1},
                              SanitizerTool::Racecheck, sanitizer.get());
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_TRUE(report->found);
  EXPECT_EQ(report->summary,
            "Error: Race reported between Write access at k+0x10; and Read "
            "access at k+0x20; RACECHECK SUMMARY: 1 hazard displayed (1 "
            "error, 0 warnings)");
  EXPECT_EQ(report->result.status, JobStatus::Ok);
}

TEST(WorkerClient, ACleanSanitizerRunIsNoFinding) {
  FakeWorker worker(std::string("echo '{\"status\": \"ok\"}' > ") + kResult);
  FakeWorker sanitizer("[ \"$2\" = memcheck ] || exit 7\nlog=$8; shift 8; "
                       "\"$@\"; status=$?\necho '========= ERROR SUMMARY: 0 "
                       "errors' > \"$log\"\nexit $status");
  llvm::Expected<SanitizerReport> report =
      runWorkerUnderSanitizer(makeJob(), {worker.get(), 30, 1},
                              SanitizerTool::Memcheck, sanitizer.get());
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_FALSE(report->found);
  EXPECT_EQ(report->summary, "ERROR SUMMARY: 0 errors");
  EXPECT_EQ(report->result.status, JobStatus::Ok);
}

TEST(WorkerClient, AFindingWithoutAResultIsStillAFinding) {
  FakeWorker worker(std::string("echo '{\"status\": \"ok\"}' > ") + kResult);
  // Twelve reported lines: the first eight and the summary are kept.
  FakeWorker sanitizer("log=$8\nfor i in 1 2 3 4 5 6 7 8 9 10 11; do echo "
                       "\"========= line $i\"; done > \"$log\"\n"
                       "echo '========= ERROR SUMMARY: 11 errors' >> "
                       "\"$log\"\necho 'worker not started'\nexit 86");
  llvm::Expected<SanitizerReport> report =
      runWorkerUnderSanitizer(makeJob(), {worker.get(), 30, 1},
                              SanitizerTool::Memcheck, sanitizer.get());
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_TRUE(report->found);
  EXPECT_EQ(report->summary, "line 1; line 2; line 3; line 4; line 5; line 6; "
                             "line 7; line 8; ...; ERROR SUMMARY: 11 errors");
  EXPECT_EQ(report->result.status, JobStatus::Error);
  EXPECT_EQ(report->result.reason,
            "the worker wrote no result; its output: worker not started");
}

TEST(WorkerClient, ARacecheckWarningIsAFinding) {
  // racecheck's warnings (an intra-warp hazard) leave its exit status 0;
  // the same hazard reported twice is said once, the note that it stopped
  // counting not at all.
  FakeWorker worker(std::string("echo '{\"status\": \"ok\"}' > ") + kResult);
  FakeWorker sanitizer(
      "log=$8; shift 8; \"$@\"\n"
      "for i in 1 2; do printf '========= Warning: Race reported between "
      "Write access at k+0x180\\n=========     and Read access at k+0x1b0 "
      "[64 hazards]\\n=========\\n'; done > \"$log\"\n"
      "echo '========= Warning: Maximum number of hazards reached.' >> "
      "\"$log\"\n"
      "echo '========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 "
      "warnings)' >> \"$log\"");
  llvm::Expected<SanitizerReport> report =
      runWorkerUnderSanitizer(makeJob(), {worker.get(), 30, 1},
                              SanitizerTool::Racecheck, sanitizer.get());
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_TRUE(report->found);
  EXPECT_EQ(report->summary,
            "Warning: Race reported between Write access at k+0x180; and "
            "Read access at k+0x1b0 [64 hazards]; RACECHECK SUMMARY: 2 "
            "hazards displayed (0 errors, 2 warnings)");
}

TEST(WorkerClient, AMissingSanitizerIsAnError) {
  llvm::Expected<std::string> found =
      findComputeSanitizer("/nonexistent/compute-sanitizer");
  ASSERT_FALSE(static_cast<bool>(found));
  EXPECT_EQ(llvm::toString(found.takeError()),
            "compute-sanitizer '/nonexistent/compute-sanitizer' is not an "
            "executable file");
}

} // namespace
