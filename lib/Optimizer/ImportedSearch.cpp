//===- ImportedSearch.cpp - Optimizing kernels known only as PTX ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/ImportedSearch.h"

#include "autoprof/Optimizer/Precision.h"

#include "autoprof/Import/PtxFeatures.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

ImportedProposer::~ImportedProposer() = default;

FailureOr<ImportedSearchResult> mlir::autoprof::searchImportedKernel(
    const ImportedKernel &kernel, const SearchOptions &options, TreeOp tree,
    ImportedProposer &proposer) {
  gpu::BinaryOp binary = kernel.binary;
  MLIRContext *context = binary.getContext();
  std::string name = (binary.getSymName() + "::" + kernel.entry).str();
  rt::JobKernel reference = kernel.getJobKernel();

  // Baseline: its timing, then the metrics the tree selects from the PTX
  // features.
  KernelFeatures features = computePtxFeatures(kernel);
  // The binary's own profile (autoprof-select-profile, or written by hand)
  // when it has one, as for a gpu.func.
  FailureOr<DictionaryAttr> selected =
      getOrSelectProfile(binary, features.toAttr(context), tree);
  if (failed(selected))
    return failure();
  DictionaryAttr profile = *selected;
  auto baselineStart = std::chrono::steady_clock::now();
  llvm::Expected<rt::EvaluationResult> baseline =
      measureBaseline(reference, getProfileMetrics(profile, options), options);
  double baselineWorker = secondsSince(baselineStart);
  if (!baseline)
    return emitError(binary.getLoc(), "cannot measure @")
           << name << ": " << llvm::toString(baseline.takeError());
  if (baseline->status != rt::JobStatus::Ok || !baseline->medianUs)
    return emitError(binary.getLoc(), "cannot measure @")
           << name << " (" << rt::getJobStatusName(baseline->status)
           << "): " << baseline->reason;

  ImportedSearchResult found;
  found.winner.ptx = kernel.ptx;
  found.winner.launch = kernel.jobLaunch;
  found.winner.compileOptions = kernel.compileOptions;
  KernelSearchResult &result = found.report;
  result.kernel = name;
  result.gpuName = baseline->gpuName;
  result.peakBandwidth = baseline->peakBandwidth;
  result.compulsoryBytes =
      static_cast<int64_t>(getCompulsoryBytes(kernel.jobLaunch));
  result.baseline = MeasuredTiming::of(*baseline);
  result.baselineMetrics = baseline->metrics;
  result.baselineReplayPasses = baseline->replayPasses;
  result.baselineProfileSeconds = baseline->profileSeconds;
  result.baselineSeconds = {0, baselineWorker, baseline->seconds};
  recordProfileChoice(profile, result);
  result.bestMedianUs = *baseline->medianUs;

  ImportedSearchState state;
  state.kernel = &kernel;
  state.incumbent = found.winner;
  state.incumbentCudaSource = kernel.cudaSource;
  state.context.gpuName = baseline->gpuName;
  state.context.smCount = baseline->smCount;
  state.context.peakBandwidth = baseline->peakBandwidth;
  state.context.baselineMedianUs = *baseline->medianUs;
  llvm::StringMap<double> metrics;
  for (const rt::MetricResult &metric : baseline->metrics) {
    if (metric.collected)
      metrics[metric.name] = metric.value;
    else
      state.context.missing.push_back(
          metric.name + (metric.note.empty() ? "" : ": " + metric.note));
  }
  state.context.metrics = metrics;
  state.evidence =
      RewriteEvidence::fromMeasurements(features.toAttr(context), metrics);
  bool floorHolds =
      *baseline->medianUs * 1e-6 >=
      kFloorMargin * getPhysicalFloor(kernel.jobLaunch, *baseline).seconds;
  double bestMad = baseline->madUs.value_or(0);
  rt::JobKernel incumbentCode = reference;
  std::vector<std::string> &history = state.context.history;
  while (state.proposed < options.budget) {
    // A proposer that fails (an unreachable model) ends this kernel's
    // search; the winners so far stay.
    FailureOr<std::optional<ImportedCandidate>> next = proposer.next(state);
    if (failed(next)) {
      result.failure = "the " + proposer.getName().str() +
                       " proposer failed after " +
                       std::to_string(state.proposed) + " candidates";
      break;
    }
    if (!*next)
      break;
    ImportedCandidate &candidate = **next;
    CandidateRecord record;
    // Records a rejection: on stderr, in the proposer's history and in the
    // report.
    auto reject = [&](std::string reason) {
      record.status = CandidateStatus::Rejected;
      record.reason = std::move(reason);
      llvm::errs() << "autoprof-optimize: @" << name << " " << record.label
                   << ": rejected (" << record.reason << ")\n";
      history.push_back(record.label + ": rejected, " + record.reason);
      result.candidates.push_back(std::move(record));
    };
    record.label = candidate.label;
    record.source = proposer.getName().str();
    record.details = std::move(candidate.details);
    if (!candidate.variant) {
      record.status = candidate.status;
      record.reason = std::move(candidate.reason);
      // A family that does not apply is not a candidate: the budget counts
      // the ones that run.
      if (record.status != CandidateStatus::Skipped) {
        ++state.proposed;
        llvm::errs() << "autoprof-optimize: @" << name << " " << record.label
                     << ": " << getCandidateStatusName(record.status) << " ("
                     << record.reason << ")\n";
        history.push_back(record.label + ": " +
                          getCandidateStatusName(record.status).str() + ", " +
                          record.reason);
      }
      result.candidates.push_back(std::move(record));
      continue;
    }
    ++state.proposed;
    PtxVariant &variant = *candidate.variant;
    rt::JobKernel code = kernel.getJobKernel(variant.ptx, variant.launch);
    // A candidate that computes in a lower precision than the original's
    // (and than the user allowed) is rejected before it runs.
    if (std::string lowered =
            checkPrecision(reference, code, options.precision);
        !lowered.empty()) {
      reject(std::move(lowered));
      continue;
    }
    rt::EvaluationJob job;
    job.device = options.device;
    job.kernel = reference;
    job.candidate = code;
    job.verifySeeds = {options.seed, options.seed + 1u};
    // Without special values: nothing says the PTX tolerates them.
    job.verifyDistributions = getBaseVerifyDistributions();
    job.timeBudgetSeconds = options.timeBudgetSeconds;
    std::optional<rt::EvaluationResult> measured =
        runCandidate(job, options, /*lowerSeconds=*/0, record);
    if (!measured) {
      if (record.seconds) {
        llvm::errs() << "autoprof-optimize: @" << name << " " << record.label
                     << ": " << getCandidateStatusName(record.status) << " ("
                     << record.reason << ")\n";
        history.push_back(record.label + ": " +
                          getCandidateStatusName(record.status).str() + ", " +
                          record.reason);
      } else {
        history.push_back(record.label + ": could not be run");
      }
      result.candidates.push_back(std::move(record));
      continue;
    }
    record.timing = MeasuredTiming::of(*measured);
    PhysicalFloor floor = getPhysicalFloor(variant.launch, *measured);
    if (floorHolds &&
        *measured->medianUs * 1e-6 < kFloorMargin * floor.seconds) {
      record.status = CandidateStatus::Rejected;
      record.reason = llvm::formatv(
          "faster than physically possible: {0:F2} us, below {1:F0}% of the "
          "floor of {2:F2} us ({3})",
          *measured->medianUs, kFloorMargin * 100, floor.seconds * 1e6,
          floor.description);
      history.push_back(record.label + ": rejected, " + record.reason);
      result.candidates.push_back(std::move(record));
      continue;
    }
    double noise = std::max(2.0 * (bestMad + measured->madUs.value_or(0)),
                            0.01 * result.bestMedianUs);
    bool wins = *measured->medianUs < result.bestMedianUs - noise;
    // Would-be winners also run under compute-sanitizer, when asked (a model's
    // CUDA may race or write outside its buffers where the inputs did not
    // show it).
    if (wins && !options.sanitizers.empty()) {
      std::string finding = sanitizeCandidate(code, options, record.sanitizer);
      if (!finding.empty()) {
        reject(std::move(finding));
        continue;
      }
    }
    if (wins) {
      auto retimeStart = std::chrono::steady_clock::now();
      llvm::Expected<Retiming> retiming =
          retimeInterleaved(code, incumbentCode, options);
      record.seconds->retime = secondsSince(retimeStart);
      if (!retiming) {
        wins = false;
        record.retimeError = llvm::toString(retiming.takeError());
      } else {
        wins = retiming->confirmed;
        record.retimed = *retiming;
      }
    }
    record.accepted = wins;
    llvm::errs() << llvm::formatv(
        "autoprof-optimize: @{0} {1}: verified, {2:F2} us against {3:F2} us "
        "(noise {4:F2}){5}\n",
        name, record.label, *measured->medianUs, result.bestMedianUs, noise,
        wins ? ", accepted" : "");
    history.push_back(llvm::formatv("{0}: verified, {1:F2} us{2}",
                                    record.label, *measured->medianUs,
                                    wins ? " (kept)" : "")
                          .str());
    if (wins) {
      result.bestMedianUs = *measured->medianUs;
      bestMad = measured->madUs.value_or(0);
      result.accepted.push_back(record.label);
      found.winner = variant;
      found.winnerCudaSource = candidate.cudaSource;
      // What the next proposal starts from: the winner's code (its CUDA
      // source when it has one, else its PTX). A PTX-level family's winner
      // keeps the source it was compiled from (its directives are the
      // variant's).
      if (!candidate.cudaSource.empty())
        state.incumbentCudaSource = std::move(candidate.cudaSource);
      state.incumbent = std::move(variant);
      incumbentCode = code;
    }
    result.candidates.push_back(std::move(record));
  }
  result.originalMath = getKernelMath(reference);
  result.resultMath = getKernelMath(incumbentCode);
  result.precisionPolicy = stringifyPrecisionPolicy(options.precision).str();
  llvm::errs() << llvm::formatv(
      "autoprof-optimize: @{0}: {1:F2} us -> {2:F2} us ({3:F2}x){4}{5}; "
      "{6} candidates: {7} verified, {8} rejected, {9} not run\n",
      name, result.baseline.medianUs, result.bestMedianUs, result.getSpeedup(),
      result.accepted.empty() ? " (original kept)" : " with ",
      llvm::join(result.accepted, ", "), result.candidates.size(),
      result.countVerified(), result.countRejected(), result.countNotRun());
  return found;
}
