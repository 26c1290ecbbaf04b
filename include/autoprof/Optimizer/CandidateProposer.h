//===- CandidateProposer.h - Who proposes kernel variants -------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The interface between the search driver (SearchDriver.h) and whoever
// proposes variants of a kernel: the built-in rewrites, ranked by the
// kernel's features and counters, or a chat model. The driver measures the
// baseline, then asks the proposer for one candidate at a time until the
// budget is spent or the proposer has nothing left; it verifies and times
// every candidate, keeps the winners and tells the proposer about them.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_CANDIDATEPROPOSER_H
#define AUTOPROF_OPTIMIZER_CANDIDATEPROPOSER_H

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/Optimizer/CandidateStatus.h"
#include "autoprof/Optimizer/LLMProposer.h"
#include "autoprof/Runtime/Job.h"
#include "autoprof/Runtime/WorkerClient.h"
#include "autoprof/Target/GpuTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::autoprof {

/// How built-in rewrites are combined.
enum class SearchStrategy {
  /// Each rewrite applies to the fastest variant so far.
  Greedy,
  /// Each rewrite applies to the original alone.
  Each,
};

/// Where the search of one kernel stands; the driver keeps it current.
struct SearchState {
  /// The kernel searched, by @moduleName::@kernelName.
  std::string moduleName;
  std::string kernelName;
  /// The fastest verified module so far (the original until a candidate
  /// wins), and the module as it was when the kernel's search began.
  ModuleOp incumbent;
  ModuleOp start;
  /// The reference kernel's job: what every candidate is verified against.
  ::autoprof::runtime::JobKernel reference;
  /// The incumbent kernel's static features.
  DictionaryAttr features;
  /// The GPU the rewrites assume: the search's chip where it is described
  /// (GpuTarget.h), else null (the module's #nvvm.target, else sm_90).
  const GpuTarget *gpu = nullptr;
  /// What a proposer may tell a model: device, baseline, the incumbent's
  /// metrics (re-profiled after each greedy win), the history of tried
  /// candidates.
  ProposalContext context;
  /// Candidates proposed so far, and how many the budget allows.
  unsigned proposed = 0;
  unsigned budget = 0;
  /// Candidates that won so far (each replaced the incumbent).
  unsigned wins = 0;
};

/// One proposal.
struct Candidate {
  /// What it is: "coalesce=32", "llm#2".
  std::string label;
  /// The module with the candidate installed; null when it is not to be
  /// evaluated (see `status`).
  OwningOpRef<ModuleOp> variant;
  /// The candidate's code when it is not a gpu.func of `variant` (the PTX of
  /// a CUDA answer).
  std::optional<::autoprof::runtime::JobKernel> compiled;
  /// Built from `SearchState::start` rather than the incumbent: when it
  /// wins it replaces the earlier winners instead of adding to them.
  bool fromStart = false;
  /// Built from the incumbent as it was before the last win (a revision of
  /// that winner's rewrite): when it wins it replaces the last winner.
  bool replacesLast = false;
  /// For a candidate without a variant: Skipped (its preconditions no
  /// longer hold) or Rejected (unusable), and why.
  CandidateStatus status = CandidateStatus::Skipped;
  std::string reason;
  /// What the proposer records about it in the report (tokens, code, ...).
  llvm::json::Object details;
};

/// Proposes variants of one kernel at a time.
class CandidateProposer {
public:
  virtual ~CandidateProposer();

  /// The name reports give the proposer's candidates ("builtin", "llm").
  virtual StringRef getName() const = 0;
  /// Starts the search of the kernel of `state`, whose baseline has been
  /// measured. Fails only on errors that end the whole search.
  virtual LogicalResult begin(SearchState &state) { return success(); }
  /// The next candidate, or nothing when the proposer has none left.
  /// Failure ends the kernel's search with an error already emitted.
  virtual FailureOr<std::optional<Candidate>> next(SearchState &state) = 0;
  /// Whether winners should be profiled again (with the baseline's metrics)
  /// before the next proposal.
  virtual bool wantsWinnerMetrics() const { return false; }
  /// Told after a candidate won and, when wanted, was re-profiled:
  /// `state.incumbent` and `state.context.metrics` describe the winner.
  virtual void onWinner(SearchState &state) {}
};

/// The built-in rewrites, ranked by the kernel's features and counters
/// (proposeKernelRewrites), each tried once; with `Greedy` every winner is
/// re-profiled, its family's revisions (proposeRevisions) tried first, and
/// the remaining rewrites re-ranked on its metrics.
std::unique_ptr<CandidateProposer>
createBuiltinProposer(SearchStrategy strategy);

/// A chat model asked for a replacement kernel (LLMProposer.h) once per
/// budget slot; CUDA answers are compiled to PTX by `workerOptions`'s
/// worker for `chip`, and the PTX installed for `chip`/`features`.
std::unique_ptr<CandidateProposer>
createModelProposer(std::shared_ptr<::autoprof::llm::ChatClient> client,
                    ::autoprof::runtime::WorkerOptions workerOptions,
                    std::string chip, std::string features);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_CANDIDATEPROPOSER_H
