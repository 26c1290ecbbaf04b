//===- ImportedSearch.h - Optimizing kernels known only as PTX --*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The search of a kernel imported from a kernel spec (ImportedKernel.h):
// its baseline is profiled with the metrics the tree selects from the
// features its PTX gives, a proposer offers variants (the PTX-level
// rewrites of PtxRewrite.h ranked from that evidence, or a chat model's
// CUDA C++), and each one is verified against the original kernel on the
// worker's generated inputs, timed, and kept when it is faster beyond the
// noise and an interleaved re-timing confirms it, as the search of a
// gpu.func does (SearchDriver.h).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_IMPORTEDSEARCH_H
#define AUTOPROF_OPTIMIZER_IMPORTEDSEARCH_H

#include "autoprof/Optimizer/LLMProposer.h"
#include "autoprof/Optimizer/PtxRewrite.h"
#include "autoprof/Optimizer/SearchDriver.h"

namespace mlir::autoprof {

/// What a proposer of an imported kernel's variants sees.
struct ImportedSearchState {
  const ImportedKernel *kernel = nullptr;
  /// The fastest verified variant so far (the original until one wins), and
  /// the CUDA C++ it was compiled from (empty when only its PTX is known).
  PtxVariant incumbent;
  std::string incumbentCudaSource;
  /// The baseline's features (from the PTX) and metrics, for the rankings.
  RewriteEvidence evidence;
  /// What a model is told: device, baseline, metrics, the history of tried
  /// candidates.
  ProposalContext context;
  /// Candidates proposed so far that count against the budget.
  unsigned proposed = 0;
};

struct ImportedCandidate {
  /// What it is: "max-registers=64", "llm#1".
  std::string label;
  /// The variant to verify and time; absent when `status` says why not:
  /// Skipped (it does not apply; not counted against the budget) or
  /// Rejected (unusable).
  std::optional<PtxVariant> variant;
  CandidateStatus status = CandidateStatus::Skipped;
  std::string reason;
  /// The CUDA C++ the variant was compiled from, when a model wrote it.
  std::string cudaSource;
  /// What the proposer records about it in the report (tokens, code, ...).
  llvm::json::Object details;
};

/// Proposes variants of one imported kernel, one at a time.
class ImportedProposer {
public:
  virtual ~ImportedProposer();

  /// The name reports give the proposer's candidates ("builtin", "llm").
  virtual StringRef getName() const = 0;
  /// The next candidate, or nothing when the proposer has none left.
  /// Failure ends the kernel's search with an error already emitted.
  virtual FailureOr<std::optional<ImportedCandidate>>
  next(ImportedSearchState &state) = 0;
};

/// The PTX-level families (PtxRewrite.h), ranked from the baseline's
/// evidence, each applied to the incumbent; variants with other compiler
/// options are compiled for `chip` by the worker's NVRTC.
std::unique_ptr<ImportedProposer>
createPtxFamilyProposer(::autoprof::runtime::WorkerOptions workerOptions,
                        std::string chip);

/// A chat model's CUDA C++ versions of the kernel (LLMProposer.h), compiled
/// to PTX for `chip` by the worker's NVRTC.
std::unique_ptr<ImportedProposer>
createImportedModelProposer(std::shared_ptr<::autoprof::llm::ChatClient> client,
                            ::autoprof::runtime::WorkerOptions workerOptions,
                            std::string chip);

/// What the search of an imported kernel found.
struct ImportedSearchResult {
  /// Its report entry ("binary::entry").
  KernelSearchResult report;
  /// The fastest verified variant (the original when nothing won).
  PtxVariant winner;
  /// The CUDA C++ of the winner, when a model wrote it.
  std::string winnerCudaSource;
};

/// Searches `kernel` with at most `options.budget` candidates of
/// `proposer`. Fails, with an error at the binary, when its baseline cannot
/// be measured.
FailureOr<ImportedSearchResult>
searchImportedKernel(const ImportedKernel &kernel, const SearchOptions &options,
                     TreeOp tree, ImportedProposer &proposer);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_IMPORTEDSEARCH_H
