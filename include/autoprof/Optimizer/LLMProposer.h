//===- LLMProposer.h - Kernels proposed by a language model -----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Asks a chat model for a faster version of a kernel: the prompt carries the
// kernel's MLIR, its launch, the device, the selected metrics with their
// meanings and values (missing ones named as missing), the bottleneck facts
// they establish (docs/diagnosis.md; facts without their metrics named as
// unknown) and the history of tried variants. The answer must be one fenced
// block: MLIR holding a replacement gpu.func with the same name and signature,
// or CUDA C++ holding an extern "C" __global__ function with the same name and
// the kernel's bare-pointer ABI (compiled to PTX with NVRTC through the worker;
// a winner is kept as a gpu.binary that the launches then call). An answer that
// does not parse, compile or fit gets one repair round. The variant is then
// verified and timed like any other candidate.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_LLMPROPOSER_H
#define AUTOPROF_OPTIMIZER_LLMPROPOSER_H

#include "autoprof/Import/ImportedKernel.h"
#include "autoprof/LLM/ChatClient.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

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
  /// Set when the answer gave a usable kernel: an MLIR kernel installed in
  /// the variant, or a CUDA kernel compiled to `ptx`.
  bool installed = false;
  /// The answer's code block and its language ("mlir" or "cuda").
  std::string code;
  std::string language;
  /// The PTX of a CUDA answer (not installed in the variant; see
  /// installCudaKernel).
  std::string ptx;
  /// Why not, when the answer was unusable even after the repair round.
  std::string rejection;
  int64_t promptTokens = 0;
  int64_t completionTokens = 0;
  double latencySeconds = 0;
  bool fromCache = false;
  bool repaired = false;

  /// What a search report records of the request: its tokens, latency,
  /// cache and repair, and the answer's code and language where it had
  /// code.
  llvm::json::Object toDetails() const;
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
/// Compiles a CUDA answer to PTX, or fails with the compiler's message.
using CudaCompiler =
    llvm::function_ref<llvm::Expected<std::string>(StringRef source)>;

/// Asks the model for a variant of @moduleName::@kernelName; an MLIR answer
/// is installed in `variant`, a CUDA one compiled with `compileCuda`.
llvm::Expected<Proposal>
proposeWithModel(const ::autoprof::llm::ChatClient &client, ModuleOp variant,
                 StringRef moduleName, StringRef kernelName,
                 const ProposalContext &context, CudaCompiler compileCuda);

/// The C declaration of `kernel` under the bare-pointer ABI the launches use:
/// `extern "C" __global__ void name(const float *x, float *y, long long n)`.
std::string getCudaDeclaration(gpu::GPUFuncOp kernel);

/// The prompt for a kernel imported from a kernel spec: its code (the
/// fastest version so far: `cudaSource` where it is known, else `ptx`),
/// launch, parameters and the C declaration an answer must define, then what
/// `context` holds, as for a gpu.func.
::autoprof::llm::ChatRequest
buildImportedKernelPrompt(const ImportedKernel &kernel, StringRef cudaSource,
                          StringRef ptx, const ProposalContext &context);

/// Asks the model for a faster CUDA C++ version of an imported kernel (one
/// repair round, as proposeWithModel): a CUDA answer that defines the entry
/// unmangled is compiled to `ptx`; an MLIR answer is refused (the kernel
/// has no gpu.func to replace).
llvm::Expected<Proposal>
proposeImportedWithModel(const ::autoprof::llm::ChatClient &client,
                         const ImportedKernel &kernel, StringRef cudaSource,
                         StringRef ptx, const ProposalContext &context,
                         CudaCompiler compileCuda);

/// `extern "C" __global__ void entry(...)` of an imported kernel: the spec's
/// parameter names, buffers as pointers (`const` for inputs).
std::string getCudaDeclaration(const ImportedKernel &kernel);

/// Makes every launch of @moduleName::@kernelName in `variant` call `ptx`
/// instead, kept in a gpu.binary named "<moduleName>_<kernelName>_cuda" for
/// `chip`/`features` (replacing an earlier one).
void installCudaKernel(ModuleOp variant, StringRef moduleName,
                       StringRef kernelName, StringRef ptx, StringRef chip,
                       StringRef features);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_LLMPROPOSER_H
