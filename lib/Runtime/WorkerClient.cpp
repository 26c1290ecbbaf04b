//===- WorkerClient.cpp - Run evaluation jobs in autoprof-worker ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/WorkerClient.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace autoprof::runtime;

/// Anchor for getMainExecutable.
static int kAnchor;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

llvm::Expected<std::string>
autoprof::runtime::findWorker(llvm::StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (llvm::sys::fs::can_execute(explicitPath))
      return explicitPath.str();
    return makeError("worker '" + explicitPath + "' is not an executable file");
  }
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, &kAnchor);
  llvm::SmallString<256> sibling(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(sibling, "autoprof-worker");
  if (llvm::sys::fs::can_execute(sibling))
    return std::string(sibling);
  if (llvm::ErrorOr<std::string> onPath =
          llvm::sys::findProgramByName("autoprof-worker"))
    return *onPath;
  return makeError("autoprof-worker was found neither next to " + self +
                   " nor on PATH; it is built only where the CUDA toolkit "
                   "is found at configure time");
}

/// The last lines of a log, for error messages.
static std::string tailOf(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  llvm::StringRef text = (*buffer)->getBuffer().rtrim();
  if (text.size() > 2000)
    text = text.take_back(2000);
  return text.str();
}

llvm::Expected<EvaluationResult>
autoprof::runtime::runWorker(const EvaluationJob &job,
                             const WorkerOptions &options) {
  llvm::Expected<std::string> worker = findWorker(options.workerPath);
  if (!worker)
    return worker.takeError();

  llvm::SmallString<128> jobPath, resultPath, logPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("autoprof-job", "json", jobPath))
    return makeError("cannot create a job file: " + ec.message());
  llvm::FileRemover removeJob(jobPath);
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "autoprof-result", "json", resultPath))
    return makeError("cannot create a result file: " + ec.message());
  llvm::FileRemover removeResult(resultPath);
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("autoprof-worker", "log", logPath))
    return makeError("cannot create a log file: " + ec.message());
  llvm::FileRemover removeLog(logPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(jobPath, ec);
    if (ec)
      return makeError("cannot write " + jobPath + ": " + ec.message());
    os << llvm::json::Value(toJSON(job));
  }
  // The result file stays empty unless the worker writes a result.

  // The worker's own watchdog reports a hang as a result; killing the
  // process a little later is the backstop when even that is stuck.
  // Saturate so that a huge deadline cannot wrap around to a short one.
  unsigned deadline = std::max(1u, options.deadlineSeconds);
  unsigned killAfter =
      deadline > UINT32_MAX / 2
          ? UINT32_MAX / 2
          : deadline + std::min(options.killGraceSeconds, UINT32_MAX / 2);
  std::string watchdog = "--watchdog=" + std::to_string(deadline);
  llvm::SmallVector<llvm::StringRef> args = {*worker,    "--job",    jobPath,
                                             "--result", resultPath, watchdog};
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(logPath), llvm::StringRef(logPath)};
  std::string message;
  bool failedToStart = false;
  int rc = llvm::sys::ExecuteAndWait(
      *worker, args, /*Env=*/std::nullopt, redirects, killAfter,
      /*MemoryLimit=*/0, &message, &failedToStart);
  if (failedToStart)
    return makeError("cannot start " + *worker + ": " + message);

  EvaluationResult result;
  if (rc < 0) {
    // Killed by the deadline or by a signal: the job's kernel is to blame.
    result.status = "rejected";
    if (llvm::StringRef(message).contains("timed out"))
      result.reason = "the worker did not finish within the deadline of " +
                      std::to_string(killAfter) +
                      " s (a hanging kernel?) and was killed";
    else
      result.reason = "the worker crashed (" + message + ")";
    std::string log = tailOf(logPath);
    if (!log.empty())
      result.reason += "; its last output: " + log;
    return result;
  }

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(resultPath);
  if (!text || (*text)->getBuffer().trim().empty())
    return makeError(
        "autoprof-worker exited with status " + llvm::Twine(rc) +
        " without writing a result" +
        (tailOf(logPath).empty() ? "" : "; its output: " + tailOf(logPath)));
  llvm::Expected<EvaluationResult> parsed =
      parseDocument<EvaluationResult>((*text)->getBuffer(), "result");
  if (!parsed)
    return makeError("autoprof-worker wrote an unreadable result: " +
                     llvm::toString(parsed.takeError()));
  return parsed;
}
