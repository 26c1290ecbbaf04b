//===- ModelTreeProposer.h - A chat model proposes tree edits ---*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The learner's second source of edits: a chat model is shown the current
// tree in the dialect, the configurations with their costs, per leaf the
// training kernels that reach it with their features and the speedup each
// configuration gave them, and the tree's score; it answers one fenced
// `mlir` block holding a whole `autoprof.tree`. The answer is parsed and
// verified by the dialect, and every leaf must collect a configuration of
// the outcome table; a failure goes back to the model once with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_MODELTREEPROPOSER_H
#define AUTOPROF_LEARN_MODELTREEPROPOSER_H

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/Learn/Learner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace mlir::autoprof::learn {

/// A tree the model proposed, in its own module.
struct ModelProposal {
  OwningOpRef<ModuleOp> module;
  TreeOp tree;
  /// Whether the answer needed the repair turn.
  bool repaired = false;
  /// Why the earlier answers were rejected, in order.
  std::vector<std::string> rejections;
};

/// The prompt the model is given for `tree` (exposed for tests and logs).
std::string buildTreePrompt(TreeOp tree, const OutcomeTable &table,
                            ArrayRef<size_t> kernels,
                            const LearnOptions &options);

/// Asks `client` for a better tree than `tree`. Fails with the reason when
/// the model cannot be reached or its answers (after one repair turn) do
/// not hold a valid tree over the table's configurations.
llvm::Expected<ModelProposal>
proposeTreeWithModel(const ::autoprof::llm::ChatClient &client, TreeOp tree,
                     const OutcomeTable &table, ArrayRef<size_t> kernels,
                     const LearnOptions &options);

} // namespace mlir::autoprof::learn

#endif // AUTOPROF_LEARN_MODELTREEPROPOSER_H
