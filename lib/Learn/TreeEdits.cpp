//===- TreeEdits.cpp - REWRITE and SPLIT edits of profiling trees ---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/TreeEdits.h"

#include "llvm/Support/FormatVariadic.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::learn;

/// `threshold` with two decimals where that is exact, else in the shortest
/// spelling that reads back as the same number: an edit's name tells one
/// threshold from another.
static std::string formatThreshold(double threshold) {
  std::string fixed = llvm::formatv("{0:F2}", threshold).str();
  if (std::strtod(fixed.c_str(), nullptr) == threshold)
    return fixed;
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), threshold);
  return ec == std::errc() ? std::string(buffer, end) : fixed;
}

std::string TreeEdit::describe() const {
  switch (kind) {
  case TreeEditKind::RewriteLeaf:
    return llvm::formatv("REWRITE leaf {0} to collect {1}", node,
                         configuration);
  case TreeEditKind::RewriteSplit:
    return llvm::formatv("REWRITE split {0} to {1} {2} {3}", node, feature,
                         getComparisonSpelling(comparison),
                         formatThreshold(threshold));
  case TreeEditKind::SplitLeaf:
    return llvm::formatv("SPLIT leaf {0} on {1} {2} {3} into {4} / {5}", node,
                         feature, getComparisonSpelling(comparison),
                         formatThreshold(threshold), thenConfiguration,
                         elseConfiguration);
  }
  return "";
}

Operation *mlir::autoprof::learn::findTreeNode(TreeOp tree, int64_t id) {
  Operation *found = nullptr;
  // Node ids are unsigned: a negative one names no node.
  if (id < 0)
    return found;
  uint64_t wanted = static_cast<uint64_t>(id);
  tree.walk([&](Operation *op) {
    if (auto split = dyn_cast<SplitOp>(op); split && split.getId() == wanted)
      found = op;
    if (auto leaf = dyn_cast<CollectOp>(op); leaf && leaf.getId() == wanted)
      found = op;
  });
  return found;
}

/// The largest node id of `tree`.
static int64_t getMaxId(TreeOp tree) {
  int64_t max = 0;
  tree.walk([&](Operation *op) {
    if (auto split = dyn_cast<SplitOp>(op))
      max = std::max<int64_t>(max, split.getId());
    if (auto leaf = dyn_cast<CollectOp>(op))
      max = std::max<int64_t>(max, leaf.getId());
  });
  return max;
}

static ArrayAttr toArray(Builder &b, const std::vector<std::string> &names) {
  SmallVector<StringRef> refs(names.begin(), names.end());
  return b.getStrArrayAttr(refs);
}

static std::vector<std::string> toStrings(ArrayAttr names) {
  std::vector<std::string> strings;
  for (Attribute name : names)
    strings.push_back(cast<StringAttr>(name).getValue().str());
  return strings;
}

const ProfileConfiguration *
mlir::autoprof::learn::getLeafConfiguration(CollectOp leaf,
                                            const OutcomeTable &table) {
  return table.find(toStrings(leaf.getGroups()), toStrings(leaf.getMetrics()));
}

/// Sets what collecting `configuration` costs on `leaf` (passes rounded to
/// the nearest whole pass), inside a modification of the leaf.
static void setLeafCosts(RewriterBase &rewriter, CollectOp leaf,
                         const ProfileConfiguration &configuration) {
  leaf.setCostPassesAttr(
      rewriter.getI64IntegerAttr(std::llround(configuration.costPasses)));
  leaf.setCostSecondsAttr(rewriter.getF64FloatAttr(configuration.costSeconds));
}

/// Creates a leaf collecting `configuration` at the builder's point.
static CollectOp createLeaf(RewriterBase &rewriter, Location loc, int64_t id,
                            const ProfileConfiguration &configuration,
                            StringRef provenance) {
  return CollectOp::create(
      rewriter, loc, rewriter.getI64IntegerAttr(id),
      toArray(rewriter, configuration.groups),
      toArray(rewriter, configuration.metrics), StringAttr(),
      rewriter.getI64IntegerAttr(std::llround(configuration.costPasses)),
      rewriter.getF64FloatAttr(configuration.costSeconds),
      rewriter.getStringAttr(provenance));
}

