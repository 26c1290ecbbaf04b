//===- ModelProposer.cpp - A chat model's kernels as candidates -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Asks the model for a replacement of the incumbent kernel once per budget
// slot (LLMProposer.h builds the prompt from the search state: device,
// metrics, history). An MLIR answer is installed in a copy of the
// incumbent; a CUDA answer is compiled to PTX by the worker, which brings
// NVRTC (the compiler itself never links CUDA), and installed as a
// gpu.binary the launches call.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/CandidateProposer.h"

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

namespace {
class ModelProposer : public CandidateProposer {
public:
  ModelProposer(std::shared_ptr<::autoprof::llm::ChatClient> client,
                rt::WorkerOptions workerOptions, std::string chip,
                std::string features)
      : client(std::move(client)), workerOptions(std::move(workerOptions)),
        chip(std::move(chip)), features(std::move(features)) {}

  StringRef getName() const override { return "llm"; }

  FailureOr<std::optional<Candidate>> next(SearchState &state) override {
    OwningOpRef<ModuleOp> variant = state.incumbent.clone();
    auto compileCuda = [&](StringRef source) -> llvm::Expected<std::string> {
      return rt::compileCudaToPtx(source, state.kernelName, chip, {},
                                  workerOptions);
    };
    llvm::Expected<Proposal> proposal =
        proposeWithModel(*client, *variant, state.moduleName, state.kernelName,
                         state.context, compileCuda);
    if (!proposal) {
      Location loc = state.incumbent.getLoc();
      for (auto gpuModule : state.incumbent.getOps<gpu::GPUModuleOp>())
        if (gpuModule.getName() == state.moduleName)
          if (auto kernel =
                  gpuModule.lookupSymbol<gpu::GPUFuncOp>(state.kernelName))
            loc = kernel.getLoc();
      return emitError(loc, "the language model could not be asked about @")
             << state.kernelName << ": "
             << llvm::toString(proposal.takeError());
    }
    Candidate candidate;
    candidate.label = "llm#" + std::to_string(state.proposed + 1);
    candidate.details = proposal->toDetails();
    if (!proposal->installed) {
      candidate.status = CandidateStatus::Rejected;
      candidate.reason = proposal->rejection;
      return std::optional<Candidate>(std::move(candidate));
    }
    if (!proposal->ptx.empty()) {
      candidate.compiled = rt::JobKernel{proposal->ptx, rt::CodeFormat::Ptx, state.kernelName,
                                         state.reference.launch};
      installCudaKernel(*variant, state.moduleName, state.kernelName,
                        proposal->ptx, chip, features);
    }
    candidate.variant = std::move(variant);
    return std::optional<Candidate>(std::move(candidate));
  }

private:
  std::shared_ptr<::autoprof::llm::ChatClient> client;
  rt::WorkerOptions workerOptions;
  std::string chip;
  std::string features;
};
} // namespace

std::unique_ptr<CandidateProposer> mlir::autoprof::createModelProposer(
    std::shared_ptr<::autoprof::llm::ChatClient> client,
    rt::WorkerOptions workerOptions, std::string chip, std::string features) {
  return std::make_unique<ModelProposer>(std::move(client),
                                         std::move(workerOptions),
                                         std::move(chip), std::move(features));
}
