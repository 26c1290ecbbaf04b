//===- Optimize.cpp - Keep the fastest verified variant of each kernel ----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Optimizer/KernelRewrites.h"
#include "autoprof/Optimizer/LLMProposer.h"
#include "autoprof/Optimizer/Passes.h"
#include "autoprof/Runtime/WorkerClient.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>

namespace mlir::autoprof {
#define GEN_PASS_DEF_OPTIMIZEPASS
#include "autoprof/Optimizer/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;
using llvm::json::Array;
using llvm::json::Object;

namespace {

/// The kernel and launch with the given names in `module`.
struct KernelHandle {
  gpu::GPUFuncOp kernel;
  gpu::LaunchFuncOp launch;
};

struct OptimizePass
    : public mlir::autoprof::impl::OptimizePassBase<OptimizePass> {
  using Base::Base;

  void runOnOperation() override;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    createLowerToPTXPass()->getDependentDialects(registry);
  }

private:
  /// Finds @moduleName::@kernelName and its first launch in `module`.
  static KernelHandle find(ModuleOp module, StringRef moduleName,
                           StringRef kernelName);
  /// Builds the job of `handle` in `module` (lowering it to PTX).
  FailureOr<rt::JobKernel> buildKernelJob(ModuleOp module, KernelHandle handle);
  /// Optimizes one kernel, starting from and updating `incumbent`; appends
  /// its report. Fails only when nothing could be measured at all.
  LogicalResult optimizeKernel(OwningOpRef<ModuleOp> &incumbent,
                               StringRef moduleName, StringRef kernelName,
                               TreeOp tree, Array &report);

  rt::WorkerOptions workerOptions;
  std::shared_ptr<::autoprof::llm::ChatClient> chatClient;
};

} // namespace

KernelHandle OptimizePass::find(ModuleOp module, StringRef moduleName,
                                StringRef kernelName) {
  KernelHandle handle;
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    if (gpuModule.getName() == moduleName)
      handle.kernel = gpuModule.lookupSymbol<gpu::GPUFuncOp>(kernelName);
  if (handle.kernel)
    handle.launch = findKernelLaunches(module).lookup(handle.kernel);
  return handle;
}

FailureOr<rt::JobKernel> OptimizePass::buildKernelJob(ModuleOp module,
                                                      KernelHandle handle) {
  FailureOr<llvm::StringMap<std::string>> ptx =
      lowerModulesToPTX(module, chip, features);
  if (failed(ptx))
    return failure();
  auto gpuModule = handle.kernel->getParentOfType<gpu::GPUModuleOp>();
  auto code = ptx->find(gpuModule.getName());
  FailureOr<rt::JobLaunch> launch =
      buildJobLaunch(handle.kernel, handle.launch);
  if (code == ptx->end() || failed(launch))
    return failure();
  return rt::JobKernel{code->second, "ptx", handle.kernel.getName().str(),
                       *launch};
}

/// The timing of a result as JSON.
static Object timingOf(const rt::EvaluationResult &result) {
  return Object{{"median_us", result.medianUs.value_or(0)},
                {"mad_us", result.madUs.value_or(0)},
                {"p10_us", result.p10Us.value_or(0)},
                {"p90_us", result.p90Us.value_or(0)},
                {"samples", result.samples}};
}