LogicalResult mlir::autoprof::learn::applyTreeEdit(RewriterBase &rewriter,
                                                   TreeOp tree,
                                                   const TreeEdit &edit,
                                                   const OutcomeTable &table,
                                                   std::string &error) {
  Operation *node = findTreeNode(tree, edit.node);
  if (!node) {
    error = llvm::formatv("tree @{0} has no node {1}", tree.getSymName(),
                          edit.node);
    return failure();
  }
  auto configuration = [&](StringRef name) -> const ProfileConfiguration * {
    const ProfileConfiguration *found = table.lookup(name);
    if (!found)
      error = ("the outcome table has no configuration '" + name + "'").str();
    return found;
  };
  switch (edit.kind) {
  case TreeEditKind::RewriteLeaf: {
    auto leaf = dyn_cast<CollectOp>(node);
    if (!leaf) {
      error = llvm::formatv("node {0} is not a leaf", edit.node);
      return failure();
    }
    const ProfileConfiguration *target = configuration(edit.configuration);
    if (!target)
      return failure();
    rewriter.modifyOpInPlace(leaf, [&] {
      leaf.setGroupsAttr(toArray(rewriter, target->groups));
      leaf.setMetricsAttr(toArray(rewriter, target->metrics));
      leaf.removeSummaryAttr();
      setLeafCosts(rewriter, leaf, *target);
      leaf.setProvenanceAttr(rewriter.getStringAttr(edit.describe()));
    });
    return success();
  }
  case TreeEditKind::RewriteSplit: {
    auto split = dyn_cast<SplitOp>(node);
    if (!split) {
      error = llvm::formatv("node {0} is not a split", edit.node);
      return failure();
    }
    rewriter.modifyOpInPlace(split, [&] {
      split.setFeatureAttr(rewriter.getStringAttr(edit.feature));
      split.setComparisonAttr(
          ComparisonAttr::get(rewriter.getContext(), edit.comparison));
      split.setThresholdAttr(rewriter.getF64FloatAttr(edit.threshold));
      split.setProvenanceAttr(rewriter.getStringAttr(edit.describe()));
    });
    return success();
  }
  case TreeEditKind::SplitLeaf: {
    auto leaf = dyn_cast<CollectOp>(node);
    if (!leaf) {
      error = llvm::formatv("node {0} is not a leaf", edit.node);
      return failure();
    }
    const ProfileConfiguration *thenTarget =
        configuration(edit.thenConfiguration);
    const ProfileConfiguration *elseTarget =
        thenTarget ? configuration(edit.elseConfiguration) : nullptr;
    if (!thenTarget || !elseTarget)
      return failure();
    int64_t next = getMaxId(tree) + 1;
    Location loc = leaf.getLoc();
    rewriter.setInsertionPoint(leaf);
    auto split = SplitOp::create(
        rewriter, loc, rewriter.getI64IntegerAttr(next),
        rewriter.getStringAttr(edit.feature),
        ComparisonAttr::get(rewriter.getContext(), edit.comparison),
        rewriter.getF64FloatAttr(edit.threshold),
        BranchAttr::get(rewriter.getContext(), Branch::else_branch),
        rewriter.getStringAttr(edit.describe()));
    std::string provenance = edit.describe();
    rewriter.setInsertionPointToStart(&split.getThenRegion().emplaceBlock());
    createLeaf(rewriter, loc, next + 1, *thenTarget, provenance);
    rewriter.setInsertionPointToStart(&split.getElseRegion().emplaceBlock());
    createLeaf(rewriter, loc, next + 2, *elseTarget, provenance);
    rewriter.eraseOp(leaf);
    return success();
  }
  }
  return failure();
}

void mlir::autoprof::learn::adoptProposedTree(RewriterBase &rewriter,
                                              TreeOp proposed, TreeOp current,
                                              const OutcomeTable &table,
                                              StringRef provenance) {
  rewriter.modifyOpInPlace(proposed, [&] {
    proposed.setSymNameAttr(current.getSymNameAttr());
    proposed.setChipAttr(current.getChipAttr());
    if (current.getNoteAttr())
      proposed.setNoteAttr(current.getNoteAttr());
    else
      proposed.removeNoteAttr();
  });
  int64_t next = std::max(getMaxId(proposed), getMaxId(current)) + 1;
  auto freshId = [&](Operation *node, int64_t id) {
    Operation *same = findTreeNode(current, id);
    return !same || same->getName() == node->getName() ? id : next++;
  };
  StringAttr origin = rewriter.getStringAttr(provenance);
  proposed.walk<WalkOrder::PreOrder>([&](Operation *node) {
    if (auto split = dyn_cast<SplitOp>(node)) {
      rewriter.modifyOpInPlace(split, [&] {
        split.setIdAttr(
            rewriter.getI64IntegerAttr(freshId(split, split.getId())));
        if (!split.getProvenanceAttr())
          split.setProvenanceAttr(origin);
      });
    } else if (auto leaf = dyn_cast<CollectOp>(node)) {
      const ProfileConfiguration *configuration =
          getLeafConfiguration(leaf, table);
      rewriter.modifyOpInPlace(leaf, [&] {
        leaf.setIdAttr(rewriter.getI64IntegerAttr(freshId(leaf, leaf.getId())));
        if (configuration)
          setLeafCosts(rewriter, leaf, *configuration);
        if (!leaf.getProvenanceAttr())
          leaf.setProvenanceAttr(origin);
      });
    }
  });
}
