//===- SelectProfile.cpp - Choose metrics per kernel with a tree ---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Dialect/AutoProf/IR/TreeEvaluation.h"
#include "autoprof/Profiling/MetricCatalog.h"
#include "autoprof/Support/InputFile.h"
#include "autoprof/Support/Nesting.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_SELECTPROFILEPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

/// The texts of lib/Transforms/StartingTree.mlir and LearnedTree.mlir,
/// embedded at build time.
static const char kStartingTree[] =
#include "StartingTree.inc"
    ;
static const char kLearnedTree[] =
#include "LearnedTree.inc"
    ;

namespace {
struct SelectProfilePass
    : public mlir::autoprof::impl::SelectProfilePassBase<SelectProfilePass> {
  using Base::Base;

  void runOnOperation() override;
};
} // namespace

FailureOr<LoadedTree>
mlir::autoprof::loadProfilingTree(MLIRContext *context, StringRef treeFile,
                                  StringRef treeName, Location loc,
                                  ShippedTree shipped) {
  LoadedTree loaded;
  OwningOpRef<ModuleOp> &treeModule = loaded.module;
  ParserConfig config(context);
  if (treeFile.empty()) {
    bool learned = shipped == ShippedTree::LearnedForSearch;
    treeModule = parseSourceString<ModuleOp>(
        learned ? kLearnedTree : kStartingTree, config,
        learned ? "autoprof-learned-tree" : "autoprof-starting-tree");
  } else {
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        ::autoprof::readInputFile(treeFile);
    if (!buffer) {
      emitError(loc, "cannot read the tree file: ")
          << llvm::toString(buffer.takeError());
      return failure();
    }
    if (std::optional<std::string> why =
            ::autoprof::checkSourceNesting((*buffer)->getBuffer())) {
      emitError(loc, "the profiling tree in '") << treeFile << "': " << *why;
      return failure();
    }
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), SMLoc());
    treeModule = parseSourceFile<ModuleOp>(sourceMgr, config);
  }
  if (!treeModule) {
    emitError(loc, "the profiling tree in '")
        << (treeFile.empty() ? StringRef("<shipped tree>")
                             : StringRef(treeFile))
        << "' does not parse or verify (see the errors above)";
    return failure();
  }

  SmallVector<TreeOp> trees(treeModule->getOps<TreeOp>());
  if (!treeName.empty()) {
    auto it = llvm::find_if(
        trees, [&](TreeOp t) { return t.getSymName() == treeName; });
    if (it == trees.end()) {
      emitError(loc, "no profiling tree named @")
          << treeName << " in '"
          << (treeFile.empty() ? StringRef("<shipped tree>")
                               : StringRef(treeFile))
          << "'";
      return failure();
    }
    loaded.tree = *it;
    return loaded;
  }
  if (trees.size() != 1) {
    InFlightDiagnostic diag = emitError(loc, "'")
                              << treeFile << "' holds " << trees.size()
                              << " profiling trees; pick one with 'tree='";
    for (TreeOp t : trees)
      diag.attachNote(t.getLoc()) << "tree @" << t.getSymName();
    return failure();
  }
  loaded.tree = trees.front();
  return loaded;
}

DictionaryAttr mlir::autoprof::buildProfileAttr(TreeOp tree,
                                                DictionaryAttr features,
                                                TreeEvaluation *evaluationOut) {
  const MetricCatalog *catalog = MetricCatalog::forChip(tree.getChip());
  Builder builder(tree.getContext());
  TreeEvaluation evaluation = evaluateTree(tree, features);
  CollectOp leaf = evaluation.leaf;

  SmallVector<Attribute> path, decisions;
  for (const TreeDecision &decision : evaluation.decisions) {
    path.push_back(builder.getI64IntegerAttr(SplitOp(decision.split).getId()));
    decisions.push_back(builder.getStringAttr(describeDecision(decision)));
  }
  path.push_back(builder.getI64IntegerAttr(leaf.getId()));

  SmallVector<StringRef> groups, metrics;
  for (Attribute attr : leaf.getGroups())
    groups.push_back(cast<StringAttr>(attr).getValue());
  for (Attribute attr : leaf.getMetrics())
    metrics.push_back(cast<StringAttr>(attr).getValue());
  SmallVector<Attribute> collect;
  for (StringRef name : catalog->expand(groups, metrics))
    collect.push_back(builder.getStringAttr(name));

  SmallVector<NamedAttribute> entries = {
      builder.getNamedAttr("tree", builder.getStringAttr(tree.getSymName())),
      builder.getNamedAttr("leaf", builder.getI64IntegerAttr(leaf.getId())),
      builder.getNamedAttr("path", builder.getArrayAttr(path)),
      builder.getNamedAttr("decisions", builder.getArrayAttr(decisions)),
      builder.getNamedAttr("groups", leaf.getGroups()),
      builder.getNamedAttr("metrics", builder.getArrayAttr(collect)),
  };
  if (std::optional<StringRef> summary = leaf.getSummary())
    entries.push_back(
        builder.getNamedAttr("summary", builder.getStringAttr(*summary)));
  if (evaluationOut)
    *evaluationOut = std::move(evaluation);
  return builder.getDictionaryAttr(entries);
}

