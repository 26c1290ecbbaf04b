//===- TreeEvaluation.h - Deterministic profiling-tree evaluation -*- C++ -*-=//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Evaluates a verified profiling tree on the features of one kernel. The walk
// is deterministic: the same feature values always reach the same leaf, and a
// missing feature takes the branch its split declares.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_DIALECT_AUTOPROF_IR_TREEEVALUATION_H
#define AUTOPROF_DIALECT_AUTOPROF_IR_TREEEVALUATION_H

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::autoprof {

/// One decision taken on the way from the root to a leaf.
struct TreeDecision {
  SplitOp split;
  /// The feature value compared, or nothing when the kernel lacked it.
  std::optional<double> value;
  /// The branch taken.
  Branch branch;
};

/// The result of evaluating a tree: the leaf reached and how.
struct TreeEvaluation {
  CollectOp leaf;
  llvm::SmallVector<TreeDecision> decisions;
};

/// Describes a decision for people, e.g. "grid_blocks = 4096: not < 132 ->
/// else" or "duration_us missing -> else (declared default)".
std::string describeDecision(const TreeDecision &decision);

/// Returns the value of a feature, or nothing when the kernel lacks it.
using FeatureLookup = llvm::function_ref<std::optional<double>(StringRef)>;

/// Evaluates `tree` on the features given by `lookup`. The tree must verify.
TreeEvaluation evaluateTree(TreeOp tree, FeatureLookup lookup);

/// Evaluates `tree` on a feature dictionary such as the `autoprof.features`
/// attribute (integer and float attributes; anything else counts as missing).
TreeEvaluation evaluateTree(TreeOp tree, DictionaryAttr features);

} // namespace mlir::autoprof

#endif // AUTOPROF_DIALECT_AUTOPROF_IR_TREEEVALUATION_H
