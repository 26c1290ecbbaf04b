//===- ImportedModelProposer.cpp - A chat model's CUDA for imported kernels
//===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Asks the model for a CUDA C++ version of an imported kernel once per
// budget slot (LLMProposer.h builds the prompt: the fastest version so far,
// its CUDA source or its PTX, the launch, the declaration, the metrics and
// facts, the history). The answer is compiled to PTX by the worker, which
// brings NVRTC (the compiler itself never links CUDA), and runs with the
// kernel's launch.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/ImportedSearch.h"

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

namespace {
class ImportedModelProposer : public ImportedProposer {
public:
  ImportedModelProposer(std::shared_ptr<::autoprof::llm::ChatClient> client,
                        rt::WorkerOptions workerOptions, std::string chip)
      : client(std::move(client)), workerOptions(std::move(workerOptions)),
        chip(std::move(chip)) {}

  StringRef getName() const override { return "llm"; }

  FailureOr<std::optional<ImportedCandidate>>
  next(ImportedSearchState &state) override {
    const ImportedKernel &kernel = *state.kernel;
    auto compileCuda = [&](StringRef source) -> llvm::Expected<std::string> {
      // With the incumbent's options: its macros are the source's too.
      return rt::compileCudaToPtx(source, kernel.entry, chip,
                                  state.incumbent.compileOptions,
                                  workerOptions);
    };
    llvm::Expected<Proposal> proposal = proposeImportedWithModel(
        *client, kernel, state.incumbentCudaSource, state.incumbent.ptx,
        state.context, compileCuda);
    if (!proposal) {
      gpu::BinaryOp binary = kernel.binary;
      return emitError(binary.getLoc(),
                       "the language model could not be asked about @")
             << binary.getSymName() << "::" << kernel.entry << ": "
             << llvm::toString(proposal.takeError());
    }
    ImportedCandidate candidate;
    candidate.label = "llm#" + std::to_string(state.proposed + 1);
    candidate.details = proposal->toDetails();
    if (!proposal->installed) {
      candidate.status = CandidateStatus::Rejected;
      candidate.reason = proposal->rejection;
      return std::optional<ImportedCandidate>(std::move(candidate));
    }
    // The launch stays as it is: the answer was asked to cover the same
    // problem with it.
    PtxVariant variant;
    variant.ptx = proposal->ptx;
    variant.launch = kernel.jobLaunch;
    variant.compileOptions = state.incumbent.compileOptions;
    candidate.variant = std::move(variant);
    candidate.cudaSource = proposal->code;
    return std::optional<ImportedCandidate>(std::move(candidate));
  }

private:
  std::shared_ptr<::autoprof::llm::ChatClient> client;
  rt::WorkerOptions workerOptions;
  std::string chip;
};
} // namespace

std::unique_ptr<ImportedProposer> mlir::autoprof::createImportedModelProposer(
    std::shared_ptr<::autoprof::llm::ChatClient> client,
    rt::WorkerOptions workerOptions, std::string chip) {
  return std::make_unique<ImportedModelProposer>(
      std::move(client), std::move(workerOptions), std::move(chip));
}
