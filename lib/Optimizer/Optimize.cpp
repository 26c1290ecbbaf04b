//===- Optimize.cpp - Keep the fastest verified variant of each kernel ----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The pass around the search driver (SearchDriver.h): it normalizes a copy
// of the module, searches every launched kernel with the chosen proposer,
// writes the report, and replaces the module by the copy only when every
// kernel could be measured.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/Passes.h"
#include "autoprof/Optimizer/SearchDriver.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"
#include "autoprof/Transforms/ProfileSelection.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_OPTIMIZEPASS
#include "autoprof/Optimizer/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

namespace {
struct OptimizePass
    : public mlir::autoprof::impl::OptimizePassBase<OptimizePass> {
  using Base::Base;

  void runOnOperation() override;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    createLowerToPTXPass()->getDependentDialects(registry);
  }
};
} // namespace

void OptimizePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkWorkerDeadline(module, deadline)))
    return signalPassFailure();
  SearchOptions options;
  options.worker.workerPath = workerPath;
  options.worker.deadlineSeconds = deadline;
  options.device = device;
  options.budget = budget;
  options.timeBudgetSeconds = timeBudget;
  options.seed = seed;
  options.chip = chip;
  options.features = features;

  std::unique_ptr<CandidateProposer> candidates;
  if (proposer == ProposerKind::Model) {
    ::autoprof::llm::ChatOptions chat;
    chat.style = apiStyle;
    chat.baseUrl = endpoint;
    chat.model = model;
    chat.cacheDirectory = cacheDir;
    chat.replayOnly = replayOnly;
    chat.maxRetries = llmRetries;
    candidates = createModelProposer(
        std::make_shared<::autoprof::llm::ChatClient>(
            ::autoprof::llm::ChatOptions::fromEnvironment(chat)),
        options.worker, chip, features);
  } else {
    candidates = createBuiltinProposer(search);
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

  SearchDriver driver(options, *candidates);
  SmallVector<KernelSearchResult> results;
  bool anyFailed = false;
  for (auto &[moduleName, kernelName] : kernels) {
    FailureOr<std::optional<KernelSearchResult>> result =
        driver.searchKernel(incumbent, moduleName, kernelName, tree->tree);
    if (failed(result))
      anyFailed = true;
    else if (*result)
      results.push_back(std::move(**result));
  }

  if (!reportPath.empty() &&
      failed(writeSearchReport(reportPath, results, module.getLoc())))
    return signalPassFailure();
  if (anyFailed)
    return signalPassFailure();
  module.getBodyRegion().takeBody(incumbent->getBodyRegion());
}
