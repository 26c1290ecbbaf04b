//===- SearchDriver.cpp - Find the fastest verified kernel variant --------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/SearchDriver.h"

#include "autoprof/Optimizer/Precision.h"

#include "RewriteAnalysis.h"

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

CandidateProposer::~CandidateProposer() = default;

namespace {
/// The kernel and launch with the given names in a module.
struct KernelHandle {
  gpu::GPUFuncOp kernel;
  gpu::LaunchFuncOp launch;
};
} // namespace

/// Finds @moduleName::@kernelName and its first launch in `module`.
static KernelHandle findKernel(ModuleOp module, StringRef moduleName,
                               StringRef kernelName) {
  KernelHandle handle;
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    if (gpuModule.getName() == moduleName)
      handle.kernel = gpuModule.lookupSymbol<gpu::GPUFuncOp>(kernelName);
  if (handle.kernel)
    handle.launch = findKernelLaunches(module).lookup(handle.kernel);
  return handle;
}

double
mlir::autoprof::secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

std::optional<rt::EvaluationResult>
mlir::autoprof::runCandidate(const rt::EvaluationJob &job,
                             const SearchOptions &options, double lowerSeconds,
                             CandidateRecord &record) {
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<rt::EvaluationResult> measured =
      rt::runWorker(job, options.worker);
  double workerSeconds = secondsSince(start);
  if (!measured) {
    record.status = CandidateStatus::Error;
    record.reason = llvm::toString(measured.takeError());
    return std::nullopt;
  }
  record.status =
      measured->status == rt::JobStatus::Ok         ? CandidateStatus::Verified
      : measured->status == rt::JobStatus::Rejected ? CandidateStatus::Rejected
                                                    : CandidateStatus::Error;
  record.reason = measured->reason;
  record.seconds =
      EvaluationSeconds{lowerSeconds, workerSeconds, measured->seconds};
  if (measured->status == rt::JobStatus::Ok && !measured->medianUs) {
    record.status = CandidateStatus::Error;
    record.reason = "the worker verified the candidate but did not time it";
  }
  if (record.status != CandidateStatus::Verified)
    return std::nullopt;
  return std::move(*measured);
}

PhysicalFloor
mlir::autoprof::getPhysicalFloor(const rt::JobLaunch &launch,
                                 const rt::EvaluationResult &measured) {
  PhysicalFloor floor;
  CompulsoryTraffic traffic = getCompulsoryTraffic(launch);
  uint64_t l2 = static_cast<uint64_t>(std::max<int64_t>(measured.l2Bytes, 0));
  uint64_t bytes = traffic.readBytes +
                   (traffic.writeBytes > l2 ? traffic.writeBytes - l2 : 0);
  if (measured.peakBandwidth > 0)
    floor.seconds = double(bytes) / measured.peakBandwidth;
  floor.description =
      llvm::formatv("{0} bytes that must move at the measured {1:F0} GB/s",
                    bytes, measured.peakBandwidth / 1e9)
          .str();
  return floor;
}

std::vector<std::string>
mlir::autoprof::getProfileMetrics(DictionaryAttr profile,
                                  const SearchOptions &options) {
  std::vector<std::string> metrics;
  if (!options.noProfile)
    for (Attribute name : cast<ArrayAttr>(profile.get("metrics")))
      metrics.push_back(cast<StringAttr>(name).getValue().str());
  return metrics;
}

void mlir::autoprof::recordProfileChoice(DictionaryAttr profile,
                                         KernelSearchResult &result) {
  if (auto leaf = dyn_cast_or_null<IntegerAttr>(profile.get("leaf")))
    result.profileLeaf = leaf.getInt();
  if (auto tree = dyn_cast_or_null<StringAttr>(profile.get("tree")))
    result.profileTree = tree.getValue().str();
}

/// Profiles `kernel` in a job of its own, timing nothing.
static llvm::Expected<rt::EvaluationResult>
runProfileJob(const rt::JobKernel &kernel, llvm::ArrayRef<std::string> metrics,
              const SearchOptions &options) {
  rt::EvaluationJob job;
  job.device = options.device;
  job.kernel = kernel;
  job.time = false;
  job.metrics.assign(metrics.begin(), metrics.end());
  return rt::runWorker(job, options.worker);
}

