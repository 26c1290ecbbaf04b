//===- VerifyKernels.cpp - Verify kernels against a reference module ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Checks on the GPU that every launched kernel of a module computes what the
// kernel of the same name in a reference module computes. The two kernels may
// take different parameter lists when the module's kernel has sunk constant
// scalars into its body: the verification job then carries a parameter map
// derived from the two launches (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Import/ImportedKernel.h"
#include "autoprof/Runtime/WorkerClient.h"
#include "autoprof/Support/InputFile.h"
#include "autoprof/Support/Nesting.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_VERIFYKERNELSPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

namespace rt = ::autoprof::runtime;

/// Lowers affine maps and canonicalizes the host functions of `module` (not
/// its gpu.modules), so that launch sizes and scalars the host computes from
/// constants become constants, as normalization makes them.
static LogicalResult foldHostCode(ModuleOp module) {
  MLIRContext *context = module.getContext();
  RewritePatternSet patterns(context);
  populateAffineToStdConversionPatterns(patterns);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  FrozenRewritePatternSet frozen(std::move(patterns));
  for (auto function : module.getOps<func::FuncOp>())
    if (failed(applyPatternsGreedily(function, frozen)))
      return function.emitError("folding the host code did not converge");
  return success();
}

/// Names the first launch size or scalar operand of `launch` that is not a
/// constant ("scalar argument #2"), or returns "" when all of them are.
static std::string findNonConstantOperand(gpu::LaunchFuncOp launch) {
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  std::pair<Value, const char *> sizes[] = {
      {grid.x, "grid size x"},
      {grid.y, "grid size y"},
      {grid.z, "grid size z"},
      {block.x, "block size x"},
      {block.y, "block size y"},
      {block.z, "block size z"},
      {launch.getDynamicSharedMemorySize(), "dynamic shared memory size"}};
  for (auto [value, name] : sizes)
    if (value && !matchPattern(value, m_Constant()))
      return name;
  // The induction variable of a host loop around the launch makes it a
  // repeated launch.
  std::optional<HostLoopRepeat> repeat = matchHostLoopRepeat(launch);
  for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands()))
    if (!isa<MemRefType>(operand.getType()) &&
        !matchPattern(operand, m_Constant()) &&
        !(repeat && index == repeat->operand))
      return "scalar argument #" + std::to_string(index);
  return "";
}

namespace {
/// A kernel whose verification job is ready but for the code.
struct KernelToVerify {
  gpu::GPUFuncOp kernel;
  /// The kernel it is verified against, in the reference module.
  gpu::GPUFuncOp referenceKernel;
  std::string moduleName;
  /// The kernel of the reference it is verified against: of the same name,
  /// or the one a fallback (autoprof.fallback_of) keeps.
  std::string referenceName;
  rt::JobLaunch candidate;
  rt::JobLaunch reference;
  /// Absent when both kernels take the same parameter list.
  std::optional<std::vector<unsigned>> referenceParams;
  /// Which of the kernel's launches, in host order, and how many it has.
  unsigned launchIndex = 0, numLaunches = 1;
};

struct VerifyKernelsPass
    : public mlir::autoprof::impl::VerifyKernelsPassBase<VerifyKernelsPass> {
  using Base::Base;

  void runOnOperation() override;

  /// The reference module may hold any op a kernel pipeline produces before
  /// normalization, and lowering copies loads the PTX pipeline's dialects.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry
        .insert<affine::AffineDialect, arith::ArithDialect,
                cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                index::IndexDialect, math::MathDialect, memref::MemRefDialect,
                scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
    createLowerToPTXPass()->getDependentDialects(registry);
  }

private:
  /// Parses the reference module into this module's context.
  OwningOpRef<ModuleOp> loadReference(ModuleOp module);
  /// Finds the reference of `kernel` and builds both job launches and the
  /// parameter map. Fails with an error; returns nullopt (with a warning)
  /// when the launches have no single evaluation job.
  FailureOr<std::optional<KernelToVerify>>
  prepare(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch, unsigned launchIndex,
          unsigned numLaunches, ModuleOp referenceModule,
          const KernelLaunchLists &references);
};
} // namespace

OwningOpRef<ModuleOp> VerifyKernelsPass::loadReference(ModuleOp module) {
  if (reference.empty()) {
    emitError(module.getLoc(),
              "autoprof-verify-kernels needs the reference module: "
              "reference=<file>");
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> read =
      ::autoprof::readInputFile(reference);
  if (!read) {
    emitError(module.getLoc(), "cannot read the reference module: ")
        << llvm::toString(read.takeError());
    return nullptr;
  }
  std::unique_ptr<llvm::MemoryBuffer> file = std::move(*read);
  if (std::optional<std::string> why =
          ::autoprof::checkSourceNesting(file->getBuffer())) {
    emitError(module.getLoc(), "cannot parse the reference module '")
        << reference << "': " << *why;
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> parsed =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&getContext()));
  if (!parsed)
    emitError(module.getLoc(), "cannot parse the reference module '")
        << reference << "'";
  return parsed;
}

