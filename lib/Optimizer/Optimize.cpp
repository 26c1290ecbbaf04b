//===- Optimize.cpp - Keep the fastest verified variant of each kernel ----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The pass around the search driver (SearchDriver.h): it normalizes a copy
// of the module, searches every launched kernel with the chosen proposer,
// writes the report, and replaces the module by the copy when every
// kernel's search succeeded (or, with keep-going, always). A failed kernel
// costs that kernel only: the others are still searched.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/ImportedSearch.h"
#include "autoprof/Optimizer/Passes.h"
#include "autoprof/Optimizer/SearchDriver.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_OPTIMIZEPASS
#include "autoprof/Optimizer/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

/// Puts `winner` in place of `kernel`'s code and launch sizes; where a
/// model wrote it in CUDA C++ (`cudaSource`), that source replaces the
/// spec's code in `autoprof.imported` (its `source` still names the spec's
/// file the kernel came from), and the compiler options it was compiled
/// with replace the spec's `compile_options`.
static void applyImportedWinner(const ImportedKernel &kernel,
                                const PtxVariant &winner,
                                StringRef cudaSource) {
  gpu::BinaryOp binary = kernel.binary;
  MLIRContext *context = binary.getContext();
  if (!cudaSource.empty() || winner.compileOptions != kernel.compileOptions) {
    AutoProfDialect::ImportedAttrHelper helper(context);
    NamedAttrList imported(helper.getAttr(binary));
    if (!cudaSource.empty()) {
      imported.set("format", StringAttr::get(context, "cuda"));
      imported.set("code", StringAttr::get(context, cudaSource));
    }
    if (winner.compileOptions.empty())
      imported.erase("compile_options");
    else
      imported.set("compile_options",
                   Builder(context).getStrArrayAttr(
                       llvm::to_vector_of<StringRef>(winner.compileOptions)));
    helper.setAttr(binary, imported.getDictionary(context));
  }
  SmallVector<Attribute> objects;
  for (Attribute attr : binary.getObjects()) {
    auto object = dyn_cast<gpu::ObjectAttr>(attr);
    // A variant without PTX of its own (a cubin's, whose launch alone
    // changed) keeps the object.
    if (object && !winner.ptx.empty() &&
        (object.getFormat() == gpu::CompilationTarget::Assembly ||
         object.getFormat() == gpu::CompilationTarget::Binary))
      attr = gpu::ObjectAttr::get(context, object.getTarget(),
                                  gpu::CompilationTarget::Assembly,
                                  StringAttr::get(context, winner.ptx),
                                  object.getProperties(), object.getKernels());
    objects.push_back(attr);
  }
  binary.setObjectsAttr(ArrayAttr::get(context, objects));
  gpu::LaunchFuncOp launch = kernel.launch;
  OpBuilder builder(launch);
  auto size = [&](unsigned value) -> Value {
    return arith::ConstantIndexOp::create(builder, launch.getLoc(), value);
  };
  const unsigned *grid = winner.launch.grid, *block = winner.launch.block;
  const unsigned *oldGrid = kernel.jobLaunch.grid,
                 *oldBlock = kernel.jobLaunch.block;
  MutableOperandRange operands[] = {
      launch.getGridSizeXMutable(),  launch.getGridSizeYMutable(),
      launch.getGridSizeZMutable(),  launch.getBlockSizeXMutable(),
      launch.getBlockSizeYMutable(), launch.getBlockSizeZMutable()};
  for (int d = 0; d < 6; ++d) {
    unsigned value = d < 3 ? grid[d] : block[d - 3];
    if (value == (d < 3 ? oldGrid[d] : oldBlock[d - 3]))
      continue;
    Operation *old = operands[d][0].get().getDefiningOp();
    operands[d].assign(size(value));
    if (old && old->use_empty() && isMemoryEffectFree(old))
      old->erase();
  }
}

