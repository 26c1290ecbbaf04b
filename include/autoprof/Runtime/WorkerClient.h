//===- WorkerClient.h - Run evaluation jobs in autoprof-worker --*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Runs one evaluation job in a fresh `autoprof-worker` child process with a
// deadline. Whatever the kernel does (fault, hang, crash the process), the
// caller gets a result: a fault or a hang is a "rejected" result with the
// reason, a worker that cannot run is an error with a message.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_RUNTIME_WORKERCLIENT_H
#define AUTOPROF_RUNTIME_WORKERCLIENT_H

#include "autoprof/Runtime/Job.h"

#include "llvm/Support/Error.h"

#include <string>

namespace autoprof::runtime {

/// How to run the worker.
struct WorkerOptions {
  /// Path of autoprof-worker; empty: next to the running executable, then on
  /// PATH.
  std::string workerPath;
  /// Seconds after which the worker's watchdog rejects the job.
  unsigned deadlineSeconds = 120;
  /// Extra seconds after which a worker that is still running is killed.
  unsigned killGraceSeconds = 10;
};

/// Finds autoprof-worker: `explicitPath` if given, else next to the running
/// executable, else on PATH. Fails with a message saying where it looked.
llvm::Expected<std::string> findWorker(llvm::StringRef explicitPath);

/// Runs `job` in a child process and returns its result. A deadline that
/// passes or a worker killed by a signal gives a "rejected" result whose
/// reason says so; failing to start the worker or to read its result is an
/// llvm::Error.
llvm::Expected<EvaluationResult> runWorker(const EvaluationJob &job,
                                           const WorkerOptions &options);

/// Compiles the CUDA C++ `source` to PTX for `chip` ("sm_90", "sm_90a":
/// the virtual architecture "compute_90", "compute_90a") with the NVRTC
/// `compileOptions`, in a compile-only job of the worker (NVRTC only, no
/// GPU). Fails with NVRTC's log when the source or an option is refused,
/// with why the worker could not run, or when `chip` is no sm_XX.
llvm::Expected<std::string>
compileCudaToPtx(llvm::StringRef source, llvm::StringRef entry,
                 llvm::StringRef chip,
                 const std::vector<std::string> &compileOptions,
                 const WorkerOptions &options);

/// A compute-sanitizer tool (its `--tool`).
enum class SanitizerTool { Memcheck, Racecheck };

/// The tool's name on compute-sanitizer's command line.
llvm::StringRef getSanitizerToolName(SanitizerTool tool);

/// Finds compute-sanitizer: `explicitPath` if given, else on PATH, else in
/// $CUDA_HOME/bin, else in /usr/local/cuda/bin. Fails with a message saying
/// where it looked.
llvm::Expected<std::string> findComputeSanitizer(llvm::StringRef explicitPath);

/// What a job run under compute-sanitizer gave.
struct SanitizerReport {
  /// The tool reported an error (its exit status says so) or, racecheck, a
  /// hazard of any severity (its summary says so).
  bool found = false;
  /// The tool's log without its banner: the first reported lines and the
  /// summary, on one line.
  std::string summary;
  /// The worker's result (status "error" with a reason when the worker
  /// wrote none).
  EvaluationResult result;
};

/// Runs `job` like runWorker, with the worker under `compute-sanitizer
/// --tool <tool>` at `sanitizerPath` (errors of the worker's own driver
/// calls not reported); the deadline applies to the whole run.
llvm::Expected<SanitizerReport>
runWorkerUnderSanitizer(const EvaluationJob &job, const WorkerOptions &options,
                        SanitizerTool tool, llvm::StringRef sanitizerPath);

} // namespace autoprof::runtime

#endif // AUTOPROF_RUNTIME_WORKERCLIENT_H
