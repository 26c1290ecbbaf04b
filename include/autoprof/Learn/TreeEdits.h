//===- TreeEdits.h - REWRITE and SPLIT edits of profiling trees -*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The two edit operations of tree learning, applied to `autoprof.tree` IR:
//   REWRITE a leaf (what it collects) or a split (its feature, comparison or
//           threshold);
//   SPLIT   a leaf into a split with two leaves.
// New nodes get ids above every id in the tree, and a leaf records the edit
// that made it (`provenance`) and its cost, so that learned trees can be
// audited. The result verifies like any tree.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_TREEEDITS_H
#define AUTOPROF_LEARN_TREEEDITS_H

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Learn/OutcomeTable.h"

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::autoprof::learn {

/// What an edit does.
enum class TreeEditKind {
  /// The leaf `node` collects `configuration` instead.
  RewriteLeaf,
  /// The split `node` tests `feature comparison threshold` instead.
  RewriteSplit,
  /// The leaf `node` becomes a split on `feature comparison threshold`
  /// whose leaves collect `thenConfiguration` and `elseConfiguration`.
  SplitLeaf,
};

/// One edit of a tree.
struct TreeEdit {
  TreeEditKind kind = TreeEditKind::RewriteLeaf;
  int64_t node = 0;
  std::string configuration;
  std::string feature;
  Comparison comparison = Comparison::lt;
  double threshold = 0;
  std::string thenConfiguration, elseConfiguration;

  /// "SPLIT leaf 2 on grid_blocks < 132 into [A] / [B]".
  std::string describe() const;
};

/// Applies `edit` to `tree` through `rewriter`, taking configurations from
/// `table`; fails with `error` (and leaves the tree unchanged) when the node
/// or a configuration does not exist or the node has the wrong kind.
LogicalResult applyTreeEdit(RewriterBase &rewriter, TreeOp tree,
                            const TreeEdit &edit, const OutcomeTable &table,
                            std::string &error);

/// The node of `tree` with id `id`, or null.
Operation *findTreeNode(TreeOp tree, int64_t id);

/// The configuration of `table` that `leaf` collects (its groups and
/// metrics, in any order), or null.
const ProfileConfiguration *getLeafConfiguration(CollectOp leaf,
                                                 const OutcomeTable &table);

/// Makes `proposed` (a whole tree a model proposed in place of `current`,
/// verified, every leaf collecting a configuration of `table`) a learner's
/// tree: `current`'s name, chip and note; each leaf's cost from the table;
/// `provenance` on every leaf and split that names none; and, for a node
/// whose id `current` gives a node of the other kind, a fresh id above both
/// trees' (a model that renumbers the tree would otherwise make earlier log
/// entries name a split "leaf N").
void adoptProposedTree(RewriterBase &rewriter, TreeOp proposed, TreeOp current,
                       const OutcomeTable &table, StringRef provenance);

} // namespace mlir::autoprof::learn

#endif // AUTOPROF_LEARN_TREEEDITS_H
