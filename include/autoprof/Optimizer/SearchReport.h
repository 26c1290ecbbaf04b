//===- SearchReport.h - What a kernel search found --------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The typed result of searching one kernel (SearchDriver.h) and its JSON
// report, the document `autoprof-optimize report=` writes and
// scripts/benchmark-optimize.py reads (docs/optimizer.md lists its fields).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_SEARCHREPORT_H
#define AUTOPROF_OPTIMIZER_SEARCHREPORT_H

#include "autoprof/Optimizer/CandidateStatus.h"
#include "autoprof/Optimizer/Precision.h"
#include "autoprof/Runtime/Job.h"

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::autoprof {

/// The timing of one measured kernel, in microseconds.
struct MeasuredTiming {
  double medianUs = 0;
  double madUs = 0;
  double p10Us = 0;
  double p90Us = 0;
  int samples = 0;

  /// The timing of a worker result that timed a kernel.
  static MeasuredTiming of(const ::autoprof::runtime::EvaluationResult &result);
};

/// Where the evaluation of one kernel variant spent its wall time, in
/// seconds: lowering it to PTX and building its job, the worker process
/// from start to result, and the parts of the worker's job.
struct EvaluationSeconds {
  double lower = 0;
  double worker = 0;
  ::autoprof::runtime::JobSeconds job;
  /// The interleaved re-timing of a winner (its worker runs), when it had one.
  double retime = 0;
};

/// A tentative winner timed once more, interleaved with the incumbent in
/// one worker run, before it is accepted (JSON `retimed`).
struct Retiming {
  MeasuredTiming candidate;
  MeasuredTiming incumbent;
  /// SM clock (kHz) when the run started and the lowest during it, of the
  /// run that decided.
  int smClockKhzBefore = 0;
  int smClockKhzMin = 0;
  /// Worker runs: 2 when the clock dropped during the first.
  int runs = 0;
  /// The clock dropped during the run that decided as well.
  bool clockDropped = false;
  bool confirmed = false;
};

/// What happened to one candidate.
struct CandidateRecord {
  std::string label;
  /// Who proposed it ("builtin", "llm").
  std::string source;
  CandidateStatus status = CandidateStatus::Error;
  std::string reason;
  /// Set for verified candidates.
  std::optional<MeasuredTiming> timing;
  bool accepted = false;
  /// Set when its first timing won: whether the interleaved re-timing
  /// confirmed it, or why it could not be run.
  std::optional<Retiming> retimed;
  std::string retimeError;
  /// What compute-sanitizer said of a would-be winner, tool by tool, when
  /// the search ran it (SearchOptions::sanitizers).
  std::string sanitizer;
  /// A winner's metrics when it was profiled again, and what that cost; or
  /// why profiling it failed.
  std::optional<std::vector<::autoprof::runtime::MetricResult>> metrics;
  int replayPasses = 0;
  double profileSeconds = 0;
  std::string reprofileError;
  /// Where its evaluation's time went (candidates that reached a worker).
  std::optional<EvaluationSeconds> seconds;
  /// What the proposer recorded about it.
  llvm::json::Object details;
};

/// What the search of one kernel found.
struct KernelSearchResult {
  /// "module::kernel".
  std::string kernel;
  std::string gpuName;
  double peakBandwidth = 0;
  double globalBytesTotal = 0;
  int64_t compulsoryBytes = 0;
  double flopsTotal = 0;
  MeasuredTiming baseline;
  std::vector<::autoprof::runtime::MetricResult> baselineMetrics;
  int baselineReplayPasses = 0;
  double baselineProfileSeconds = 0;
  EvaluationSeconds baselineSeconds;
  /// The profiling tree's leaf that chose the metrics, -1 when none did,
  /// and the tree's name.
  int64_t profileLeaf = -1;
  std::string profileTree;
  /// Launches the baseline time covers: the trip count of the host loop a
  /// repeated launch sits in, else 1 (flopsTotal counts all of them).
  uint64_t baselineLaunches = 1;
  /// The original kernel's static features (autoprof-extract-features), in
  /// the schema's order, and the element types of its buffers ("f16",
  /// "i8", ...), in argument order: what the report's readers choose a
  /// compute roof by.
  std::vector<std::pair<std::string, double>> features;
  std::vector<std::string> elementTypes;
  std::vector<CandidateRecord> candidates;
  /// Labels of the candidates the result is made of, in order.
  std::vector<std::string> accepted;
  double bestMedianUs = 0;
  /// The compute-sanitizer tools would-be winners ran under, or why they
  /// could not (empty: none were asked for).
  std::string sanitizer;
  /// The math of the original and of the result, where their code is PTX,
  /// and the precision policy ("same", "tf32", ...).
  std::optional<MathFormats> originalMath, resultMath;
  std::string precisionPolicy = "same";
  /// Why the search stopped before its budget was spent (the proposer or a
  /// variant failed); empty when it did not. The winners before it count.
  std::string failure;

  /// Baseline over best.
  double getSpeedup() const;
  /// Candidates by outcome.
  unsigned countVerified() const;
  unsigned countRejected() const;
  unsigned countNotRun() const;
};

/// The report entry of one kernel.
llvm::json::Value toJSON(const KernelSearchResult &result);

/// A kernel whose search failed, and why.
struct FailedKernel {
  std::string kernel;
  std::string reason;
};

/// Writes {"kernels": [...], "failed_kernels": [...]} to `path`; fails with
/// an error at `loc`.
LogicalResult writeSearchReport(StringRef path,
                                ArrayRef<KernelSearchResult> results,
                                ArrayRef<FailedKernel> failed, Location loc);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_SEARCHREPORT_H
