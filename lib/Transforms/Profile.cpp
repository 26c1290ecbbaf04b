//===- Profile.cpp - Time and profile kernels on the GPU ------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Import/ImportedKernel.h"
#include "autoprof/Import/PtxFeatures.h"
#include "autoprof/Runtime/WorkerClient.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "llvm/ADT/StringExtras.h"
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

/// Adds the dynamic features of a measurement to `features`: the duration,
/// the effective bandwidth (the compulsory traffic of `launch`, when known,
/// over the time, against the peak measured on the device) and the waves
/// per SM. False when the measurement has no duration.
static bool
setDynamicFeatures(KernelFeatures &features,
                   const ::autoprof::runtime::JobLaunch *launch,
                   const ::autoprof::runtime::EvaluationResult &result) {
  if (!result.medianUs || *result.medianUs <= 0)
    return false;
  double seconds = *result.medianUs * 1e-6;
  features.set("duration_us", *result.medianUs);
  if (launch && result.peakBandwidth > 0)
    features.set("dram_bandwidth_fraction",
                 std::min(1.0, double(getCompulsoryBytes(*launch)) / seconds /
                                   result.peakBandwidth));
  std::optional<double> blocks = features.lookup("grid_blocks");
  if (blocks && result.blocksPerSm > 0 && result.smCount > 0)
    features.set("waves_per_sm",
                 *blocks / (double(result.blocksPerSm) * result.smCount));
  return true;
}

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
  /// Writes `job` to <job-dir>/<name>.json, or, when a job of that name
  /// was written already (kernels of one name in two gpu.modules), to
  /// <job-dir>/<gpu.module>.<name>.json (an imported binary: binary.<name>);
  /// names are made file names first (getFileStem).
  LogicalResult writeJob(Operation *kernel, StringRef name,
                         const ::autoprof::runtime::EvaluationJob &job);
  /// The file names (without .json) of the jobs written so far.
  llvm::StringSet<> writtenJobs;
  /// The metrics to collect: the `metrics` option, else those of the
  /// profile `select` gives (the kernel's own or the tree's choice).
  FailureOr<std::vector<std::string>>
  getJobMetrics(Operation *kernel,
                function_ref<FailureOr<DictionaryAttr>()> select);
  /// Writes the job where asked, runs it and attaches the measurement to
  /// `kernel`; emits a diagnostic naming `name` and fails otherwise.
  FailureOr<::autoprof::runtime::EvaluationResult>
  measure(Operation *kernel, StringRef name,
          const ::autoprof::runtime::EvaluationJob &job,
          const ::autoprof::runtime::WorkerOptions &options);
  /// Profiles an imported kernel: its features from its launch and PTX, the
  /// job built from its binary, the results on the binary.
  LogicalResult
  profileImported(const ImportedKernel &kernel, TreeOp tree,
                  const ::autoprof::runtime::WorkerOptions &options);
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

/// `name` as a file name in job-dir: characters other than letters, digits,
/// `_`, `$`, `-` and `.` become `_`, and so does a leading `.` (a symbol
/// named `../x` stays in the directory).
static std::string getFileStem(StringRef name) {
  std::string stem = name.str();
  for (char &c : stem)
    if (!llvm::isAlnum(c) && c != '_' && c != '$' && c != '-' && c != '.')
      c = '_';
  if (stem.empty() || stem.front() == '.')
    stem.insert(stem.begin(), '_');
  return stem;
}

LogicalResult
ProfilePass::writeJob(Operation *kernel, StringRef symbol,
                      const ::autoprof::runtime::EvaluationJob &job) {
  std::string name = getFileStem(symbol);
  if (std::error_code ec = llvm::sys::fs::create_directories(jobDir))
    return emitError(kernel->getLoc(), "cannot create job-dir '")
           << jobDir << "': " << ec.message();
  std::string stem = name;
  if (writtenJobs.contains(stem)) {
    auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
    std::string scope = module ? getFileStem(module.getName()) : "binary";
    stem = scope + "." + name;
    for (unsigned suffix = 1; writtenJobs.contains(stem); ++suffix)
      stem = scope + "." + name + "." + std::to_string(suffix);
  }
  writtenJobs.insert(stem);
  SmallString<128> path(jobDir);
  llvm::sys::path::append(path, stem + ".json");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(kernel->getLoc(), "cannot write '")
           << path << "': " << ec.message();
  os << llvm::formatv("{0:2}", llvm::json::Value(toJSON(job))) << "\n";
  return success();
}

FailureOr<std::vector<std::string>>
ProfilePass::getJobMetrics(Operation *kernel,
                           function_ref<FailureOr<DictionaryAttr>()> select) {
  std::vector<std::string> names;
  if (!metrics.empty()) {
    // Each name once: the measurement is a dictionary keyed by name.
    llvm::StringSet<> seen;
    for (const std::string &name : metrics)
      if (seen.insert(name).second)
        names.push_back(name);
    return names;
  }
  FailureOr<DictionaryAttr> profile = select();
  if (failed(profile))
    return failure();
  for (Attribute name : cast<ArrayAttr>(profile->get("metrics")))
    names.push_back(cast<StringAttr>(name).getValue().str());
  return names;
}