FailureOr<std::optional<KernelToVerify>>
VerifyKernelsPass::prepare(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch,
                           unsigned launchIndex, unsigned numLaunches,
                           ModuleOp referenceModule,
                           const KernelLaunchLists &references) {
  StringRef name = kernel.getName();
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  StringRef moduleName = gpuModule.getName();
  // A fallback a rewrite keeps is the original code of the kernel it names.
  StringRef referenceName = name;
  if (FlatSymbolRefAttr original =
          AutoProfDialect::FallbackOfAttrHelper(kernel.getContext())
              .getAttr(kernel))
    referenceName = original.getValue();
  gpu::GPUFuncOp referenceKernel;
  if (auto referenceGpuModule =
          referenceModule.lookupSymbol<gpu::GPUModuleOp>(moduleName))
    referenceKernel =
        referenceGpuModule.lookupSymbol<gpu::GPUFuncOp>(referenceName);
  if (!referenceKernel || !referenceKernel.isKernel())
    return kernel.emitError("@")
           << name << " has no counterpart in the reference module: it holds "
           << "no kernel @" << moduleName << "::@" << referenceName;
  auto referenceLaunches = references.find(referenceKernel);
  if (referenceLaunches == references.end())
    return kernel.emitError("@")
           << name << " cannot be verified: the reference module never "
           << "launches @" << moduleName << "::@" << referenceName;
  // Launch i of the kernel is checked against launch i of the reference; a
  // kernel launched as often as its reference has every launch verified.
  if (numLaunches > 1 && referenceLaunches->second.size() != numLaunches)
    return kernel.emitError("@")
           << name << " cannot be verified launch by launch: the module "
           << "launches it " << numLaunches << " times, the reference "
           << referenceLaunches->second.size() << " times";
  gpu::LaunchFuncOp referenceLaunch =
      referenceLaunches->second[numLaunches > 1 ? launchIndex : 0];

  // A launch whose scalars vary at run time has no evaluation job, unless
  // it is the induction variable of a host loop around it (a repeated
  // launch).
  for (auto [which, checked] :
       {std::make_pair("", launch),
        std::make_pair("reference ", referenceLaunch)}) {
    std::string operand = findNonConstantOperand(checked);
    if (operand.empty())
      continue;
    launch.emitWarning("@") << name << " not verified: the " << operand
                            << " of its " << which << "launch is not a constant"
                            << (checked->getParentOfType<scf::ForOp>()
                                    ? " (it varies with a host loop, not as "
                                      "the induction variable of a loop "
                                      "with constant bounds directly around "
                                      "the launch)"
                                    : "")
                            << ", so the kernel has no single evaluation job";
    return std::optional<KernelToVerify>();
  }

  KernelToVerify result;
  result.kernel = kernel;
  result.referenceKernel = referenceKernel;
  result.moduleName = moduleName.str();
  result.referenceName = referenceName.str();
  result.launchIndex = launchIndex;
  result.numLaunches = numLaunches;
  FailureOr<rt::JobLaunch> candidateJob = buildJobLaunch(kernel, launch);
  if (failed(candidateJob))
    return failure();
  FailureOr<rt::JobLaunch> referenceJob =
      buildJobLaunch(referenceKernel, referenceLaunch);
  if (failed(referenceJob))
    return failure();
  result.candidate = std::move(*candidateJob);
  result.reference = std::move(*referenceJob);
  FailureOr<std::vector<unsigned>> map = mapJobParameters(
      launch, result.candidate, referenceLaunch, result.reference, name);
  if (failed(map))
    return failure();
  result.referenceParams =
      asReferenceParams(std::move(*map), result.reference.params.size());
  return std::optional<KernelToVerify>(std::move(result));
}

/// The worker's verdict on `job` as diagnostics at `loc`: a remark when it
/// verified, else an error. Returns whether it verified.
static bool
reportVerdict(const rt::EvaluationJob &job,
              const rt::WorkerOptions &workerOptions, Location loc,
              StringRef name,
              llvm::function_ref<void(InFlightDiagnostic &)> detail) {
  llvm::Expected<rt::EvaluationResult> result =
      rt::runWorker(job, workerOptions);
  if (!result) {
    emitError(loc, "cannot verify @")
        << name << ": " << llvm::toString(result.takeError());
    return false;
  }
  if (result->status != ::autoprof::runtime::JobStatus::Ok) {
    emitError(loc, "@") << name
                        << " failed verification against the reference ("
                        << ::autoprof::runtime::getJobStatusName(result->status)
                        << "): " << result->reason;
    return false;
  }
  if (!result->verified.value_or(false)) {
    emitError(loc, "verifying @")
        << name << ": the worker reported success without a verification";
    return false;
  }
  InFlightDiagnostic remark = emitRemark(loc, "@");
  detail(remark);
  return true;
}

