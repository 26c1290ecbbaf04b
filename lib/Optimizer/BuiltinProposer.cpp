//===- BuiltinProposer.cpp - The built-in rewrites as candidates ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Proposes the built-in rewrites in the order proposeKernelRewrites ranks
// them, each at most once. With the greedy strategy every candidate is built
// on the incumbent and, after each win, the rewrites are ranked again on the
// winner's features and metrics; with `each`, every candidate is one rewrite
// of the kernel as it was. A family whose candidate did not win has its
// other parameters tried only after every other family's: its best-ranked
// parameter did not pay, so the budget goes to another family first. A
// rewrite that lost (or did not apply) to one incumbent may be proposed
// again after a win: the winner is another kernel (register accumulation
// that did not pay on blocks of 16 threads can on blocks of 256). With the
// greedy strategy a winner's family may also revise it from the winner's
// own profile (RewriteFamily::rankRevisions: a tile of results too large
// for the grid or the registers): each revision is tried first, on the
// kernel as it was before that win, and replaces the winner when it wins.
// A revision is not revised again.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/CandidateProposer.h"
#include "autoprof/Optimizer/KernelRewrites.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <deque>

using namespace mlir;
using namespace mlir::autoprof;

/// The kernel @moduleName::@kernelName of `module`.
static gpu::GPUFuncOp lookupKernel(ModuleOp module, StringRef moduleName,
                                   StringRef kernelName) {
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    if (gpuModule.getName() == moduleName)
      return gpuModule.lookupSymbol<gpu::GPUFuncOp>(kernelName);
  return {};
}

namespace {
class BuiltinProposer : public CandidateProposer {
public:
  explicit BuiltinProposer(SearchStrategy strategy) : strategy(strategy) {}

  StringRef getName() const override { return "builtin"; }

  LogicalResult begin(SearchState &state) override {
    seen.clear();
    winners.clear();
    revisions.clear();
    winsAtRevision = 0;
    beforeCandidate = nullptr;
    beforeLastWin = nullptr;
    lastWasRevision = false;
    rank(state);
    if (queue.empty())
      emitRemark(
          lookupKernel(state.incumbent, state.moduleName, state.kernelName)
              .getLoc(),
          "no built-in rewrite applies to @")
          << state.kernelName << "; the original is kept";
    return success();
  }

  FailureOr<std::optional<Candidate>> next(SearchState &state) override {
    // The last candidate lost when no candidate has won since.
    if (!lastFamily.empty() && state.wins == winsAtLast)
      std::stable_partition(queue.begin(), queue.end(),
                            [&](const KernelRewrite &rewrite) {
                              return rewrite.family != lastFamily;
                            });
    lastFamily.clear();
    // A win since the revisions were made (one of them, whose re-profile
    // then failed) replaced the winner they revise.
    if (state.wins != winsAtRevision)
      revisions.clear();
    while (!revisions.empty()) {
      ProposedRewrite revision = revisions.front();
      revisions.pop_front();
      Candidate candidate;
      candidate.label = revision.rewrite.str();
      candidate.replacesLast = true;
      candidate.details["revises"] = lastWinner;
      if (!revision.why.empty())
        candidate.details["why"] = revision.why;
      OwningOpRef<ModuleOp> variant = beforeLastWin->clone();
      gpu::GPUFuncOp kernel =
          lookupKernel(*variant, state.moduleName, state.kernelName);
      if (std::optional<std::string> why =
              checkKernelRewrite(revision.rewrite, *variant, kernel,
                                 state.gpu)) {
        candidate.status = CandidateStatus::Skipped;
        candidate.reason = *why;
        return std::optional<Candidate>(std::move(candidate));
      }
      if (failed(applyKernelRewrite(revision.rewrite, *variant, kernel,
                                     state.gpu)))
        return failure();
      candidate.variant = std::move(variant);
      lastFamily.clear();
      lastRewrite = candidate.label;
      lastWasRevision = true;
      winsAtLast = state.wins;
      return std::optional<Candidate>(std::move(candidate));
    }
    while (!queue.empty()) {
      KernelRewrite rewrite = queue.front();
      queue.pop_front();
      if (!seen.insert(rewrite.str()).second)
        continue;
      Candidate candidate;
      candidate.label = rewrite.str();
      candidate.fromStart = strategy == SearchStrategy::Each;
      OwningOpRef<ModuleOp> variant =
          candidate.fromStart ? state.start.clone() : state.incumbent.clone();
      gpu::GPUFuncOp kernel =
          lookupKernel(*variant, state.moduleName, state.kernelName);
      // Earlier winners can invalidate a later rewrite's preconditions.
      if (std::optional<std::string> why =
              checkKernelRewrite(rewrite, *variant, kernel, state.gpu)) {
        candidate.status = CandidateStatus::Skipped;
        candidate.reason = *why;
        return std::optional<Candidate>(std::move(candidate));
      }
      if (failed(applyKernelRewrite(rewrite, *variant, kernel, state.gpu)))
        return failure();
      // The kernel before this candidate, for revisions should it win.
      if (strategy == SearchStrategy::Greedy)
        beforeCandidate = state.incumbent.clone();
      candidate.variant = std::move(variant);
      lastFamily = rewrite.family;
      lastRewrite = rewrite.str();
      lastWasRevision = false;
      winsAtLast = state.wins;
      return std::optional<Candidate>(std::move(candidate));
    }
    return std::optional<Candidate>();
  }

