//===- WorkerClient.cpp - Run evaluation jobs in autoprof-worker ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/WorkerClient.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
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

/// The exit status compute-sanitizer is told to give when its tool reports
/// an error (the worker's own statuses are 0 and 1).
static constexpr int kSanitizerExitCode = 86;

/// Runs `job` in the worker, directly or, when `wrapper` is not empty, as
/// the command line that follows `wrapper` (a program and its arguments).
/// `exitCode` receives the child's exit status. When `tolerateNoResult` is
/// set, a child that exits with that status without a result gives a result
/// of status "error" instead of an llvm::Error.
static llvm::Expected<EvaluationResult>
runChild(const EvaluationJob &job, const WorkerOptions &options,
         llvm::ArrayRef<std::string> wrapper, int &exitCode,
         std::optional<int> tolerateNoResult = std::nullopt) {
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
  llvm::SmallVector<llvm::StringRef> args(wrapper.begin(), wrapper.end());
  llvm::StringRef program = wrapper.empty() ? llvm::StringRef(*worker)
                                            : llvm::StringRef(wrapper.front());
  args.append({*worker, "--job", jobPath, "--result", resultPath, watchdog});
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(logPath), llvm::StringRef(logPath)};
  std::string message;
  bool failedToStart = false;
  int rc = llvm::sys::ExecuteAndWait(
      program, args, /*Env=*/std::nullopt, redirects, killAfter,
      /*MemoryLimit=*/0, &message, &failedToStart);
  exitCode = rc;
  if (failedToStart)
    return makeError("cannot start " + program + ": " + message);

  EvaluationResult result;
  if (rc < 0) {
    // Killed by the deadline or by a signal: the job's kernel is to blame.
    result.status = JobStatus::Rejected;
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
  if (!text || (*text)->getBuffer().trim().empty()) {
    std::string output = tailOf(logPath);
    if (tolerateNoResult && rc == *tolerateNoResult) {
      result.reason = "the worker wrote no result" +
                      (output.empty() ? "" : "; its output: " + output);
      return result;
    }
    return makeError("autoprof-worker exited with status " + llvm::Twine(rc) +
                     " without writing a result" +
                     (output.empty() ? "" : "; its output: " + output));
  }
  llvm::Expected<EvaluationResult> parsed =
      parseDocument<EvaluationResult>((*text)->getBuffer(), "result");
  if (!parsed)
    return makeError("autoprof-worker wrote an unreadable result: " +
                     llvm::toString(parsed.takeError()));
  return parsed;
}

llvm::Expected<EvaluationResult>
autoprof::runtime::runWorker(const EvaluationJob &job,
                             const WorkerOptions &options) {
  int exitCode = 0;
  return runChild(job, options, /*wrapper=*/{}, exitCode);
}

llvm::StringRef autoprof::runtime::getSanitizerToolName(SanitizerTool tool) {
  switch (tool) {
  case SanitizerTool::Memcheck:
    return "memcheck";
  case SanitizerTool::Racecheck:
    return "racecheck";
  }
  llvm_unreachable("unknown compute-sanitizer tool");
}

llvm::Expected<std::string>
autoprof::runtime::findComputeSanitizer(llvm::StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (llvm::sys::fs::can_execute(explicitPath))
      return explicitPath.str();
    return makeError("compute-sanitizer '" + explicitPath +
                     "' is not an executable file");
  }
  if (llvm::ErrorOr<std::string> onPath =
          llvm::sys::findProgramByName("compute-sanitizer"))
    return *onPath;
  llvm::SmallVector<std::string> homes;
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    homes.push_back(*home);
  homes.push_back("/usr/local/cuda");
  std::string looked = "PATH";
  for (const std::string &home : homes) {
    llvm::SmallString<256> candidate(home);
    llvm::sys::path::append(candidate, "bin", "compute-sanitizer");
    if (llvm::sys::fs::can_execute(candidate))
      return std::string(candidate);
    looked += ", " + std::string(candidate);
  }
  return makeError("compute-sanitizer was not found (looked on " + looked +
                   "); it comes with the CUDA toolkit");
}

