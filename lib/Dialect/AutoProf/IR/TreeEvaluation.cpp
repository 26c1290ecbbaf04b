//===- TreeEvaluation.cpp - Deterministic profiling-tree evaluation -------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Dialect/AutoProf/IR/TreeEvaluation.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::autoprof;

std::string mlir::autoprof::describeDecision(const TreeDecision &decision) {
  SplitOp split = decision.split;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << split.getFeature();
  if (decision.value) {
    os << " = " << llvm::format("%g", *decision.value) << ": "
       << (split.holds(*decision.value) ? "" : "not ")
       << getComparisonSpelling(split.getComparison()) << " "
       << llvm::format("%g", split.getThreshold().convertToDouble()) << " -> "
       << stringifyBranch(decision.branch);
  } else {
    os << " missing -> " << stringifyBranch(decision.branch)
       << " (declared default)";
  }
  return text;
}

TreeEvaluation mlir::autoprof::evaluateTree(TreeOp tree, FeatureLookup lookup) {
  TreeEvaluation result;
  Operation *node = tree.getRoot();
  assert(node && "evaluating a tree that does not verify");
  while (auto split = dyn_cast<SplitOp>(node)) {
    std::optional<double> value = lookup(split.getFeature());
    Branch branch = split.getMissing();
    if (value)
      branch = split.holds(*value) ? Branch::then_branch : Branch::else_branch;
    result.decisions.push_back({split, value, branch});
    node = split.getChild(branch);
    assert(node && "evaluating a split that does not verify");
  }
  result.leaf = cast<CollectOp>(node);
  return result;
}

TreeEvaluation mlir::autoprof::evaluateTree(TreeOp tree,
                                            DictionaryAttr features) {
  return evaluateTree(tree, [&](StringRef name) -> std::optional<double> {
    return getNumericValue(features ? features.get(name) : Attribute());
  });
}