LogicalResult OptimizePass::optimizeKernel(OwningOpRef<ModuleOp> &incumbent,
                                           StringRef moduleName,
                                           StringRef kernelName, TreeOp tree,
                                           Array &report) {
  KernelHandle original = find(*incumbent, moduleName, kernelName);
  Location loc = original.kernel.getLoc();
  // A launch whose scalars vary at run time (a launch in a host loop fed by
  // its induction variable) has no single evaluation job.
  for (Value operand : original.launch.getKernelOperands())
    if (!isa<MemRefType>(operand.getType()) &&
        !matchPattern(operand, m_Constant())) {
      emitRemark(loc, "@")
          << kernelName << " is launched with an argument that varies at run "
          << "time"
          << (AutoProfDialect::HostLoopAttrHelper(&getContext())
                      .isAttrPresent(original.launch)
                  ? " (the induction variable of a host loop)"
                  : "")
          << ", so it cannot be measured on its own; left as it is";
      return success();
    }
  FailureOr<rt::JobKernel> reference = buildKernelJob(*incumbent, original);
  if (failed(reference))
    return failure();

  // Baseline: time and the tree's metrics.
  FailureOr<DictionaryAttr> profile =
      getOrSelectProfile(original.kernel, original.launch, tree);
  if (failed(profile))
    return failure();
  rt::EvaluationJob baselineJob;
  baselineJob.device = device;
  baselineJob.kernel = *reference;
  baselineJob.timeBudgetSeconds = timeBudget;
  for (Attribute name : cast<ArrayAttr>(profile->get("metrics")))
    baselineJob.metrics.push_back(cast<StringAttr>(name).getValue().str());
  llvm::Expected<rt::EvaluationResult> baseline =
      rt::runWorker(baselineJob, workerOptions);
  if (!baseline) {
    emitError(loc, "cannot measure @")
        << kernelName << ": " << llvm::toString(baseline.takeError());
    return failure();
  }
  if (baseline->status != "ok" || !baseline->medianUs) {
    emitError(loc, "cannot measure @")
        << kernelName << " (" << baseline->status << "): " << baseline->reason;
    return failure();
  }

  llvm::StringMap<double> metrics;
  Array baselineMetrics;
  for (const rt::MetricResult &metric : baseline->metrics) {
    if (metric.collected)
      metrics[metric.name] = metric.value;
    baselineMetrics.push_back(rt::toJSON(metric));
  }
  FailureOr<KernelFeatures> features =
      KernelFeatures::compute(original.kernel, original.launch);
  if (failed(features))
    return failure();
  SmallVector<KernelRewrite> candidates = proposeKernelRewrites(
      *incumbent, original.kernel, features->toAttr(&getContext()), metrics);

  double bestMedian = *baseline->medianUs;
  double bestMad = baseline->madUs.value_or(0);
  SmallVector<std::string> accepted;
  Array tried;
  unsigned verified = 0, rejected = 0, failedToRun = 0;
  ProposalContext context;
  context.gpuName = baseline->gpuName;
  context.smCount = baseline->smCount;
  context.peakBandwidth = baseline->peakBandwidth;
  context.baselineMedianUs = *baseline->medianUs;
  context.metrics = metrics;
  for (const rt::MetricResult &metric : baseline->metrics)
    if (!metric.collected)
      context.missing.push_back(
          metric.name + (metric.note.empty() ? "" : ": " + metric.note));

  // Verifies and times `variant` against the original; keeps it when it is
  // faster than the incumbent beyond the noise.
  // `compiled` is the candidate's code when it is not a gpu.func of the
  // variant (a CUDA answer's PTX).
  auto evaluate = [&](OwningOpRef<ModuleOp> variant, StringRef label,
                      Object entry,
                      std::optional<rt::JobKernel> compiled =
                          std::nullopt) -> LogicalResult {
    FailureOr<rt::JobKernel> candidate =
        compiled
            ? FailureOr<rt::JobKernel>(*compiled)
            : buildKernelJob(*variant, find(*variant, moduleName, kernelName));
    if (failed(candidate))
      return failure();
    rt::EvaluationJob job;
    job.device = device;
    job.kernel = *reference;
    job.candidate = *candidate;
    job.verifySeeds = {seed, seed + 1u};
    job.timeBudgetSeconds = timeBudget;
    llvm::Expected<rt::EvaluationResult> result =
        rt::runWorker(job, workerOptions);
    if (!result) {
      entry["status"] = "error";
      entry["reason"] = llvm::toString(result.takeError());
      context.history.push_back(label.str() + ": could not be run");
      ++failedToRun;
      tried.push_back(std::move(entry));
      return success();
    }
    entry["status"] = result->status == "ok" ? "verified" : result->status;
    if (!result->reason.empty())
      entry["reason"] = result->reason;
    if (result->status != "ok" || !result->medianUs) {
      ++(result->status == "rejected" ? rejected : failedToRun);
      llvm::errs() << "autoprof-optimize: @" << kernelName << " " << label
                   << ": " << result->status << " (" << result->reason << ")\n";
      context.history.push_back(label.str() + ": " + result->status + ", " +
                                result->reason);
      tried.push_back(std::move(entry));
      return success();
    }
    ++verified;
    entry["timing"] = timingOf(*result);
    // Faster only beyond the noise of both measurements.
    double noise = std::max(2.0 * (bestMad + result->madUs.value_or(0)),
                            0.01 * bestMedian);
    bool wins = *result->medianUs < bestMedian - noise;
    entry["accepted"] = wins;
    llvm::errs() << llvm::formatv(
        "autoprof-optimize: @{0} {1}: verified, {2:F2} us against {3:F2} us "
        "(noise {4:F2}){5}\n",
        kernelName, label, *result->medianUs, bestMedian, noise,
        wins ? ", accepted" : "");
    context.history.push_back(llvm::formatv("{0}: verified, {1:F2} us{2}",
                                            label, *result->medianUs,
                                            wins ? " (kept)" : "")
                                  .str());
    if (wins) {
      bestMedian = *result->medianUs;
      bestMad = result->madUs.value_or(0);
      // Each rewrite of `search=each` replaces the previous winner.
      if (search == SearchStrategy::Each && proposer == "builtin")
        accepted.clear();
      accepted.push_back(label.str());
      incumbent = std::move(variant);
    }
    tried.push_back(std::move(entry));
    return success();
  };

  if (proposer == "llm") {
    for (unsigned i = 0; i < budget; ++i) {
      OwningOpRef<ModuleOp> variant = incumbent->clone();
      // CUDA answers compile in the worker, which brings NVRTC; the compiler
      // itself never links CUDA.
      auto compileCuda = [&](StringRef source) -> llvm::Expected<std::string> {
        rt::EvaluationJob job;
        job.kernel = {source.str(), "cuda", kernelName.str(),
                      reference->launch};
        job.time = false;
        job.compileArch = ("compute_" + StringRef(chip).drop_front(3)).str();
        llvm::Expected<rt::EvaluationResult> result =
            rt::runWorker(job, workerOptions);
        if (!result)
          return result.takeError();
        if (result->status != "ok")
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         result->reason);
        return result->ptx;
      };
      llvm::Expected<Proposal> proposal = proposeWithModel(
          *chatClient, *variant, moduleName, kernelName, context, compileCuda);
      if (!proposal) {
        emitError(loc, "the language model could not be asked about @")
            << kernelName << ": " << llvm::toString(proposal.takeError());
        return failure();
      }
      std::string label = "llm#" + std::to_string(i + 1);
      Object entry{{"rewrite", label},
                   {"source", "llm"},
                   {"prompt_tokens", proposal->promptTokens},
                   {"completion_tokens", proposal->completionTokens},
                   {"latency_s", proposal->latencySeconds},
                   {"from_cache", proposal->fromCache},
                   {"repaired", proposal->repaired}};
      if (!proposal->code.empty()) {
        entry["language"] = proposal->language;
        entry["text"] = proposal->code;
      }
      if (!proposal->installed) {
        entry["status"] = "rejected";
        entry["reason"] = proposal->rejection;
        ++rejected;
        llvm::errs() << "autoprof-optimize: @" << kernelName << " " << label
                     << ": rejected (" << proposal->rejection << ")\n";
        context.history.push_back(label + ": rejected, " + proposal->rejection);
        tried.push_back(std::move(entry));
        continue;
      }
      std::optional<rt::JobKernel> compiled;
      if (!proposal->ptx.empty()) {
        compiled = rt::JobKernel{proposal->ptx, "ptx", kernelName.str(),
                                 reference->launch};
        installCudaKernel(*variant, moduleName, kernelName, proposal->ptx, chip,
                          this->features);
      }
      if (failed(evaluate(std::move(variant), label, std::move(entry),
                          std::move(compiled))))
        return failure();
    }
  } else {
    if (candidates.empty())
      emitRemark(loc, "no built-in rewrite applies to @")
          << kernelName << "; the original is kept";
    // Each winner is profiled again and the remaining rewrites re-ranked on
    // its metrics: what pays off next depends on what the winner changed.
    llvm::StringSet<> seen;
    std::deque<KernelRewrite> queue(candidates.begin(), candidates.end());
    unsigned used = 0;
    bool each = search == SearchStrategy::Each;
    OwningOpRef<ModuleOp> start = incumbent->clone();
    while (used < budget && !queue.empty()) {
      KernelRewrite rewrite = queue.front();
      queue.pop_front();
      if (!seen.insert(rewrite.str()).second)
        continue;
      ++used;
      Object entry{{"rewrite", rewrite.str()}, {"source", "builtin"}};
      OwningOpRef<ModuleOp> variant = each ? start->clone() : incumbent->clone();
      KernelHandle handle = find(*variant, moduleName, kernelName);
      // Earlier winners can invalidate a later rewrite's preconditions.
      if (std::optional<std::string> why =
              checkKernelRewrite(rewrite, *variant, handle.kernel)) {
        entry["status"] = "skipped";
        entry["reason"] = *why;
        tried.push_back(std::move(entry));
        continue;
      }
      size_t acceptedBefore = accepted.size();
      if (failed(applyKernelRewrite(rewrite, *variant, handle.kernel)) ||
          failed(evaluate(std::move(variant), rewrite.str(), std::move(entry))))
        return failure();
      if (accepted.size() == acceptedBefore || used == budget || each)
        continue;
      // Re-profile the new incumbent with the same metrics.
      KernelHandle winner = find(*incumbent, moduleName, kernelName);
      FailureOr<rt::JobKernel> winnerJob = buildKernelJob(*incumbent, winner);
      FailureOr<KernelFeatures> winnerFeatures =
          KernelFeatures::compute(winner.kernel, winner.launch);
      if (failed(winnerJob) || failed(winnerFeatures))
        continue;
      rt::EvaluationJob profileJob;
      profileJob.device = device;
      profileJob.kernel = *winnerJob;
      profileJob.time = false;
      profileJob.metrics = baselineJob.metrics;
      llvm::Expected<rt::EvaluationResult> profiled =
          rt::runWorker(profileJob, workerOptions);
      Object *last = tried.back().getAsObject();
      if (!profiled || profiled->status != "ok") {
        (*last)["reprofile_error"] =
            profiled ? profiled->reason : llvm::toString(profiled.takeError());
        continue;
      }
      Array winnerMetrics;
      for (const rt::MetricResult &metric : profiled->metrics) {
        if (metric.collected)
          metrics[metric.name] = metric.value;
        else
          metrics.erase(metric.name);
        winnerMetrics.push_back(rt::toJSON(metric));
      }
      context.metrics = metrics;
      (*last)["metrics"] = std::move(winnerMetrics);
      (*last)["replay_passes"] = profiled->replayPasses;
      (*last)["profile_seconds"] = profiled->profileSeconds;
      SmallVector<KernelRewrite> reranked =
          proposeKernelRewrites(*incumbent, winner.kernel,
                                winnerFeatures->toAttr(&getContext()), metrics);
      queue.assign(reranked.begin(), reranked.end());
    }
  }

  double speedup = *baseline->medianUs / bestMedian;
  llvm::errs() << llvm::formatv(
      "autoprof-optimize: @{0}: {1:F2} us -> {2:F2} us ({3:F2}x){4}{5}; "
      "{6} candidates: {7} verified, {8} rejected, {9} not run\n",
      kernelName, *baseline->medianUs, bestMedian, speedup,
      accepted.empty() ? " (original kept)" : " with ",
      llvm::join(accepted, ", "), tried.size(), verified, rejected,
      failedToRun);
  Array acceptedJson;
  for (const std::string &name : accepted)
    acceptedJson.push_back(name);
  report.push_back(
      Object{{"kernel", (moduleName + "::" + kernelName).str()},
             {"gpu", baseline->gpuName},
             {"peak_dram_bytes_per_s", baseline->peakBandwidth},
             {"global_bytes_total",
              features->lookup("global_bytes_total").value_or(0)},
             {"compulsory_bytes",
              static_cast<int64_t>(getCompulsoryBytes(reference->launch))},
             {"flops_total", features->lookup("flops_total").value_or(0)},
             {"baseline",
              Object{{"timing", timingOf(*baseline)},
                     {"metrics", std::move(baselineMetrics)},
                     {"replay_passes", baseline->replayPasses},
                     {"profile_seconds", baseline->profileSeconds},
                     {"profile_leaf",
                      profile->get("leaf")
                          ? cast<IntegerAttr>(profile->get("leaf")).getInt()
                          : -1}}},
             {"candidates", std::move(tried)},
             {"accepted", std::move(acceptedJson)},
             {"best_median_us", bestMedian},
             {"speedup", speedup}});
  return success();
}

void OptimizePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkWorkerDeadline(module, deadline)))
    return signalPassFailure();
  workerOptions.workerPath = workerPath;
  workerOptions.deadlineSeconds = deadline;
  if (proposer != "builtin" && proposer != "llm") {
    module.emitError("proposer must be 'builtin' or 'llm', got '")
        << proposer << "'";
    return signalPassFailure();
  }
  if (proposer == "llm") {
    std::optional<::autoprof::llm::ApiStyle> style =
        ::autoprof::llm::parseApiStyle(apiStyle);
    if (!style) {
      module.emitError("api-style must be 'openai' or 'anthropic', got '")
          << apiStyle << "'";
      return signalPassFailure();
    }
    ::autoprof::llm::ChatOptions options;
    options.style = *style;
    options.baseUrl = endpoint;
    options.model = model;
    options.cacheDirectory = cacheDir;
    options.replayOnly = replayOnly;
    options.maxRetries = llmRetries;
    chatClient = std::make_shared<::autoprof::llm::ChatClient>(
        ::autoprof::llm::ChatOptions::fromEnvironment(options));
  }
  FailureOr<LoadedTree> tree =
      loadProfilingTree(&getContext(), treeFile, treeName, module.getLoc());
  if (failed(tree))
    return signalPassFailure();

  // Work on a copy: the module changes only when everything was measured.
  OwningOpRef<ModuleOp> incumbent = module.clone();
  // The rewrites work on (and the output holds) the normalized kernels.
  if (failed(normalizeKernels(*incumbent)))
    return signalPassFailure();
  SmallVector<std::pair<std::string, std::string>> kernels;
  llvm::DenseMap<Operation *, gpu::LaunchFuncOp> launches =
      findKernelLaunches(module);
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel())
      return;
    if (!launches.lookup(kernel)) {
      emitRemark(kernel.getLoc(), "@")
          << kernel.getName() << " is never launched; left as it is";
      return;
    }
    kernels.push_back(
        {kernel->getParentOfType<gpu::GPUModuleOp>().getName().str(),
         kernel.getName().str()});
  });

  Array report;
  bool anyFailed = false;
  for (auto &[moduleName, kernelName] : kernels)
    if (failed(optimizeKernel(incumbent, moduleName, kernelName, tree->tree,
                              report)))
      anyFailed = true;

  if (!reportPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(reportPath, ec);
    if (ec) {
      module.emitError("cannot write the report '")
          << reportPath << "': " << ec.message();
      return signalPassFailure();
    }
    os << llvm::formatv("{0:2}", llvm::json::Value(
                                     Object{{"kernels", std::move(report)}}))
       << "\n";
  }
  if (anyFailed)
    return signalPassFailure();
  module.getBodyRegion().takeBody(incumbent->getBodyRegion());
}