FailureOr<::autoprof::runtime::EvaluationResult>
ProfilePass::measure(Operation *kernel, StringRef name,
                     const ::autoprof::runtime::EvaluationJob &job,
                     const ::autoprof::runtime::WorkerOptions &options) {
  if (!jobDir.empty() && failed(writeJob(kernel, name, job)))
    return failure();
  llvm::Expected<::autoprof::runtime::EvaluationResult> result =
      ::autoprof::runtime::runWorker(job, options);
  if (!result)
    return emitError(kernel->getLoc(), "cannot profile @")
           << name << ": " << llvm::toString(result.takeError());
  if (result->status == ::autoprof::runtime::JobStatus::Ok &&
      (!result->medianUs || result->gpuName.empty()))
    return emitError(kernel->getLoc(), "profiling @")
           << name
           << ": the worker reported success without a device or a timing";
  if (result->status != ::autoprof::runtime::JobStatus::Ok)
    return emitError(kernel->getLoc(), "profiling @")
           << name << " failed ("
           << ::autoprof::runtime::getJobStatusName(result->status)
           << "): " << result->reason;
  AutoProfDialect::MeasurementAttrHelper(kernel->getContext())
      .setAttr(kernel, buildMeasurement(*result));
  return std::move(*result);
}

LogicalResult ProfilePass::profileImported(
    const ImportedKernel &kernel, TreeOp tree,
    const ::autoprof::runtime::WorkerOptions &options) {
  KernelFeatures features = computePtxFeatures(kernel);
  gpu::BinaryOp binary = kernel.binary;
  binary->setAttr(kFeaturesAttrName, features.toAttr(&getContext()));
  ::autoprof::runtime::EvaluationJob job;
  job.device = device;
  job.kernel = kernel.getJobKernel();
  job.timeBudgetSeconds = timeBudget;
  FailureOr<std::vector<std::string>> names = getJobMetrics(binary, [&] {
    return getOrSelectProfile(binary, features.toAttr(&getContext()), tree);
  });
  if (failed(names))
    return failure();
  job.metrics = std::move(*names);
  FailureOr<::autoprof::runtime::EvaluationResult> result =
      measure(binary, binary.getSymName(), job, options);
  if (failed(result))
    return failure();
  if (setDynamicFeatures(features, &kernel.jobLaunch, *result))
    binary->setAttr(kFeaturesAttrName, features.toAttr(&getContext()));
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
  if (failed(features))
    return;
  FailureOr<::autoprof::runtime::JobLaunch> jobLaunch =
      buildJobLaunch(kernel, launch);
  if (setDynamicFeatures(*features,
                         succeeded(jobLaunch) ? &*jobLaunch : nullptr, result))
    kernel->setAttr(kFeaturesAttrName, features->toAttr(&getContext()));
}

void ProfilePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkJobOptions(module.getLoc(), "autoprof-profile", chip, device,
                             timeBudget)))
    return signalPassFailure();
  writtenJobs.clear();
  llvm::DenseMap<Operation *, gpu::LaunchFuncOp> launches =
      findKernelLaunches(module);
  FailureOr<std::vector<ImportedKernel>> imported = findImportedKernels(module);
  if (failed(imported))
    return signalPassFailure();
  if (launches.empty() && imported->empty()) {
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

  // The gpu.modules' PTX (imported kernels bring their own).
  llvm::StringMap<std::string> ptx;
  if (!launches.empty()) {
    FailureOr<llvm::StringMap<std::string>> lowered =
        lowerModulesToPTX(module, chip, features);
    if (failed(lowered))
      return signalPassFailure();
    ptx = std::move(*lowered);
  }

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
    auto code = ptx.find(gpuModule.getName());
    FailureOr<::autoprof::runtime::JobLaunch> jobLaunch =
        buildJobLaunch(kernel, launch);
    if (code == ptx.end() || failed(jobLaunch)) {
      anyFailed = true;
      return;
    }

    ::autoprof::runtime::EvaluationJob job;
    job.device = device;
    job.kernel = {code->second, ::autoprof::runtime::CodeFormat::Ptx,
                  kernel.getName().str(), *jobLaunch};
    job.timeBudgetSeconds = timeBudget;
    FailureOr<std::vector<std::string>> names = getJobMetrics(
        kernel, [&] { return getOrSelectProfile(kernel, launch, tree->tree); });
    if (failed(names)) {
      anyFailed = true;
      return;
    }
    job.metrics = std::move(*names);
    FailureOr<::autoprof::runtime::EvaluationResult> result =
        measure(kernel, kernel.getName(), job, workerOptions);
    if (failed(result)) {
      anyFailed = true;
      return;
    }
    addDynamicFeatures(kernel, launch, *result);
  });
  for (const ImportedKernel &kernel : *imported)
    if (failed(profileImported(kernel, tree ? tree->tree : TreeOp(),
                               workerOptions)))
      anyFailed = true;
  if (anyFailed)
    signalPassFailure();
}