llvm::Expected<rt::EvaluationResult>
mlir::autoprof::measureBaseline(const rt::JobKernel &kernel,
                                llvm::ArrayRef<std::string> metrics,
                                const SearchOptions &options) {
  rt::EvaluationJob timingJob;
  timingJob.device = options.device;
  timingJob.kernel = kernel;
  timingJob.timeBudgetSeconds = options.timeBudgetSeconds;
  llvm::Expected<rt::EvaluationResult> timed =
      rt::runWorker(timingJob, options.worker);
  if (!timed || timed->status != rt::JobStatus::Ok || metrics.empty())
    return timed;
  llvm::Expected<rt::EvaluationResult> profiled =
      runProfileJob(kernel, metrics, options);
  if (!profiled || profiled->status != rt::JobStatus::Ok)
    return profiled;
  timed->metrics = std::move(profiled->metrics);
  timed->replayPasses = profiled->replayPasses;
  timed->profileSeconds = profiled->profileSeconds;
  timed->seconds.setup += profiled->seconds.setup;
  timed->seconds.gpuWait += profiled->seconds.gpuWait;
  timed->seconds.profile += profiled->seconds.profile;
  return timed;
}

/// An SM clock that falls below this fraction of its reading at the start
/// of an interleaved re-timing has dropped (throttling, another tenant).
static constexpr double kClockDropFraction = 0.95;

llvm::Expected<Retiming>
mlir::autoprof::retimeInterleaved(rt::JobKernel candidate,
                                  rt::JobKernel incumbent,
                                  const SearchOptions &options) {
  // Timed on their own parameter lists: nothing is verified here.
  candidate.referenceParams.reset();
  incumbent.referenceParams.reset();
  rt::EvaluationJob job;
  job.device = options.device;
  job.kernel = std::move(candidate);
  job.interleavedWith = std::move(incumbent);
  job.timeBudgetSeconds = 2 * options.timeBudgetSeconds;
  Retiming retiming;
  for (int run = 0; run < 2; ++run) {
    llvm::Expected<rt::EvaluationResult> measured =
        rt::runWorker(job, options.worker);
    if (!measured)
      return measured.takeError();
    if (measured->status != rt::JobStatus::Ok || !measured->medianUs ||
        !measured->interleavedTiming)
      return llvm::createStringError(
          "the interleaved re-timing failed (" +
          rt::getJobStatusName(measured->status) + "): " +
          (measured->reason.empty() ? std::string("no timing came back")
                                    : measured->reason));
    const rt::TimingStats &other = *measured->interleavedTiming;
    retiming.runs = run + 1;
    retiming.candidate = MeasuredTiming::of(*measured);
    retiming.incumbent.medianUs = other.medianUs;
    retiming.incumbent.madUs = other.madUs;
    retiming.incumbent.p10Us = other.p10Us;
    retiming.incumbent.p90Us = other.p90Us;
    retiming.incumbent.samples = other.samples;
    retiming.smClockKhzBefore = measured->smClockKhzBefore;
    retiming.smClockKhzMin = measured->smClockKhzMin;
    retiming.clockDropped =
        measured->smClockKhzBefore > 0 && measured->smClockKhzMin > 0 &&
        measured->smClockKhzMin <
            kClockDropFraction * measured->smClockKhzBefore;
    if (!retiming.clockDropped)
      break;
  }
  double noise =
      std::max(2.0 * (retiming.candidate.madUs + retiming.incumbent.madUs),
               0.01 * retiming.incumbent.medianUs);
  retiming.confirmed =
      retiming.candidate.medianUs < retiming.incumbent.medianUs - noise;
  return retiming;
}

std::string mlir::autoprof::sanitizeCandidate(rt::JobKernel candidate,
                                              const SearchOptions &options,
                                              std::string &outcome) {
  candidate.referenceParams.reset();
  rt::EvaluationJob job;
  job.device = options.device;
  job.kernel = std::move(candidate);
  job.warmup = 0;
  job.minRepetitions = 1;
  job.maxRepetitions = 1;
  job.timeBudgetSeconds = 0;
  job.flushL2 = false;
  job.seed = options.seed;
  for (rt::SanitizerTool tool : options.sanitizers) {
    StringRef name = rt::getSanitizerToolName(tool);
    if (!outcome.empty())
      outcome += "; ";
    llvm::Expected<rt::SanitizerReport> report = rt::runWorkerUnderSanitizer(
        job, options.worker, tool, options.sanitizerPath);
    if (!report) {
      std::string why = llvm::toString(report.takeError());
      outcome += (name + ": could not be run: " + why).str();
      continue;
    }
    if (report->found) {
      outcome += (name + ": " + report->summary).str();
      return ("compute-sanitizer --tool " + name + " reported: " +
              (report->summary.empty() ? std::string("an error")
                                       : report->summary))
          .str();
    }
    if (report->result.status != rt::JobStatus::Ok)
      outcome += (name + ": inconclusive, the run did not complete (" +
                  report->result.reason + ")")
                     .str();
    else
      outcome += (name + ": no error").str();
  }
  return "";
}

