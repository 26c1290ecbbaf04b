//===- SearchDriver.h - Find the fastest verified variant -------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The search loop behind `autoprof-optimize`, as a library: for one kernel,
// measure the baseline (time and the metrics the profiling tree selects),
// then for each candidate a proposer gives, lower it to PTX, verify it
// against the kernel as it was and time it in `autoprof-worker`, and keep it
// only when it is faster than the incumbent beyond the noise of both
// measurements. The incumbent module is updated in place; the result says
// what was tried and what won.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_SEARCHDRIVER_H
#define AUTOPROF_OPTIMIZER_SEARCHDRIVER_H

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Optimizer/CandidateProposer.h"
#include "autoprof/Optimizer/Precision.h"
#include "autoprof/Optimizer/SearchReport.h"
#include "autoprof/Runtime/WorkerClient.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace mlir::autoprof {

/// How the driver measures.
struct SearchOptions {
  ::autoprof::runtime::WorkerOptions worker;
  int device = 0;
  /// Candidates per kernel.
  unsigned budget = 8;
  /// Seconds of timed launches per variant.
  double timeBudgetSeconds = 0.5;
  /// First of the two verification seeds.
  uint64_t seed = 1;
  /// PTX target.
  std::string chip = "sm_90";
  std::string features = "+ptx80";
  /// compute-sanitizer tools a would-be winner runs under, once each,
  /// before it is accepted: a tool that reports an error rejects it. Empty:
  /// no such run.
  std::vector<::autoprof::runtime::SanitizerTool> sanitizers;
  /// compute-sanitizer to run (found by the pass).
  std::string sanitizerPath;
  /// Collect no counters (no-profile): the baseline and winners are timed,
  /// never profiled.
  bool noProfile = false;
  /// The formats a candidate may compute in below the original's.
  PrecisionPolicy precision = PrecisionPolicy::Same;
};

/// Searches kernels of one module with one proposer.
/// Wall seconds since `start`.
double secondsSince(std::chrono::steady_clock::time_point start);

/// Runs a candidate's verification and timing `job` in the worker and
/// records in `record` what it gave: the status ("verified" for the
/// worker's "ok"; "error" when the worker could not run the job, without
/// `seconds` then, or verified the candidate without timing it), the reason
/// and where the time went (`lowerSeconds` building the job). The result
/// when the candidate was verified and timed, else nothing.
std::optional<::autoprof::runtime::EvaluationResult>
runCandidate(const ::autoprof::runtime::EvaluationJob &job,
             const SearchOptions &options, double lowerSeconds,
             CandidateRecord &record);

/// Runs `candidate` (on its own parameter list, launched once on generated
/// inputs) under each of the options' compute-sanitizer tools. Returns why
/// the candidate is rejected (a tool reported an error), or an empty string;
/// `outcome` says what each tool gave, for the report. A run that ends
/// without a finding but without a result either (the deadline passed under
/// the tool's slowdown) is inconclusive: said in `outcome`, not a rejection,
/// since the candidate passed every other check.
std::string sanitizeCandidate(::autoprof::runtime::JobKernel candidate,
                              const SearchOptions &options,
                              std::string &outcome);

/// The least time a kernel's problem can take on the device: its compulsory
/// DRAM traffic at the measured bandwidth, less the writes the L2 can hold
/// when the kernel ends. Flops give no floor: the static count includes both
/// sides of every branch, and tensor cores outrun the FP32 peak.
struct PhysicalFloor {
  double seconds = 0;
  std::string description;
};

/// A candidate timed below this fraction of the floor is rejected.
constexpr double kFloorMargin = 0.9;

/// The physical floor of `launch` on the device `measured` ran on.
PhysicalFloor
getPhysicalFloor(const ::autoprof::runtime::JobLaunch &launch,
                 const ::autoprof::runtime::EvaluationResult &measured);

/// The metrics a search collects for a kernel whose `autoprof.profile` is
/// `profile`: the ones it lists, none with `no-profile`.
std::vector<std::string> getProfileMetrics(DictionaryAttr profile,
                                           const SearchOptions &options);

/// Records in `result` the profiling tree and leaf that chose the
/// baseline's metrics (`profile`'s "tree" and "leaf", where it names them).
void recordProfileChoice(DictionaryAttr profile, KernelSearchResult &result);

/// Measures a search's baseline: its timing in a job of its own, and then,
/// when `metrics` is not empty, its profile in a second one (no timing).
/// The timing job is then the same whatever the profiling tree chose, so a
/// worker that keeps results by content (scripts/worker-pool.py) times a
/// kernel once for every profiling configuration, and the timing is never
/// taken in a process that profiles. The result has the timing job's
/// statistics and device facts with the profile's metrics, replay passes
/// and profile seconds; of its `seconds`, setup, the wait for the GPU and
/// profile add up both jobs' (a profile job spends on nothing else). A failed
/// job's result (status not "ok") is returned as it came.
llvm::Expected<::autoprof::runtime::EvaluationResult>
measureBaseline(const ::autoprof::runtime::JobKernel &kernel,
                llvm::ArrayRef<std::string> metrics,
                const SearchOptions &options);

/// Times `candidate` interleaved with `incumbent` in one worker run, and
/// once more when the SM clock dropped during it; says whether the
/// candidate is faster beyond the noise of both.
llvm::Expected<Retiming>
retimeInterleaved(::autoprof::runtime::JobKernel candidate,
                  ::autoprof::runtime::JobKernel incumbent,
                  const SearchOptions &options);

class SearchDriver {
public:
  SearchDriver(SearchOptions options, CandidateProposer &proposer)
      : options(std::move(options)), proposer(proposer) {}

  /// Searches @moduleName::@kernelName of `incumbent`, profiling it with the
  /// metrics `tree` selects; `incumbent` becomes the fastest verified
  /// variant. Nothing (with a remark) when the kernel cannot be measured on
  /// its own; failure (with an error) when its baseline could not be
  /// measured or a proposer or the lowering failed.
  FailureOr<std::optional<KernelSearchResult>>
  searchKernel(OwningOpRef<ModuleOp> &incumbent, StringRef moduleName,
               StringRef kernelName, TreeOp tree);

private:
  SearchOptions options;
  CandidateProposer &proposer;
};

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_SEARCHDRIVER_H