/// What a compute-sanitizer log says, without its banner and the lines that
/// only frame it: the first reported lines and the summary.
static std::string summarizeSanitizerLog(llvm::StringRef log) {
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string summary;
  constexpr unsigned kKept = 8;
  llvm::StringSet<> seen;
  unsigned reported = 0;
  llvm::StringRef last;
  for (llvm::StringRef line : lines) {
    line = line.trim();
    line.consume_front("=========");
    line = line.trim();
    // The banner, and the note that racecheck stopped counting hazards.
    if (line.empty() || line.starts_with("COMPUTE-SANITIZER") ||
        line.starts_with("Warning: Maximum number of hazards"))
      continue;
    // The same hazard is often reported several times.
    if (!seen.insert(line).second)
      continue;
    last = line;
    if (reported++ >= kKept)
      continue;
    if (!summary.empty())
      summary += "; ";
    summary += line.str();
  }
  // The summary line ("ERROR SUMMARY: ...", "RACECHECK SUMMARY: ...") comes
  // last; keep it when the first lines did not reach it.
  if (reported > kKept)
    summary += (reported > kKept + 1 ? "; ...; " : "; ") + last.str();
  return summary;
}

llvm::Expected<std::string> autoprof::runtime::compileCudaToPtx(
    llvm::StringRef source, llvm::StringRef entry, llvm::StringRef chip,
    const std::vector<std::string> &compileOptions,
    const WorkerOptions &options) {
  llvm::StringRef version = chip;
  if (!version.consume_front("sm_") || version.empty() ||
      !llvm::isDigit(version.front()))
    return makeError("cannot compile for '" + chip +
                     "': expected a chip sm_XX (e.g. sm_90)");
  EvaluationJob job;
  job.kernel.code = source.str();
  job.kernel.format = CodeFormat::Cuda;
  job.kernel.entry = entry.str();
  job.time = false;
  job.compileArch = ("compute_" + version).str();
  job.compileOptions = compileOptions;
  llvm::Expected<EvaluationResult> result = runWorker(job, options);
  if (!result)
    return result.takeError();
  if (result->status != JobStatus::Ok)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   result->reason);
  return std::move(result->ptx);
}

llvm::Expected<SanitizerReport> autoprof::runtime::runWorkerUnderSanitizer(
    const EvaluationJob &job, const WorkerOptions &options, SanitizerTool tool,
    llvm::StringRef sanitizerPath) {
  llvm::SmallString<128> sanitizerLog;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "autoprof-sanitizer", "log", sanitizerLog))
    return makeError("cannot create a log file: " + ec.message());
  llvm::FileRemover removeLog(sanitizerLog);
  // Errors of the worker's own driver calls (it probes, and expects some to
  // fail) are not the kernel's: only the kernel's accesses count.
  std::string wrapper[] = {sanitizerPath.str(),
                           "--tool",
                           getSanitizerToolName(tool).str(),
                           "--error-exitcode",
                           std::to_string(kSanitizerExitCode),
                           "--report-api-errors",
                           "no",
                           "--log-file",
                           std::string(sanitizerLog)};
  int exitCode = 0;
  llvm::Expected<EvaluationResult> result =
      runChild(job, options, wrapper, exitCode, kSanitizerExitCode);
  if (!result)
    return result.takeError();
  SanitizerReport report;
  report.found = exitCode == kSanitizerExitCode;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> log =
      llvm::MemoryBuffer::getFile(sanitizerLog);
  if (log) {
    llvm::StringRef text = (*log)->getBuffer();
    report.summary = summarizeSanitizerLog(text);
    // racecheck reports a hazard it cannot prove harmful, such as threads of
    // one warp that exchange data without a __syncwarp, as a warning, which
    // leaves its exit status alone; the kernel is still racy.
    llvm::SmallVector<llvm::StringRef> hazards;
    static const llvm::Regex kHazards("RACECHECK SUMMARY: ([0-9]+) hazard");
    if (tool == SanitizerTool::Racecheck && kHazards.match(text, &hazards) &&
        hazards[1] != "0")
      report.found = true;
  }
  report.result = std::move(*result);
  return report;
}