/// Verifies `code` (the variant's kernel, verified on its first launch by
/// `firstJob`) on every further launch of the kernel: launch i of `variant`
/// against launch i of `start`, each with its own sizes and scalars. Returns
/// why one fails, or an empty string.
static std::string verifyFurtherLaunches(ModuleOp start, ModuleOp variant,
                                         StringRef moduleName,
                                         StringRef kernelName,
                                         const rt::EvaluationJob &firstJob,
                                         const SearchOptions &options) {
  KernelHandle original = findKernel(start, moduleName, kernelName);
  KernelHandle rewritten = findKernel(variant, moduleName, kernelName);
  SmallVector<gpu::LaunchFuncOp> originals =
      rewrites::getLaunches(start, original.kernel);
  if (originals.size() < 2)
    return "";
  SmallVector<gpu::LaunchFuncOp> variants =
      rewrites::getLaunches(variant, rewritten.kernel);
  if (variants.size() != originals.size())
    return llvm::formatv("the variant launches @{0} {1} times, the original "
                         "{2} times",
                         kernelName, variants.size(), originals.size());
  for (unsigned i = 1; i < originals.size(); ++i) {
    std::string which =
        llvm::formatv("launch {0} of {1}", i + 1, originals.size()).str();
    FailureOr<rt::JobLaunch> reference =
        buildJobLaunch(original.kernel, originals[i]);
    FailureOr<rt::JobLaunch> candidate =
        buildJobLaunch(rewritten.kernel, variants[i]);
    FailureOr<std::vector<unsigned>> map = failure();
    if (succeeded(reference) && succeeded(candidate))
      map = mapJobParameters(variants[i], *candidate, originals[i],
                             *reference, kernelName);
    if (failed(map))
      return which + " cannot be evaluated (its sizes or scalars are not "
                     "constants, or its parameters do not map)";
    rt::EvaluationJob job = firstJob;
    job.kernel.launch = std::move(*reference);
    job.candidate->launch = std::move(*candidate);
    job.candidate->referenceParams =
        asReferenceParams(std::move(*map), job.kernel.launch.params.size());
    job.time = false;
    job.metrics.clear();
    llvm::Expected<rt::EvaluationResult> verified =
        rt::runWorker(job, options.worker);
    if (!verified)
      return which + ": " + llvm::toString(verified.takeError());
    if (verified->status != rt::JobStatus::Ok ||
        !verified->verified.value_or(false))
      return which + ": " +
             (verified->reason.empty() ? std::string("not verified")
                                       : verified->reason);
  }
  return "";
}

/// The job of `handle` in `module`, lowering the module to PTX.
static FailureOr<rt::JobKernel> buildKernelJob(ModuleOp module,
                                               KernelHandle handle,
                                               const SearchOptions &options) {
  FailureOr<llvm::StringMap<std::string>> ptx =
      lowerModulesToPTX(module, options.chip, options.features);
  if (failed(ptx))
    return failure();
  auto gpuModule = handle.kernel->getParentOfType<gpu::GPUModuleOp>();
  auto code = ptx->find(gpuModule.getName());
  FailureOr<rt::JobLaunch> launch =
      buildJobLaunch(handle.kernel, handle.launch);
  if (code == ptx->end() || failed(launch))
    return failure();
  return rt::JobKernel{code->second, rt::CodeFormat::Ptx, handle.kernel.getName().str(),
                       *launch};
}

