//===- SelectProfile.cpp - Choose metrics per kernel with a tree ---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Dialect/AutoProf/IR/TreeEvaluation.h"
#include "autoprof/Profiling/MetricCatalog.h"
#include "autoprof/Transforms/Passes.h"

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

/// The text of lib/Transforms/StartingTree.mlir, embedded at build time.
static const char kStartingTree[] =
#include "StartingTree.inc"
    ;

namespace {
struct SelectProfilePass
    : public mlir::autoprof::impl::SelectProfilePassBase<SelectProfilePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Parses and verifies the tree source into `treeModule` and picks the
  /// tree to use; diagnostics carry the locations in the tree source.
  LogicalResult loadTree(Location loc, OwningOpRef<ModuleOp> &treeModule,
                         TreeOp &tree);
};
} // namespace

LogicalResult SelectProfilePass::loadTree(Location loc,
                                          OwningOpRef<ModuleOp> &treeModule,
                                          TreeOp &tree) {
  MLIRContext *context = &getContext();
  ParserConfig config(context);
  if (treeFile.empty()) {
    treeModule = parseSourceString<ModuleOp>(kStartingTree, config,
                                             "autoprof-starting-tree");
  } else {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(treeFile);
    if (std::error_code ec = buffer.getError())
      return emitError(loc, "cannot read tree file '")
             << treeFile << "': " << ec.message();
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), SMLoc());
    treeModule = parseSourceFile<ModuleOp>(sourceMgr, config);
  }
  if (!treeModule)
    return emitError(loc, "the profiling tree in '")
           << (treeFile.empty() ? StringRef("<shipped tree>")
                                : StringRef(treeFile))
           << "' does not parse or verify (see the errors above)";

  SmallVector<TreeOp> trees(treeModule->getOps<TreeOp>());
  if (!treeName.empty()) {
    auto it = llvm::find_if(
        trees, [&](TreeOp t) { return t.getSymName() == treeName; });
    if (it == trees.end())
      return emitError(loc, "no profiling tree named @")
             << treeName << " in '" << treeFile << "'";
    tree = *it;
    return success();
  }
  if (trees.size() != 1) {
    InFlightDiagnostic diag = emitError(loc, "'")
                              << treeFile << "' holds " << trees.size()
                              << " profiling trees; pick one with 'tree='";
    for (TreeOp t : trees)
      diag.attachNote(t.getLoc()) << "tree @" << t.getSymName();
    return diag;
  }
  tree = trees.front();
  return success();
}

void SelectProfilePass::runOnOperation() {
  ModuleOp module = getOperation();
  OwningOpRef<ModuleOp> treeModule;
  TreeOp tree;
  if (failed(loadTree(module.getLoc(), treeModule, tree)))
    return signalPassFailure();

  const MetricCatalog *catalog = MetricCatalog::forChip(tree.getChip());
  Builder builder(&getContext());
  llvm::DenseMap<Operation *, gpu::LaunchFuncOp> launches =
      findKernelLaunches(module);
  bool anyFailed = false;

  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel())
      return;
    auto features = kernel->getAttrOfType<DictionaryAttr>(kFeaturesAttrName);
    if (!features) {
      FailureOr<KernelFeatures> computed =
          KernelFeatures::compute(kernel, launches.lookup(kernel));
      if (failed(computed)) {
        anyFailed = true;
        return;
      }
      features = computed->toAttr(&getContext());
    }
    TreeEvaluation evaluation = evaluateTree(tree, features);
    CollectOp leaf = evaluation.leaf;

    SmallVector<Attribute> path, decisions;
    for (const TreeDecision &decision : evaluation.decisions) {
      SplitOp split = decision.split;
      path.push_back(builder.getI64IntegerAttr(split.getId()));
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
    kernel->setAttr("autoprof.profile", builder.getDictionaryAttr(entries));

    if (emitRemarks) {
      InFlightDiagnostic remark = mlir::emitRemark(kernel.getLoc(), "leaf ")
                                  << leaf.getId() << " of tree @"
                                  << tree.getSymName() << ": ";
      llvm::interleaveComma(groups, remark);
      if (!groups.empty() && !metrics.empty())
        remark << ", ";
      llvm::interleaveComma(metrics, remark);
      remark << " (" << collect.size() << " metrics)";
      for (const TreeDecision &decision : evaluation.decisions)
        remark << "; " << describeDecision(decision);
    }
  });
  if (anyFailed)
    signalPassFailure();
}