/// The features of `kernel`: its attribute, or computed (with diagnostics).
static FailureOr<DictionaryAttr> getFeatures(gpu::GPUFuncOp kernel,
                                             gpu::LaunchFuncOp launch) {
  if (auto features = kernel->getAttrOfType<DictionaryAttr>(kFeaturesAttrName))
    return features;
  FailureOr<NormalizedCopy> copy =
      normalizeCopy(kernel->getParentOfType<ModuleOp>());
  if (failed(copy))
    return failure();
  FailureOr<KernelFeatures> computed =
      computeNormalizedFeatures(*copy, kernel, launch);
  if (failed(computed))
    return failure();
  return computed->toAttr(kernel.getContext());
}

FailureOr<DictionaryAttr>
mlir::autoprof::getOrSelectProfile(gpu::GPUFuncOp kernel,
                                   gpu::LaunchFuncOp launch, TreeOp tree) {
  if (auto profile = kernel->getAttrOfType<DictionaryAttr>(kProfileAttrName)) {
    // A profile written by hand or by another tool must still name metrics.
    auto metrics = dyn_cast_or_null<ArrayAttr>(profile.get("metrics"));
    if (!metrics || !llvm::all_of(metrics, llvm::IsaPred<StringAttr>)) {
      kernel.emitError("the kernel's ")
          << kProfileAttrName
          << " has no 'metrics' array of strings; remove it or run "
             "--autoprof-select-profile";
      return failure();
    }
    return profile;
  }
  FailureOr<DictionaryAttr> features = getFeatures(kernel, launch);
  if (failed(features))
    return failure();
  return buildProfileAttr(tree, *features);
}

FailureOr<DictionaryAttr>
mlir::autoprof::getOrSelectProfile(gpu::BinaryOp binary,
                                   DictionaryAttr features, TreeOp tree) {
  if (DictionaryAttr own =
          AutoProfDialect::ProfileAttrHelper(binary.getContext())
              .getAttr(binary)) {
    auto listed = dyn_cast_or_null<ArrayAttr>(own.get("metrics"));
    if (!listed || !llvm::all_of(listed, llvm::IsaPred<StringAttr>))
      return emitError(binary.getLoc(), "the imported kernel's ")
             << kProfileAttrName
             << " has no 'metrics' array of strings; remove it";
    return own;
  }
  return buildProfileAttr(tree, features);
}

void SelectProfilePass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<LoadedTree> loaded =
      loadProfilingTree(&getContext(), treeFile, treeName, module.getLoc());
  if (failed(loaded))
    return signalPassFailure();
  TreeOp tree = loaded->tree;

  llvm::DenseMap<Operation *, gpu::LaunchFuncOp> launches =
      findKernelLaunches(module);
  bool anyFailed = false;
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel())
      return;
    FailureOr<DictionaryAttr> features =
        getFeatures(kernel, launches.lookup(kernel));
    if (failed(features)) {
      anyFailed = true;
      return;
    }
    TreeEvaluation evaluation;
    DictionaryAttr profile = buildProfileAttr(tree, *features, &evaluation);
    kernel->setAttr(kProfileAttrName, profile);

    if (emitRemarks) {
      CollectOp leaf = evaluation.leaf;
      InFlightDiagnostic remark = mlir::emitRemark(kernel.getLoc(), "leaf ")
                                  << leaf.getId() << " of tree @"
                                  << tree.getSymName() << ": ";
      SmallVector<StringRef> names;
      for (Attribute attr : leaf.getGroups())
        names.push_back(cast<StringAttr>(attr).getValue());
      for (Attribute attr : leaf.getMetrics())
        names.push_back(cast<StringAttr>(attr).getValue());
      llvm::interleaveComma(names, remark);
      remark << " (" << cast<ArrayAttr>(profile.get("metrics")).size()
             << " metrics)";
      for (const TreeDecision &decision : evaluation.decisions)
        remark << "; " << describeDecision(decision);
    }
  });
  if (anyFailed)
    signalPassFailure();
}

llvm::StringMap<double> mlir::autoprof::getMeasuredMetrics(Operation *kernel) {
  llvm::StringMap<double> metrics;
  DictionaryAttr measurement =
      AutoProfDialect::MeasurementAttrHelper(kernel->getContext())
          .getAttr(kernel);
  auto collected = measurement ? measurement.getAs<DictionaryAttr>("metrics")
                               : DictionaryAttr();
  if (!collected)
    return metrics;
  for (NamedAttribute entry : collected)
    if (std::optional<double> value = getNumericValue(entry.getValue()))
      metrics[entry.getName().getValue()] = *value;
  return metrics;
}