/// Verifies every imported kernel of `module` (ImportedKernel.h) against the
/// binary of the same name in `referenceModule`: the two PTX entries on the
/// spec's parameters (the same list: a search keeps it), each with its own
/// launch. Returns failure when one could not be verified; `count` gets how
/// many were looked at.
static LogicalResult verifyImportedKernels(ModuleOp module,
                                           ModuleOp referenceModule,
                                           const rt::WorkerOptions &options,
                                           int device, uint64_t seed,
                                           unsigned &count) {
  FailureOr<std::vector<ImportedKernel>> kernels = findImportedKernels(module);
  if (failed(kernels))
    return failure();
  count = kernels->size();
  if (kernels->empty())
    return success();
  FailureOr<std::vector<ImportedKernel>> references =
      findImportedKernels(referenceModule);
  if (failed(references))
    return failure();
  llvm::StringMap<unsigned> launchCount, referenceLaunchCount;
  module.walk([&](gpu::LaunchFuncOp launch) {
    ++launchCount[launch.getKernelModuleName().getValue()];
  });
  referenceModule.walk([&](gpu::LaunchFuncOp launch) {
    ++referenceLaunchCount[launch.getKernelModuleName().getValue()];
  });
  bool anyFailed = false;
  for (ImportedKernel &kernel : *kernels) {
    gpu::BinaryOp binary = kernel.binary;
    std::string name = (binary.getSymName() + "::" + kernel.entry).str();
    const ImportedKernel *reference = nullptr;
    for (ImportedKernel &candidate : *references)
      if (candidate.binary.getSymName() == binary.getSymName())
        reference = &candidate;
    if (!reference || reference->entry != kernel.entry) {
      emitError(binary.getLoc(), "@")
          << name << " has no counterpart in the reference module: it "
          << "launches no imported binary @" << binary.getSymName()
          << " with entry '" << kernel.entry << "'";
      anyFailed = true;
      continue;
    }
    unsigned launches = launchCount[binary.getSymName()],
             referenceLaunches = referenceLaunchCount[binary.getSymName()];
    if (launches > 1 || referenceLaunches > 1) {
      kernel.launch.emitWarning("@")
          << name
          << " not verified: " << (launches > 1 ? "it" : "its reference")
          << " is launched " << std::max(launches, referenceLaunches)
          << " times, and an imported kernel is verified on one launch";
      continue;
    }
    if (reference->jobLaunch.params.size() != kernel.jobLaunch.params.size()) {
      emitError(binary.getLoc(), "@")
          << name << " takes " << kernel.jobLaunch.params.size()
          << " parameters, its reference "
          << reference->jobLaunch.params.size();
      anyFailed = true;
      continue;
    }
    rt::EvaluationJob job;
    job.device = device;
    job.kernel = reference->getJobKernel();
    job.candidate = kernel.getJobKernel();
    job.verifySeeds = {seed, seed + 1u};
    // Without special values: nothing says the PTX tolerates them.
    job.verifyDistributions = getBaseVerifyDistributions();
    job.time = false;
    const unsigned *grid = kernel.jobLaunch.grid,
                   *block = kernel.jobLaunch.block;
    const unsigned *referenceBlock = reference->jobLaunch.block;
    bool resized = !std::equal(block, block + 3, referenceBlock);
    if (!reportVerdict(job, options, binary.getLoc(), name,
                       [&](InFlightDiagnostic &remark) {
                         remark << name << " verified against the reference ("
                                << job.verifySeeds.size() << " seeds x "
                                << job.verifyDistributions.size()
                                << " input distributions";
                         if (resized)
                           remark << llvm::formatv(
                               "; grid ({0}, {1}, {2}) of blocks ({3}, {4}, "
                               "{5}) against blocks ({6}, {7}, {8})",
                               grid[0], grid[1], grid[2], block[0], block[1],
                               block[2], referenceBlock[0], referenceBlock[1],
                               referenceBlock[2]);
                         remark << ")";
                       }))
      anyFailed = true;
  }
  return failure(anyFailed);
}

void VerifyKernelsPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkJobOptions(module.getLoc(), "autoprof-verify-kernels", chip,
                             device)))
    return signalPassFailure();
  if (failed(checkWorkerDeadline(module, deadline)))
    return signalPassFailure();
  OwningOpRef<ModuleOp> referenceModule = loadReference(module);
  if (!referenceModule)
    return signalPassFailure();
  // The checks and jobs work on copies whose host code is folded; the
  // kernels are the module's own.
  OwningOpRef<ModuleOp> candidateModule = module.clone();
  if (failed(foldHostCode(*candidateModule)) ||
      failed(foldHostCode(*referenceModule)))
    return signalPassFailure();
  KernelLaunchLists launches = findAllKernelLaunches(*candidateModule);
  KernelLaunchLists references = findAllKernelLaunches(*referenceModule);
  rt::WorkerOptions workerOptions;
  workerOptions.workerPath = workerPath;
  workerOptions.deadlineSeconds = deadline;

  // Kernels imported from kernel specs: binaries, not gpu.funcs.
  unsigned imported = 0;
  bool anyFailed =
      failed(verifyImportedKernels(*candidateModule, *referenceModule,
                                   workerOptions, device, seed, imported));
  if (launches.empty()) {
    if (!imported)
      module.emitWarning("no launched kernel to verify");
    if (anyFailed)
      signalPassFailure();
    return;
  }

  SmallVector<KernelToVerify, 0> toVerify;
  candidateModule->walk([&](gpu::GPUFuncOp kernel) {
    auto found = launches.find(kernel);
    if (!kernel.isKernel() || found == launches.end())
      return;
    unsigned numLaunches = found->second.size();
    for (auto [index, launch] : llvm::enumerate(found->second)) {
      FailureOr<std::optional<KernelToVerify>> prepared = prepare(
          kernel, launch, index, numLaunches, *referenceModule, references);
      if (failed(prepared)) {
        anyFailed = true;
        break;
      }
      if (*prepared)
        toVerify.push_back(std::move(**prepared));
    }
  });
  if (toVerify.empty()) {
    if (anyFailed)
      signalPassFailure();
    return;
  }

  FailureOr<llvm::StringMap<std::string>> ptx =
      lowerModulesToPTX(*candidateModule, chip, features);
  if (failed(ptx))
    return signalPassFailure();
  FailureOr<llvm::StringMap<std::string>> referencePtx =
      lowerModulesToPTX(*referenceModule, chip, features);
  if (failed(referencePtx))
    return signalPassFailure();

  for (KernelToVerify &entry : toVerify) {
    gpu::GPUFuncOp kernel = entry.kernel;
    StringRef name = kernel.getName();
    auto code = ptx->find(entry.moduleName);
    auto referenceCode = referencePtx->find(entry.moduleName);
    if (code == ptx->end() || referenceCode == referencePtx->end()) {
      emitError(kernel.getLoc(), "no PTX for the module of @") << name;
      anyFailed = true;
      continue;
    }
    rt::EvaluationJob job;
    job.device = device;
    job.kernel = {referenceCode->second, rt::CodeFormat::Ptx, entry.referenceName,
                  entry.reference};
    job.candidate = rt::JobKernel{code->second, rt::CodeFormat::Ptx, name.str(),
                                  entry.candidate, entry.referenceParams};
    job.verifySeeds = {seed, seed + 1u};
    job.verifyDistributions = getVerifyDistributions(entry.referenceKernel);
    job.verifyReassociated =
        AutoProfDialect::ReassociatedAttrHelper(kernel.getContext())
            .isAttrPresent(kernel);
    job.time = false;

    size_t sunk = entry.reference.params.size() - entry.candidate.params.size();
    // A folded host loop drops the induction variable's scalar.
    bool folded = entry.reference.repeat && !entry.candidate.repeat;
    if (folded && sunk)
      --sunk;
    if (!reportVerdict(job, workerOptions, kernel.getLoc(), name,
                       [&](InFlightDiagnostic &remark) {
                         remark << entry.moduleName << "::@" << name;
                         if (entry.numLaunches > 1)
                           remark << " (launch " << entry.launchIndex + 1
                                  << " of " << entry.numLaunches << ")";
                         remark << " verified against the "
                                << (entry.referenceName == name
                                        ? "reference"
                                        : "reference's @" + entry.referenceName)
                                << " (" << job.verifySeeds.size() << " seeds x "
                                << job.verifyDistributions.size()
                                << " input distributions";
                         if (folded)
                           remark << "; the reference's "
                                  << entry.reference.repeat->count
                                  << " launches of a host loop in one";
                         if (sunk)
                           remark << "; " << sunk << " reference scalar"
                                  << (sunk == 1 ? "" : "s") << " sunk";
                         remark << ")";
                       }))
      anyFailed = true;
  }
  if (anyFailed)
    signalPassFailure();
}
