//===- LLMProposer.h - Kernel variants proposed by a language model -*- C++
//-*-//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Asks a chat model for a faster version of a kernel: the prompt carries the
// kernel's MLIR, its launch, the device, the selected metrics with their
// meanings and values (missing ones named as missing) and the history of
// tried variants; the answer must be one fenced block of MLIR holding a
// replacement gpu.func with the same name and signature. An answer that does
// not parse or does not fit gets one repair round. The variant is then
// verified and timed like any other candidate.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_LLMPROPOSER_H
#define AUTOPROF_OPTIMIZER_LLMPROPOSER_H

#include "autoprof/LLM/ChatClient.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::autoprof {

/// What the model is told about the kernel besides its code.
struct ProposalContext {
  std::string gpuName;
  int smCount = 0;
  double peakBandwidth = 0;
  double baselineMedianUs = 0;
  /// Collected metric values, by name.
  llvm::StringMap<double> metrics;
  /// Metrics that could not be collected, with the reason.
  std::vector<std::string> missing;
  /// One line per variant tried so far: what it was and how it ended.
  std::vector<std::string> history;
};

/// The outcome of one request.
struct Proposal {
  /// Set when the answer gave a usable kernel: installed in the variant.
  bool installed = false;
  /// Why not, when the answer was unusable even after the repair round.
  std::string rejection;
  int64_t promptTokens = 0;
  int64_t completionTokens = 0;
  double latencySeconds = 0;
  bool fromCache = false;
  bool repaired = false;
};

/// Builds the prompt for `kernel` and `launch`.
::autoprof::llm::ChatRequest buildKernelPrompt(gpu::GPUFuncOp kernel,
                                               gpu::LaunchFuncOp launch,
                                               const ProposalContext &context);

/// Parses `code` (a gpu.func, or a gpu.module holding one) and replaces the
/// kernel named `kernelName` of `variant` by it. Fails with a message when it
/// does not parse, verify, or keep the name and signature.
LogicalResult installKernel(ModuleOp variant, StringRef moduleName,
                            StringRef kernelName, StringRef code,
                            std::string &error);

/// Asks `client` for a variant of @moduleName::@kernelName and installs it in
/// `variant`. Transport and HTTP failures are llvm::Errors; an unusable
/// answer is a Proposal with a rejection.
llvm::Expected<Proposal>
proposeWithModel(const ::autoprof::llm::ChatClient &client, ModuleOp variant,
                 StringRef moduleName, StringRef kernelName,
                 const ProposalContext &context);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_LLMPROPOSER_H
