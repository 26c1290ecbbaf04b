//===- PtxFamilyProposer.cpp - PTX-level rewrites of imported kernels -----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Ranks the PTX-level families (PtxRewrite.h) once from the baseline's
// evidence and offers them best first, each applied to the incumbent
// variant; a family that does not apply there is offered as skipped, with
// its reason, and does not count against the budget.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/ImportedSearch.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace {
class PtxFamilyProposer : public ImportedProposer {
public:
  StringRef getName() const override { return "builtin"; }

  FailureOr<std::optional<ImportedCandidate>>
  next(ImportedSearchState &state) override {
    if (!ranked) {
      ranked = proposePtxRewrites(state.evidence);
      position = 0;
    }
    if (position >= ranked->size())
      return std::optional<ImportedCandidate>();
    const PtxProposal &proposal = (*ranked)[position++];
    ImportedCandidate candidate;
    candidate.label = proposal.label();
    PtxVariant variant = state.incumbent;
    if (std::optional<std::string> why =
            proposal.family->apply(*state.kernel, proposal.parameter, variant)) {
      candidate.status = "skipped";
      candidate.reason = std::move(*why);
    } else {
      candidate.variant = std::move(variant);
    }
    return std::optional<ImportedCandidate>(std::move(candidate));
  }

private:
  std::optional<SmallVector<PtxProposal>> ranked;
  size_t position = 0;
};
} // namespace

std::unique_ptr<ImportedProposer> mlir::autoprof::createPtxFamilyProposer() {
  return std::make_unique<PtxFamilyProposer>();
}
