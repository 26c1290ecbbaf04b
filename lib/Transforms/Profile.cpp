//===- Profile.cpp - Time and profile kernels on the GPU ------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Runtime/WorkerClient.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_PROFILEPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

namespace {
struct ProfilePass : public mlir::autoprof::impl::ProfilePassBase<ProfilePass> {
  using Base::Base;

  void runOnOperation() override;

  /// Lowering a copy of the module loads the dialects of the PTX pipeline.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    createLowerToPTXPass()->getDependentDialects(registry);
  }

private:
  /// Adds the dynamic features (duration, achieved DRAM bandwidth fraction,
  /// waves per SM) of a measurement to the kernel's `autoprof.features`.
  void addDynamicFeatures(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch,
                          const ::autoprof::runtime::EvaluationResult &result);
  /// Writes `job` to <job-dir>/<kernel>.json.
  LogicalResult writeJob(gpu::GPUFuncOp kernel,
                         const ::autoprof::runtime::EvaluationJob &job);
  /// The measurement of one kernel as an attribute.
  DictionaryAttr
  buildMeasurement(const ::autoprof::runtime::EvaluationResult &result);
};
} // namespace

DictionaryAttr ProfilePass::buildMeasurement(
    const ::autoprof::runtime::EvaluationResult &result) {
  Builder builder(&getContext());
  SmallVector<NamedAttribute> collected;
  SmallVector<Attribute> missing;
  for (const ::autoprof::runtime::MetricResult &metric : result.metrics) {
    if (metric.collected)
      collected.push_back(builder.getNamedAttr(
          metric.name, builder.getF64FloatAttr(metric.value)));
    else
      missing.push_back(builder.getStringAttr(
          metric.name + (metric.note.empty() ? "" : ": " + metric.note)));
  }
  auto f64 = [&](std::optional<double> value) {
    return builder.getF64FloatAttr(value.value_or(0));
  };
  SmallVector<NamedAttribute> entries = {
      builder.getNamedAttr("gpu", builder.getStringAttr(result.gpuName)),
      builder.getNamedAttr("median_us", f64(result.medianUs)),
      builder.getNamedAttr("min_us", f64(result.minUs)),
      builder.getNamedAttr("max_us", f64(result.maxUs)),
      builder.getNamedAttr("mad_us", f64(result.madUs)),
      builder.getNamedAttr("p10_us", f64(result.p10Us)),
      builder.getNamedAttr("p90_us", f64(result.p90Us)),
      builder.getNamedAttr("samples",
                           builder.getI64IntegerAttr(result.samples)),
      builder.getNamedAttr("sm_clock_khz", builder.getDenseI64ArrayAttr(
                                               {result.smClockKhzBefore,
                                                result.smClockKhzAfter})),
      builder.getNamedAttr(
          "registers_per_thread",
          builder.getI64IntegerAttr(result.registersPerThread)),
      builder.getNamedAttr("metrics", builder.getDictionaryAttr(collected)),
      builder.getNamedAttr("missing", builder.getArrayAttr(missing)),
      builder.getNamedAttr("replay_passes",
                           builder.getI64IntegerAttr(result.replayPasses)),
      builder.getNamedAttr("profile_seconds",
                           builder.getF64FloatAttr(result.profileSeconds)),
  };
  return builder.getDictionaryAttr(entries);
}

LogicalResult
ProfilePass::writeJob(gpu::GPUFuncOp kernel,
                      const ::autoprof::runtime::EvaluationJob &job) {
  if (std::error_code ec = llvm::sys::fs::create_directories(jobDir))
    return emitError(kernel.getLoc(), "cannot create job-dir '")
           << jobDir << "': " << ec.message();
  SmallString<128> path(jobDir);
  llvm::sys::path::append(path, kernel.getName() + ".json");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(kernel.getLoc(), "cannot write '")
           << path << "': " << ec.message();
  os << llvm::formatv("{0:2}", llvm::json::Value(toJSON(job))) << "\n";
  return success();
}