FailureOr<std::optional<KernelSearchResult>>
SearchDriver::searchKernel(OwningOpRef<ModuleOp> &incumbent,
                           StringRef moduleName, StringRef kernelName,
                           TreeOp tree) {
  KernelHandle original = findKernel(*incumbent, moduleName, kernelName);
  if (!original.kernel || !original.launch)
    return emitError(incumbent->getLoc(), "no launched kernel @")
           << moduleName << "::@" << kernelName;
  Location loc = original.kernel.getLoc();
  MLIRContext *context = incumbent->getContext();
  // A launch whose scalars vary at run time has no evaluation job, unless
  // the only one that varies is the induction variable of a host loop with
  // constant bounds around it (measured as the loop's sequence of launches).
  std::string notRepeated;
  std::optional<HostLoopRepeat> repeat =
      matchHostLoopRepeat(original.launch, &notRepeated);
  for (auto [index, operand] :
       llvm::enumerate(original.launch.getKernelOperands()))
    if (!isa<MemRefType>(operand.getType()) &&
        !matchPattern(operand, m_Constant()) &&
        !(repeat && index == repeat->operand)) {
      InFlightDiagnostic remark = emitRemark(loc, "@");
      remark << kernelName << " is launched with an argument that varies at "
             << "run time";
      if (AutoProfDialect::HostLoopAttrHelper(context).isAttrPresent(
              original.launch))
        remark << " in a host loop (" << notRepeated << ")";
      remark << ", so it cannot be measured; left as it is";
      return std::optional<KernelSearchResult>();
    }
  auto lowerStart = std::chrono::steady_clock::now();
  FailureOr<rt::JobKernel> reference =
      buildKernelJob(*incumbent, original, options);
  if (failed(reference))
    return failure();
  double baselineLower = secondsSince(lowerStart);

  // Baseline: its timing, then the tree's metrics.
  FailureOr<DictionaryAttr> profile =
      getOrSelectProfile(original.kernel, original.launch, tree);
  if (failed(profile))
    return failure();
  std::vector<std::string> metrics = getProfileMetrics(*profile, options);
  auto baselineStart = std::chrono::steady_clock::now();
  llvm::Expected<rt::EvaluationResult> baseline =
      measureBaseline(*reference, metrics, options);
  double baselineWorker = secondsSince(baselineStart);
  if (!baseline)
    return emitError(loc, "cannot measure @")
           << kernelName << ": " << llvm::toString(baseline.takeError());
  if (baseline->status != rt::JobStatus::Ok || !baseline->medianUs)
    return emitError(loc, "cannot measure @")
           << kernelName << " (" << rt::getJobStatusName(baseline->status)
           << "): " << baseline->reason;
  FailureOr<KernelFeatures> features =
      KernelFeatures::compute(original.kernel, original.launch);
  if (failed(features))
    return failure();

  KernelSearchResult result;
  result.kernel = (moduleName + "::" + kernelName).str();
  result.gpuName = baseline->gpuName;
  result.peakBandwidth = baseline->peakBandwidth;
  result.globalBytesTotal = features->lookup("global_bytes_total").value_or(0);
  result.compulsoryBytes =
      static_cast<int64_t>(getCompulsoryBytes(reference->launch));
  if (reference->launch.repeat)
    result.baselineLaunches = reference->launch.repeat->count;
  result.flopsTotal = features->lookup("flops_total").value_or(0) *
                      static_cast<double>(result.baselineLaunches);
  for (NamedAttribute named :
       features->toAttr(original.kernel.getContext())) {
    double value = 0;
    if (auto integer = dyn_cast<IntegerAttr>(named.getValue()))
      value = static_cast<double>(integer.getInt());
    else if (auto real = dyn_cast<FloatAttr>(named.getValue()))
      value = real.getValueAsDouble();
    else
      continue;
    result.features.emplace_back(named.getName().str(), value);
  }
  for (Type type : original.kernel.getArgumentTypes())
    if (auto memref = dyn_cast<MemRefType>(type)) {
      std::string name;
      llvm::raw_string_ostream os(name);
      memref.getElementType().print(os);
      if (!llvm::is_contained(result.elementTypes, name))
        result.elementTypes.push_back(name);
    }
  result.baseline = MeasuredTiming::of(*baseline);
  result.baselineMetrics = baseline->metrics;
  result.baselineReplayPasses = baseline->replayPasses;
  result.baselineProfileSeconds = baseline->profileSeconds;
  result.baselineSeconds = {baselineLower, baselineWorker, baseline->seconds};
  recordProfileChoice(*profile, result);
  result.bestMedianUs = *baseline->medianUs;

  OwningOpRef<ModuleOp> start = incumbent->clone();
  gpu::LaunchFuncOp startLaunch =
      findKernel(*start, moduleName, kernelName).launch;
  SearchState state;
  state.moduleName = moduleName.str();
  state.kernelName = kernelName.str();
  state.incumbent = *incumbent;
  state.start = *start;
  state.reference = *reference;
  state.features = features->toAttr(context);
  state.budget = options.budget;
  state.gpu = findGpuTarget(options.chip);
  state.context.gpuName = baseline->gpuName;
  state.context.smCount = baseline->smCount;
  state.context.peakBandwidth = baseline->peakBandwidth;
  state.context.baselineMedianUs = *baseline->medianUs;
  for (const rt::MetricResult &metric : baseline->metrics) {
    if (metric.collected)
      state.context.metrics[metric.name] = metric.value;
    else
      state.context.missing.push_back(
          metric.name + (metric.note.empty() ? "" : ": " + metric.note));
  }
  if (failed(proposer.begin(state)))
    return failure();

  // Special values (NaN, infinities) join the inputs where the original
  // tolerates them.
  std::string noSpecialValues;
  std::vector<autoprof_distribution> verifyDistributions =
      getVerifyDistributions(original.kernel, &noSpecialValues);
  if (!noSpecialValues.empty())
    emitRemark(loc, "@") << kernelName
                         << " is verified without special float inputs: "
                         << noSpecialValues;
  double bestMad = baseline->madUs.value_or(0);
  // The incumbent's code, for the interleaved re-timing of a winner.
  rt::JobKernel incumbentCode = *reference;
  bool floorHolds =
      *baseline->medianUs * 1e-6 >=
      kFloorMargin * getPhysicalFloor(reference->launch, *baseline).seconds;
  while (state.proposed < state.budget) {
    // A proposer that fails (an unreachable model) ends this kernel's
    // search; the winners so far stay.
    FailureOr<std::optional<Candidate>> next = proposer.next(state);
    if (failed(next)) {
      result.failure = "the " + proposer.getName().str() +
                       " proposer failed after " +
                       std::to_string(state.proposed) + " candidates";
      break;
    }
    if (!*next)
      break;
    Candidate &candidate = **next;
    ++state.proposed;
    CandidateRecord record;
    // Records a rejection: on stderr, in the proposer's history and in the
    // report.
    auto reject = [&](std::string reason) {
      record.status = CandidateStatus::Rejected;
      record.reason = std::move(reason);
      llvm::errs() << "autoprof-optimize: @" << kernelName << " "
                   << record.label << ": rejected (" << record.reason << ")\n";
      state.context.history.push_back(record.label + ": rejected, " +
                                      record.reason);
      result.candidates.push_back(std::move(record));
    };
    record.label = candidate.label;
    record.source = proposer.getName().str();
    record.details = std::move(candidate.details);
    if (!candidate.variant) {
      // Not evaluated: skipped, or rejected before it could run.
      if (candidate.status == CandidateStatus::Rejected) {
        reject(candidate.reason);
        continue;
      }
      record.status = candidate.status;
      record.reason = candidate.reason;
      result.candidates.push_back(std::move(record));
      continue;
    }

    // Verify and time the variant against the original; keep it when it is
    // faster than the incumbent beyond the noise. A variant that cannot be
    // lowered or whose parameters cannot be mapped to the reference's (a
    // folded host loop drops the induction variable) is an error of that
    // candidate, with the diagnostics as its reason.
    std::string problems;
    FailureOr<rt::JobKernel> code = failure();
    bool reassociated = false;
    auto candidateLowerStart = std::chrono::steady_clock::now();
    {
      ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          problems += (problems.empty() ? "" : "; ") + diag.str();
        return success();
      });
      if (candidate.compiled) {
        code = *candidate.compiled;
      } else {
        KernelHandle variant =
            findKernel(*candidate.variant, moduleName, kernelName);
        if (variant.kernel)
          reassociated =
              AutoProfDialect::ReassociatedAttrHelper(context).isAttrPresent(
                  variant.kernel);
        if (!variant.kernel || !variant.launch)
          emitError(loc, "the variant has no launched kernel @") << kernelName;
        else
          code = buildKernelJob(*candidate.variant, variant, options);
        FailureOr<std::vector<unsigned>> map = failure();
        if (succeeded(code))
          map = mapJobParameters(variant.launch, code->launch, startLaunch,
                                 reference->launch, kernelName);
        if (failed(map)) {
          code = failure();
        } else {
          code->referenceParams = asReferenceParams(
              std::move(*map), reference->launch.params.size());
        }
      }
    }
    if (failed(code)) {
      record.status = CandidateStatus::Error;
      record.reason =
          "the variant cannot be evaluated: " +
          (problems.empty() ? std::string("it does not lower to PTX")
                            : problems);
      llvm::errs() << "autoprof-optimize: @" << kernelName << " "
                   << record.label << ": " << record.reason << "\n";
      state.context.history.push_back(record.label + ": could not be run");
      result.candidates.push_back(std::move(record));
      continue;
    }
    // A candidate that computes in a lower precision than the original's
    // (and than the user allowed) is rejected before it runs.
    if (std::string lowered =
            checkPrecision(*reference, *code, options.precision);
        !lowered.empty()) {
      reject(std::move(lowered));
      continue;
    }
    rt::EvaluationJob job;
    job.device = options.device;
    job.kernel = *reference;
    job.candidate = *code;
    job.verifySeeds = {options.seed, options.seed + 1u};
    job.verifyDistributions = verifyDistributions;
    job.verifyReassociated = reassociated;
    job.timeBudgetSeconds = options.timeBudgetSeconds;
    std::optional<rt::EvaluationResult> measured =
        runCandidate(job, options, secondsSince(candidateLowerStart), record);
    if (!measured) {
      if (!record.seconds) {
        state.context.history.push_back(record.label + ": could not be run");
      } else {
        llvm::errs() << "autoprof-optimize: @" << kernelName << " "
                     << record.label << ": "
                     << getCandidateStatusName(record.status) << " ("
                     << record.reason << ")\n";
        state.context.history.push_back(
            record.label + ": " + getCandidateStatusName(record.status).str() +
            ", " + record.reason);
      }
      result.candidates.push_back(std::move(record));
      continue;
    }
    record.timing = MeasuredTiming::of(*measured);
    // The first launch's verification says nothing about the sizes and
    // scalars of the kernel's other launches: each is verified too.
    if (!candidate.compiled) {
      std::string failure = verifyFurtherLaunches(
          *start, *candidate.variant, moduleName, kernelName, job, options);
      if (!failure.empty()) {
        reject(std::move(failure));
        continue;
      }
    }
    // Faster than the device can move the problem's bytes: the candidate
    // skips work the verification did not catch. A baseline below the floor
    // shows that the kernel touches less than its buffers (the floor counts
    // every element once); the floor then says nothing about it.
    PhysicalFloor floor = getPhysicalFloor(reference->launch, *measured);
    if (floorHolds &&
        *measured->medianUs * 1e-6 < kFloorMargin * floor.seconds) {
      reject(llvm::formatv("faster than physically possible: {0:F2} us, "
                           "below {1:F0}% of the floor of {2:F2} us ({3})",
                           *measured->medianUs, kFloorMargin * 100,
                           floor.seconds * 1e6, floor.description));
      continue;
    }
    // Faster only beyond the noise of both measurements.
    double noise = std::max(2.0 * (bestMad + measured->madUs.value_or(0)),
                            0.01 * result.bestMedianUs);
    bool wins = *measured->medianUs < result.bestMedianUs - noise;
    // The luckiest of several measurements selected it (the winner's
    // curse): before it is accepted, it is timed again interleaved with the
    // incumbent, in one process on the same clocks, and must win there too.
    std::string retimed;
    // Would-be winners also run under compute-sanitizer, when asked: a race
    // or an access outside its buffers that the inputs did not expose.
    if (wins && !options.sanitizers.empty()) {
      std::string finding =
          sanitizeCandidate(*code, options, record.sanitizer);
      if (!finding.empty()) {
        reject(std::move(finding));
        continue;
      }
    }
    if (wins) {
      auto retimeStart = std::chrono::steady_clock::now();
      llvm::Expected<Retiming> retiming =
          retimeInterleaved(*code, incumbentCode, options);
      record.seconds->retime = secondsSince(retimeStart);
      if (!retiming) {
        wins = false;
        record.retimeError = llvm::toString(retiming.takeError());
        retimed = "; not accepted: " + record.retimeError;
      } else {
        wins = retiming->confirmed;
        retimed = llvm::formatv(
            "; re-timed alongside the incumbent: {0:F2} us against {1:F2} "
            "us{2}{3}",
            retiming->candidate.medianUs, retiming->incumbent.medianUs,
            retiming->runs > 1 ? " (run twice: the SM clock dropped)" : "",
            retiming->clockDropped ? ", the SM clock dropped again" : "");
        if (!wins)
          retimed += ", not confirmed";
        record.retimed = *retiming;
      }
    }
    record.accepted = wins;
    // A revision names the winner it would replace.
    std::string shown = record.label;
    if (candidate.replacesLast && !result.accepted.empty())
      shown += " (in place of " + result.accepted.back() + ")";
    llvm::errs() << llvm::formatv(
        "autoprof-optimize: @{0} {1}: verified, {2:F2} us against {3:F2} us "
        "(noise {4:F2}){5}{6}\n",
        kernelName, shown, *measured->medianUs, result.bestMedianUs, noise,
        retimed, wins ? ", accepted" : "");
    state.context.history.push_back(
        llvm::formatv("{0}: verified, {1:F2} us{2}", shown,
                      *measured->medianUs, wins ? " (kept)" : "")
            .str());
    if (!wins) {
      result.candidates.push_back(std::move(record));
      continue;
    }
    result.bestMedianUs = *measured->medianUs;
    bestMad = measured->madUs.value_or(0);
    if (candidate.fromStart)
      result.accepted.clear();
    else if (candidate.replacesLast && !result.accepted.empty())
      result.accepted.pop_back();
    result.accepted.push_back(record.label);
    incumbent = std::move(candidate.variant);
    incumbentCode = *code;
    state.incumbent = *incumbent;
    ++state.wins;

    // Re-profile the new incumbent with the same metrics, so that what is
    // proposed next follows what the winner changed. Without metrics (no
    // profiling) the proposer still learns of the winner and ranks on its
    // features.
    KernelHandle winner = findKernel(*incumbent, moduleName, kernelName);
    FailureOr<KernelFeatures> winnerFeatures =
        KernelFeatures::compute(winner.kernel, winner.launch);
    if (succeeded(winnerFeatures))
      state.features = winnerFeatures->toAttr(context);
    if (proposer.wantsWinnerMetrics() && !candidate.fromStart &&
        metrics.empty() && state.proposed < state.budget &&
        succeeded(winnerFeatures)) {
      result.candidates.push_back(std::move(record));
      proposer.onWinner(state);
      continue;
    }
    if (proposer.wantsWinnerMetrics() && !candidate.fromStart &&
        !metrics.empty() && state.proposed < state.budget) {
      FailureOr<rt::JobKernel> winnerJob =
          buildKernelJob(*incumbent, winner, options);
      if (failed(winnerJob) || failed(winnerFeatures)) {
        result.candidates.push_back(std::move(record));
        continue;
      }
      llvm::Expected<rt::EvaluationResult> profiled =
          runProfileJob(*winnerJob, metrics, options);
      if (!profiled || profiled->status != rt::JobStatus::Ok) {
        record.reprofileError =
            profiled ? profiled->reason : llvm::toString(profiled.takeError());
        result.candidates.push_back(std::move(record));
        continue;
      }
      for (const rt::MetricResult &metric : profiled->metrics) {
        if (metric.collected)
          state.context.metrics[metric.name] = metric.value;
        else
          state.context.metrics.erase(metric.name);
      }
      record.metrics = profiled->metrics;
      record.replayPasses = profiled->replayPasses;
      record.profileSeconds = profiled->profileSeconds;
      result.candidates.push_back(std::move(record));
      proposer.onWinner(state);
      continue;
    }
    result.candidates.push_back(std::move(record));
  }

  // The math of the original and of the result, where their PTX says.
  result.originalMath = getKernelMath(*reference);
  result.resultMath = getKernelMath(incumbentCode);
  result.precisionPolicy = stringifyPrecisionPolicy(options.precision).str();
  if (!result.failure.empty())
    llvm::errs() << "autoprof-optimize: @" << kernelName << ": "
                 << result.failure << "\n";
  llvm::errs() << llvm::formatv(
      "autoprof-optimize: @{0}: {1:F2} us -> {2:F2} us ({3:F2}x){4}{5}; "
      "{6} candidates: {7} verified, {8} rejected, {9} not run\n",
      kernelName, result.baseline.medianUs, result.bestMedianUs,
      result.getSpeedup(),
      result.accepted.empty() ? " (original kept)" : " with ",
      llvm::join(result.accepted, ", "), result.candidates.size(),
      result.countVerified(), result.countRejected(), result.countNotRun());
  return std::optional<KernelSearchResult>(std::move(result));
}