  bool wantsWinnerMetrics() const override {
    return strategy == SearchStrategy::Greedy;
  }

  void onWinner(SearchState &state) override {
    // Only the winners stay tried: every other rewrite faces a new kernel.
    // (What was tried since the last win was tried on the kernel before
    // this one, which the revisions are built on: a revision that lost
    // there is not tried again.)
    winners.insert(lastRewrite);
    llvm::StringSet<> triedBefore = std::move(seen);
    seen.clear();
    for (const auto &winner : winners)
      seen.insert(winner.getKey());
    revisions.clear();
    if (!lastWasRevision && beforeCandidate) {
      std::string error;
      FailureOr<KernelRewrite> winner = parseKernelRewrite(lastRewrite, error);
      gpu::GPUFuncOp kernel =
          lookupKernel(state.incumbent, state.moduleName, state.kernelName);
      if (succeeded(winner) && kernel) {
        SmallVector<ProposedRewrite> revised =
            proposeRevisions(state.incumbent, kernel, state.features,
                             state.context.metrics, *winner, state.gpu);
        for (ProposedRewrite &revision : revised)
          if (!triedBefore.contains(revision.rewrite.str()) &&
              seen.insert(revision.rewrite.str()).second)
            revisions.push_back(std::move(revision));
        if (!revisions.empty()) {
          beforeLastWin = std::move(beforeCandidate);
          lastWinner = lastRewrite;
          winsAtRevision = state.wins;
        }
      }
    }
    rank(state);
  }

private:
  /// Ranks the rewrites for the incumbent.
  void rank(SearchState &state) {
    gpu::GPUFuncOp kernel =
        lookupKernel(state.incumbent, state.moduleName, state.kernelName);
    SmallVector<KernelRewrite> ranked =
        proposeKernelRewrites(state.incumbent, kernel, state.features,
                              state.context.metrics, nullptr, nullptr,
                              state.gpu);
    queue.assign(ranked.begin(), ranked.end());
  }

  SearchStrategy strategy;
  std::deque<KernelRewrite> queue;
  /// Revisions of the last winner, tried before `queue`, on `beforeLastWin`.
  std::deque<ProposedRewrite> revisions;
  /// The incumbent before the last candidate and before the last win.
  OwningOpRef<ModuleOp> beforeCandidate, beforeLastWin;
  /// The label of the winner the revisions revise.
  std::string lastWinner;
  /// Whether the last candidate was a revision.
  bool lastWasRevision = false;
  /// The rewrites tried on the incumbent, and those that won so far.
  llvm::StringSet<> seen, winners;
  /// The last candidate evaluated, its family, and the wins before it.
  std::string lastRewrite, lastFamily;
  unsigned winsAtLast = 0;
  /// The wins when the revisions were made.
  unsigned winsAtRevision = 0;
};
} // namespace

std::unique_ptr<CandidateProposer>
mlir::autoprof::createBuiltinProposer(SearchStrategy strategy) {
  return std::make_unique<BuiltinProposer>(strategy);
}