void ProfilePass::addDynamicFeatures(
    gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch,
    const ::autoprof::runtime::EvaluationResult &result) {
  FailureOr<NormalizedCopy> copy =
      normalizeCopy(kernel->getParentOfType<ModuleOp>());
  if (failed(copy))
    return;
  FailureOr<KernelFeatures> features =
      computeNormalizedFeatures(*copy, kernel, launch);
  if (failed(features) || !result.medianUs || *result.medianUs <= 0)
    return;
  double seconds = *result.medianUs * 1e-6;
  features->set("duration_us", *result.medianUs);
  // Effective bandwidth: the compulsory traffic of the launch over the time,
  // against the peak measured on this device.
  FailureOr<::autoprof::runtime::JobLaunch> jobLaunch =
      buildJobLaunch(kernel, launch);
  if (succeeded(jobLaunch) && result.peakBandwidth > 0)
    features->set("dram_bandwidth_fraction",
                  std::min(1.0, double(getCompulsoryBytes(*jobLaunch)) /
                                    seconds / result.peakBandwidth));
  std::optional<double> blocks = features->lookup("grid_blocks");
  if (blocks && result.blocksPerSm > 0 && result.smCount > 0)
    features->set("waves_per_sm",
                  *blocks / (double(result.blocksPerSm) * result.smCount));
  kernel->setAttr(kFeaturesAttrName, features->toAttr(&getContext()));
}

void ProfilePass::runOnOperation() {
  ModuleOp module = getOperation();
  llvm::DenseMap<Operation *, gpu::LaunchFuncOp> launches =
      findKernelLaunches(module);
  if (launches.empty()) {
    module.emitWarning("no launched kernel to profile");
    return;
  }

  // Kernels without a selected profile use the tree.
  std::optional<LoadedTree> tree;
  if (metrics.empty()) {
    FailureOr<LoadedTree> loaded =
        loadProfilingTree(&getContext(), treeFile, treeName, module.getLoc());
    if (failed(loaded))
      return signalPassFailure();
    tree = std::move(*loaded);
  }

  FailureOr<llvm::StringMap<std::string>> ptx =
      lowerModulesToPTX(module, chip, features);
  if (failed(ptx))
    return signalPassFailure();

  if (failed(checkWorkerDeadline(module, deadline)))
    return signalPassFailure();
  ::autoprof::runtime::WorkerOptions workerOptions;
  workerOptions.workerPath = workerPath;
  workerOptions.deadlineSeconds = deadline;
  bool anyFailed = false;

  module.walk([&](gpu::GPUFuncOp kernel) {
    gpu::LaunchFuncOp launch = launches.lookup(kernel);
    if (!kernel.isKernel() || !launch)
      return;
    auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
    auto code = ptx->find(gpuModule.getName());
    FailureOr<::autoprof::runtime::JobLaunch> jobLaunch =
        buildJobLaunch(kernel, launch);
    if (code == ptx->end() || failed(jobLaunch)) {
      anyFailed = true;
      return;
    }

    ::autoprof::runtime::EvaluationJob job;
    job.device = device;
    job.kernel = {code->second, "ptx", kernel.getName().str(), *jobLaunch};
    job.timeBudgetSeconds = timeBudget;
    if (!metrics.empty()) {
      // Each name once: the measurement is a dictionary keyed by name.
      llvm::StringSet<> seen;
      for (const std::string &name : metrics)
        if (seen.insert(name).second)
          job.metrics.push_back(name);
    } else {
      FailureOr<DictionaryAttr> profile =
          getOrSelectProfile(kernel, launch, tree->tree);
      if (failed(profile)) {
        anyFailed = true;
        return;
      }
      for (Attribute name : cast<ArrayAttr>(profile->get("metrics")))
        job.metrics.push_back(cast<StringAttr>(name).getValue().str());
    }

    if (!jobDir.empty() && failed(writeJob(kernel, job))) {
      anyFailed = true;
      return;
    }

    llvm::Expected<::autoprof::runtime::EvaluationResult> result =
        ::autoprof::runtime::runWorker(job, workerOptions);
    if (!result) {
      emitError(kernel.getLoc(), "cannot profile @")
          << kernel.getName() << ": " << llvm::toString(result.takeError());
      anyFailed = true;
      return;
    }
    if (result->status == "ok" &&
        (!result->medianUs || result->gpuName.empty())) {
      emitError(kernel.getLoc(), "profiling @")
          << kernel.getName()
          << ": the worker reported success without a device or a timing";
      anyFailed = true;
      return;
    }
    if (result->status != "ok") {
      emitError(kernel.getLoc(), "profiling @")
          << kernel.getName() << " failed (" << result->status
          << "): " << result->reason;
      anyFailed = true;
      return;
    }
    AutoProfDialect::MeasurementAttrHelper(kernel.getContext())
        .setAttr(kernel, buildMeasurement(*result));
    addDynamicFeatures(kernel, launch, *result);
  });
  if (anyFailed)
    signalPassFailure();
}
