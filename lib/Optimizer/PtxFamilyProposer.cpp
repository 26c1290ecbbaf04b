//===- PtxFamilyProposer.cpp - PTX-level rewrites of imported kernels -----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Ranks the PTX-level families (PtxRewrite.h) once from the baseline's
// evidence and offers them best first, each applied to the incumbent
// variant; a family that does not apply there is offered as skipped, with
// its reason, and does not count against the budget. A variant whose
// compiler options changed is compiled anew from the incumbent's CUDA
// source by the worker's NVRTC and given the entry directives the
// incumbent's families added; one that does not compile is rejected.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/ImportedSearch.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

namespace {
class PtxFamilyProposer : public ImportedProposer {
public:
  PtxFamilyProposer(rt::WorkerOptions workerOptions, std::string chip)
      : workerOptions(std::move(workerOptions)), chip(std::move(chip)) {}

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
      candidate.status = CandidateStatus::Skipped;
      candidate.reason = std::move(*why);
    } else if (std::optional<std::string> why =
                   compileAnew(state, variant)) {
      candidate.status = CandidateStatus::Rejected;
      candidate.reason = std::move(*why);
    } else {
      candidate.variant = std::move(variant);
    }
    return std::optional<ImportedCandidate>(std::move(candidate));
  }

private:
  /// Compiles `variant` anew when a family asked for it; says why it could
  /// not be.
  std::optional<std::string> compileAnew(const ImportedSearchState &state,
                                         PtxVariant &variant) const {
    if (!variant.recompile)
      return std::nullopt;
    variant.recompile = false;
    const ImportedKernel &kernel = *state.kernel;
    llvm::Expected<std::string> ptx =
        rt::compileCudaToPtx(state.incumbentCudaSource, kernel.entry, chip,
                             variant.compileOptions, workerOptions);
    if (!ptx)
      return "the source does not compile with " +
             llvm::join(variant.compileOptions, " ") + ": " +
             llvm::toString(ptx.takeError());
    variant.ptx = std::move(*ptx);
    for (const std::string &directive : variant.directives)
      if (std::optional<std::string> why =
              addEntryDirective(variant.ptx, kernel.entry, directive))
        return "the PTX compiled anew does not take " + directive + ": " +
               *why;
    return std::nullopt;
  }

  rt::WorkerOptions workerOptions;
  std::string chip;
  std::optional<SmallVector<PtxProposal>> ranked;
  size_t position = 0;
};
} // namespace

std::unique_ptr<ImportedProposer>
mlir::autoprof::createPtxFamilyProposer(rt::WorkerOptions workerOptions,
                                        std::string chip) {
  return std::make_unique<PtxFamilyProposer>(std::move(workerOptions),
                                             std::move(chip));
}