/// Runs one kernel's `search` with the errors it emits collected into
/// `reason`, its failure's reason; with `keepGoing` they are reported as
/// warnings instead.
template <typename Search>
static auto searchCapturingErrors(MLIRContext *context, bool keepGoing,
                                  std::string &reason, Search search) {
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    reason += (reason.empty() ? "" : "; ") + diag.str();
    if (!keepGoing)
      return failure();
    emitWarning(diag.getLocation()) << diag.str();
    return success();
  });
  return search();
}

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
  if (failed(checkJobOptions(module.getLoc(), "autoprof-optimize", chip, device,
                             timeBudget)))
    return signalPassFailure();
  if (failed(checkWorkerDeadline(module, deadline)))
    return signalPassFailure();
  SearchOptions options;
  options.worker.workerPath = workerPath;
  options.worker.deadlineSeconds = deadline;
  options.device = device;
  options.budget = budget;
  options.noProfile = noProfile;
  options.precision = precision;
  options.timeBudgetSeconds = timeBudget;
  options.seed = seed;
  options.chip = chip;
  options.features = features;
  // The sanitizer runs of would-be winners, where compute-sanitizer is.
  std::string sanitizerNote;
  if (sanitize != SanitizeMode::None) {
    if (sanitize != SanitizeMode::Racecheck)
      options.sanitizers.push_back(rt::SanitizerTool::Memcheck);
    if (sanitize != SanitizeMode::Memcheck)
      options.sanitizers.push_back(rt::SanitizerTool::Racecheck);
    std::string tools;
    for (rt::SanitizerTool tool : options.sanitizers)
      tools += (tools.empty() ? "" : ", ") +
               rt::getSanitizerToolName(tool).str();
    llvm::Expected<std::string> found = rt::findComputeSanitizer(sanitizerPath);
    if (found) {
      options.sanitizerPath = *found;
      sanitizerNote = tools + " (" + *found + ")";
    } else if (!sanitizerPath.empty()) {
      emitError(module.getLoc()) << llvm::toString(found.takeError());
      return signalPassFailure();
    } else {
      std::string why = llvm::toString(found.takeError());
      emitWarning(module.getLoc())
          << "sanitize: " << why << "; would-be winners are accepted on the "
          << "other checks alone, without " << tools;
      sanitizerNote = "not run (" + tools + " asked for): " + why;
      options.sanitizers.clear();
    }
  }

  std::unique_ptr<CandidateProposer> candidates;
  std::unique_ptr<ImportedProposer> importedCandidates;
  if (proposer == ProposerKind::Model) {
    ::autoprof::llm::ChatOptions chat;
    chat.style = apiStyle;
    chat.baseUrl = endpoint;
    chat.model = model;
    chat.cacheDirectory = cacheDir;
    chat.replayOnly = replayOnly;
    chat.maxRetries = llmRetries;
    auto client = std::make_shared<::autoprof::llm::ChatClient>(
        ::autoprof::llm::ChatOptions::fromEnvironment(chat));
    candidates = createModelProposer(client, options.worker, chip, features);
    importedCandidates =
        createImportedModelProposer(client, options.worker, chip);
  } else {
    candidates = createBuiltinProposer(search);
  }
  // Without a tree file, the built-in proposer's search collects what the
  // tree learned for it asks for; a chat model gets the starting tree's
  // metrics: no outcome table has been measured with a chat model to learn
  // one from.
  FailureOr<LoadedTree> tree = loadProfilingTree(
      &getContext(), treeFile, treeName, module.getLoc(),
      proposer == ProposerKind::Builtin ? ShippedTree::LearnedForSearch
                                        : ShippedTree::Starting);
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
  SmallVector<KernelSearchResult, 0> results;
  SmallVector<FailedKernel> failures;
  MLIRContext *context = &getContext();
  for (const auto &kernel : kernels) {
    const std::string &moduleName = kernel.first, &kernelName = kernel.second;
    // The errors of one kernel's search are its failure's reason; with
    // keep-going they are reported as warnings.
    std::string reason;
    FailureOr<std::optional<KernelSearchResult>> result =
        searchCapturingErrors(context, keepGoing, reason, [&] {
          return driver.searchKernel(incumbent, moduleName, kernelName,
                                     tree->tree);
        });
    std::string name = moduleName + "::" + kernelName;
    if (failed(result)) {
      failures.push_back({name, reason.empty() ? "the search failed" : reason});
      continue;
    }
    if (!*result)
      continue;
    if (!(*result)->failure.empty()) {
      if (!reason.empty())
        (*result)->failure += ": " + reason;
      failures.push_back({name, (*result)->failure});
    }
    results.push_back(std::move(**result));
  }

  // Kernels imported from kernel specs: the PTX-level families on the
  // binary and its launch, or the model's CUDA C++.
  FailureOr<std::vector<ImportedKernel>> imported =
      findImportedKernels(*incumbent);
  if (failed(imported))
    return signalPassFailure();
  llvm::StringMap<unsigned> launchCount;
  incumbent->walk([&](gpu::LaunchFuncOp launch) {
    ++launchCount[launch.getKernelModuleName().getValue()];
  });
  unsigned searched = kernels.size();
  for (ImportedKernel &kernel : *imported) {
    std::string name = (kernel.binary.getSymName() + "::" + kernel.entry).str();
    if (launchCount[kernel.binary.getSymName()] > 1) {
      emitRemark(kernel.binary.getLoc(), "@")
          << name << " is launched several times, and a variant is verified "
          << "on one launch; left as it is";
      continue;
    }
    if (importedCandidates && kernel.isCubin()) {
      emitRemark(kernel.binary.getLoc(), "@")
          << name << " is a cubin: the " << importedCandidates->getName()
          << " proposer is shown a kernel's CUDA C++ or PTX, and a cubin "
          << "has neither; left as it is";
      continue;
    }
    ++searched;
    std::string reason;
    // Each kernel's families are ranked from its own baseline.
    std::unique_ptr<ImportedProposer> families;
    if (!importedCandidates)
      families = createPtxFamilyProposer(options.worker, chip);
    FailureOr<ImportedSearchResult> result =
        searchCapturingErrors(context, keepGoing, reason, [&] {
          return searchImportedKernel(
              kernel, options, tree->tree,
              importedCandidates ? *importedCandidates : *families);
        });
    if (failed(result)) {
      failures.push_back({name, reason.empty() ? "the search failed" : reason});
      continue;
    }
    if (!result->report.failure.empty()) {
      if (!reason.empty())
        result->report.failure += ": " + reason;
      failures.push_back({name, result->report.failure});
    }
    if (!result->report.accepted.empty())
      applyImportedWinner(kernel, result->winner, result->winnerCudaSource);
    results.push_back(std::move(result->report));
  }

  for (KernelSearchResult &result : results)
    result.sanitizer = sanitizerNote;
  if (!reportPath.empty() &&
      failed(writeSearchReport(reportPath, results, failures, module.getLoc())))
    return signalPassFailure();
  if (!failures.empty()) {
    std::string names;
    for (const FailedKernel &failure : failures)
      names += (names.empty() ? "@" : ", @") + failure.kernel;
    if (!keepGoing) {
      emitError(module.getLoc())
          << failures.size() << " of " << searched << " kernels failed ("
          << names
          << "); the module is left as it was (keep-going=true keeps the "
             "other kernels' winners)";
      return signalPassFailure();
    }
    emitWarning(module.getLoc())
        << failures.size() << " of " << searched << " kernels failed (" << names
        << "); they keep the winners found before their failure";
  }
  module.getBodyRegion().takeBody(incumbent->getBodyRegion());
}
