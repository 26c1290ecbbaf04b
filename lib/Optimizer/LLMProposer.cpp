//===- LLMProposer.cpp - Kernel variants proposed by a language model -----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/LLMProposer.h"

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Runtime/HostData.h"

#include "autoprof/Diagnosis/BottleneckFacts.h"
#include "autoprof/LLM/CodeBlock.h"
#include "autoprof/Profiling/MetricCatalog.h"
#include "autoprof/Support/Nesting.h"
#include "autoprof/Transforms/EvaluationJobs.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::autoprof;
namespace llm = ::autoprof::llm;
namespace rt = ::autoprof::runtime;

static constexpr const char *kSystemPrompt =
    "You are an expert CUDA performance engineer who writes MLIR and CUDA "
    "C++. You rewrite GPU kernels written in MLIR's gpu dialect (with arith, "
    "math, memref, scf, vector and nvvm ops) so that they compute exactly the "
    "same results faster on the given NVIDIA GPU. Keep the kernel's name, its "
    "argument list and types, and what it writes; the launch configuration "
    "(grid and block sizes) stays as given, so the kernel must cover the same "
    "problem with it. Answer with exactly one fenced code block, after at "
    "most a few sentences of explanation: either ```mlir holding the "
    "complete replacement gpu.func (nothing else in the block), or ```cuda "
    "holding CUDA C++ that defines the kernel as an extern \"C\" __global__ "
    "function with the C declaration given in the request.";

static constexpr const char *kImportedSystemPrompt =
    "You are an expert CUDA performance engineer. You rewrite CUDA kernels, "
    "given as CUDA C++ or as PTX, so that they compute exactly the same "
    "results faster on the given NVIDIA GPU. Keep what the kernel writes; the "
    "launch configuration (grid, block and dynamic shared memory sizes) stays "
    "as given, so the kernel must cover the same problem with it. Answer with "
    "exactly one fenced ```cuda code block, after at most a few sentences of "
    "explanation, holding CUDA C++ that defines the kernel as an extern \"C\" "
    "__global__ function with the C declaration given in the request.";

/// The C type of a kernel argument under the bare-pointer ABI.
static std::string getCType(Type type) {
  if (type.isIndex() || type.isInteger(64))
    return "long long";
  if (type.isInteger(32))
    return "int";
  if (type.isInteger(16))
    return "short";
  if (type.isInteger(8))
    return "signed char";
  if (type.isInteger(1))
    return "bool";
  if (type.isF64())
    return "double";
  if (type.isF32())
    return "float";
  if (type.isF16())
    return "__half";
  if (type.isBF16())
    return "__nv_bfloat16";
  return "void";
}

std::string mlir::autoprof::getCudaDeclaration(gpu::GPUFuncOp kernel) {
  std::string text =
      "extern \"C\" __global__ void " + kernel.getName().str() + "(";
  for (auto [index, arg] : llvm::enumerate(
           kernel.getArguments().take_front(kernel.getNumArguments()))) {
    if (index)
      text += ", ";
    std::string name = "arg" + std::to_string(index);
    if (auto memref = dyn_cast<MemRefType>(arg.getType()))
      text += (inferBufferRole(arg) == ::autoprof::runtime::BufferRole::Input
                   ? "const "
                   : "") +
              getCType(memref.getElementType()) + " *" + name;
    else
      text += getCType(arg.getType()) + " " + name;
  }
  return text + ")";
}

/// The C type of an evaluation job's dtype.
static StringRef getCType(StringRef dtype) {
  return llvm::StringSwitch<StringRef>(dtype)
      .Case("f32", "float")
      .Case("f64", "double")
      .Case("f16", "__half")
      .Case("bf16", "__nv_bfloat16")
      .Case("i8", "signed char")
      .Case("i16", "short")
      .Case("i32", "int")
      .Case("i64", "long long")
      .Case("u8", "unsigned char")
      .Case("u16", "unsigned short")
      .Case("u32", "unsigned int")
      .Case("u64", "unsigned long long")
      .Default("void");
}

std::string mlir::autoprof::getCudaDeclaration(const ImportedKernel &kernel) {
  std::string text = "extern \"C\" __global__ void " + kernel.entry + "(";
  for (auto [index, param] : llvm::enumerate(kernel.jobLaunch.params)) {
    if (index)
      text += ", ";
    StringRef name = kernel.paramNames[index];
    if (param.isScalar)
      text +=
          (getCType(::autoprof::runtime::dtypeName(param.dtype)) + " " + name)
              .str();
    else
      text +=
          ((param.role == ::autoprof::runtime::BufferRole::Input ? "const "
                                                                 : "") +
           getCType(::autoprof::runtime::dtypeName(param.dtype)) + " *" + name)
              .str();
  }
  return text + ")";
}

void mlir::autoprof::installCudaKernel(ModuleOp variant, StringRef moduleName,
                                       StringRef kernelName, StringRef ptx,
                                       StringRef chip, StringRef features) {
  MLIRContext *context = variant.getContext();
  std::string binaryName = (moduleName + "_" + kernelName + "_cuda").str();
  if (auto old = variant.lookupSymbol<gpu::BinaryOp>(binaryName))
    old.erase();
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(variant.getBody());
  for (auto gpuModule : variant.getOps<gpu::GPUModuleOp>())
    if (gpuModule.getName() == moduleName)
      builder.setInsertionPointAfter(gpuModule);
  auto target = NVVM::NVVMTargetAttr::get(
      context, /*optLevel=*/2, "nvptx64-nvidia-cuda", chip, features);
  auto object =
      gpu::ObjectAttr::get(context, target, gpu::CompilationTarget::Assembly,
                           builder.getStringAttr(ptx), nullptr, nullptr);
  gpu::BinaryOp::create(builder, variant.getLoc(), binaryName,
                        /*offloadingHandler=*/nullptr,
                        ArrayRef<Attribute>{object});
  auto callee = SymbolRefAttr::get(
      context, binaryName, {FlatSymbolRefAttr::get(context, kernelName)});
  variant.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelName() == kernelName &&
        (launch.getKernelModuleName() == moduleName ||
         launch.getKernelModuleName() == binaryName))
      launch.setKernelAttr(callee);
  });
}

/// Points the launches of @moduleName::@kernelName back at the gpu.func after
/// an MLIR answer replaced it, dropping a CUDA winner kept before.
static void uninstallCudaKernel(ModuleOp variant, StringRef moduleName,
                                StringRef kernelName) {
  std::string binaryName = (moduleName + "_" + kernelName + "_cuda").str();
  auto binary = variant.lookupSymbol<gpu::BinaryOp>(binaryName);
  if (!binary)
    return;
  MLIRContext *context = variant.getContext();
  auto callee = SymbolRefAttr::get(
      context, moduleName, {FlatSymbolRefAttr::get(context, kernelName)});
  variant.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() == binaryName)
      launch.setKernelAttr(callee);
  });
  binary.erase();
}

/// The device line of a prompt.
static void printDevice(llvm::raw_ostream &os, const ProposalContext &context) {
  os << "Device: " << context.gpuName << ", " << context.smCount << " SMs";
  if (context.peakBandwidth > 0)
    os << llvm::formatv(", measured DRAM bandwidth {0:F2} TB/s",
                        context.peakBandwidth / 1e12);
  os << ".\n\n";
}

/// What was measured of the current kernel, what it establishes and what
/// was tried: the metrics with their meanings, the bottleneck facts and the
/// history, then the request.
static void printEvidence(llvm::raw_ostream &os,
                          const ProposalContext &context) {
  const MetricCatalog *catalog = MetricCatalog::forChip("sm_90");
  os << "Hardware metrics of the current kernel:\n";
  // Sorted, so that the same measurement gives the same prompt (and the
  // same cache key).
  std::vector<StringRef> names;
  for (const auto &entry : context.metrics)
    names.push_back(entry.getKey());
  llvm::sort(names);
  for (StringRef name : names) {
    os << "- " << name << " = "
       << llvm::format("%g", context.metrics.lookup(name));
    if (const MetricInfo *info = catalog->lookupMetric(name))
      os << " " << info->unit << ": " << info->meaning;
    os << "\n";
  }
  for (const std::string &missing : context.missing)
    os << "- " << missing << " (missing: could not be collected)\n";
  // What the metrics say limits the kernel (docs/diagnosis.md); facts whose
  // metrics were not collected are named as unknown, never guessed.
  SmallVector<StringRef> unknown;
  os << "\nBottleneck facts from these metrics:\n";
  for (const BottleneckFact &fact : diagnose(context.metrics)) {
    if (fact.state == FactState::Unknown) {
      unknown.push_back(fact.definition->name);
      continue;
    }
    os << "- " << fact.definition->name << " (" << fact.definition->meaning
       << "): " << getFactStateName(fact.state) << ", " << fact.evidence
       << "\n";
  }
  if (!unknown.empty()) {
    os << "- unknown, their metrics were not collected: ";
    llvm::interleaveComma(unknown, os);
    os << "\n";
  }
  if (!context.history.empty()) {
    os << "\nVariants tried so far:\n";
    for (const std::string &line : context.history)
      os << "- " << line << "\n";
  }
  os << "\nWrite a faster, equivalent version of this kernel.";
}

llm::ChatRequest
mlir::autoprof::buildKernelPrompt(gpu::GPUFuncOp kernel,
                                  gpu::LaunchFuncOp launch,
                                  const ProposalContext &context) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printDevice(os, context);
  os << "Kernel (MLIR):\n```mlir\n";
  // The copy is detached from its gpu.module: print it in its custom form
  // without re-verifying it there.
  OpPrintingFlags flags;
  flags.assumeVerified().useLocalScope();
  Operation *copy = kernel->clone();
  // Analysis attributes are noise for the model.
  copy->removeAttr(AutoProfDialect::FeaturesAttrHelper::getNameStr());
  copy->removeAttr(AutoProfDialect::ProfileAttrHelper::getNameStr());
  copy->removeAttr(AutoProfDialect::MeasurementAttrHelper::getNameStr());
  copy->print(os, flags);
  copy->destroy();
  os << "\n```\n\n";
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  auto show = [&](Value v) {
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      os << value.getSExtValue();
    else
      os << "?";
  };
  os << "Launch: grid (";
  show(grid.x), os << ", ", show(grid.y), os << ", ", show(grid.z);
  os << "), block (";
  show(block.x), os << ", ", show(block.y), os << ", ", show(block.z);
  os << llvm::formatv("). Median time now: {0:F2} us.\n",
                      context.baselineMedianUs);
  os << "C declaration for a CUDA C++ answer (bare pointers, in this order): "
     << getCudaDeclaration(kernel) << ".\n\n";
  printEvidence(os, context);
  llm::ChatRequest request;
  request.system = kSystemPrompt;
  request.messages.push_back({"user", text});
  return request;
}

llm::ChatRequest
mlir::autoprof::buildImportedKernelPrompt(const ImportedKernel &kernel,
                                          StringRef cudaSource, StringRef ptx,
                                          const ProposalContext &context) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printDevice(os, context);
  // The CUDA C++ where it is known, else the PTX the kernel runs.
  if (!cudaSource.empty())
    os << "Kernel (CUDA C++):\n```cuda\n" << cudaSource;
  else
    os << "Kernel (PTX):\n```ptx\n" << ptx;
  os << (StringRef(text).ends_with("\n") ? "" : "\n") << "```\n\n";
  const rt::JobLaunch &launch = kernel.jobLaunch;
  os << llvm::formatv("Launch: grid ({0}, {1}, {2}), block ({3}, {4}, {5}), "
                      "{6} bytes of dynamic shared memory. Median time now: "
                      "{7:F2} us.\n",
                      launch.grid[0], launch.grid[1], launch.grid[2],
                      launch.block[0], launch.block[1], launch.block[2],
                      launch.dynamicSharedBytes, context.baselineMedianUs);
  os << "Parameters:";
  for (auto [index, param] : llvm::enumerate(launch.params)) {
    os << (index ? "; " : " ") << kernel.paramNames[index] << ": ";
    if (param.isScalar)
      os << ::autoprof::runtime::dtypeName(param.dtype) << " scalar";
    else
      os << param.count << " " << ::autoprof::runtime::dtypeName(param.dtype)
         << " elements, " << ::autoprof::runtime::getBufferRoleName(param.role);
  }
  os << ".\nC declaration of the answer (in this order): "
     << getCudaDeclaration(kernel) << ".\n\n";
  printEvidence(os, context);
  llm::ChatRequest request;
  request.system = kImportedSystemPrompt;
  request.messages.push_back({"user", text});
  return request;
}

/// Takes a CUDA answer's code into `proposal` and compiles it: fails,
/// saying why in `error`, when it does not define `entry` unmangled or does
/// not compile.
static bool acceptCudaAnswer(StringRef code, StringRef entry,
                             CudaCompiler compileCuda, Proposal &proposal,
                             std::string &error) {
  proposal.code = code.str();
  proposal.language = "cuda";
  // The name must be there unmangled for the launch to find it.
  if (!code.contains("extern \"C\"") || !code.contains("__global__") ||
      !code.contains(entry)) {
    error = "the CUDA answer does not define extern \"C\" __global__ void " +
            entry.str();
    return false;
  }
  llvm::Expected<std::string> ptx = compileCuda(code);
  if (!ptx) {
    error = llvm::toString(ptx.takeError());
    return false;
  }
  proposal.ptx = std::move(*ptx);
  proposal.installed = true;
  return true;
}

/// Asks `client` with `request`, once more with the reason when the answer
/// cannot be used (`take` says why, or installs it and returns true).
static llvm::Expected<Proposal> askWithRepair(
    const llm::ChatClient &client, llm::ChatRequest request,
    llvm::function_ref<bool(const llm::CodeBlock &, Proposal &, std::string &)>
        take,
    StringRef again) {
  Proposal proposal;
  for (int round = 0; round < 2; ++round) {
    llvm::Expected<llm::ChatResponse> response = client.complete(request);
    if (!response)
      return response.takeError();
    proposal.promptTokens += response->promptTokens;
    proposal.completionTokens += response->completionTokens;
    proposal.latencySeconds += response->latencySeconds;
    proposal.fromCache = response->fromCache;
    proposal.repaired = round == 1;

    std::string error;
    llvm::Expected<llm::CodeBlock> block =
        llm::extractCodeBlock(response->text);
    if (!block)
      error = llvm::toString(block.takeError());
    else if (take(*block, proposal, error))
      return proposal;
    proposal.rejection = error;
    // One repair round: show the model what was wrong.
    request.messages.push_back({"assistant", response->text});
    request.messages.push_back(
        {"user", "That answer cannot be used: " + error + ". " + again.str()});
  }
  return proposal;
}

llvm::Expected<Proposal> mlir::autoprof::proposeImportedWithModel(
    const llm::ChatClient &client, const ImportedKernel &kernel,
    StringRef cudaSource, StringRef ptx, const ProposalContext &context,
    CudaCompiler compileCuda) {
  auto take = [&](const llm::CodeBlock &block, Proposal &proposal,
                  std::string &error) {
    if (block.language == llm::CodeLanguage::MLIR) {
      proposal.code = block.code;
      proposal.language = "mlir";
      error = "the kernel is known only as " +
              std::string(cudaSource.empty() ? "PTX" : "CUDA C++") +
              ", so the answer must be CUDA C++, not MLIR";
      return false;
    }
    return acceptCudaAnswer(block.code, kernel.entry, compileCuda, proposal,
                            error);
  };
  return askWithRepair(
      client, buildImportedKernelPrompt(kernel, cudaSource, ptx, context), take,
      "Answer again with exactly one ```cuda block defining " +
          getCudaDeclaration(kernel) + ".");
}

LogicalResult mlir::autoprof::installKernel(ModuleOp variant,
                                            StringRef moduleName,
                                            StringRef kernelName,
                                            StringRef code,
                                            std::string &error) {
  MLIRContext *context = variant.getContext();
  // The model's mistakes are the candidate's, not the user's: collect them.
  std::string diagnostics;
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(diagnostics);
      os << (diagnostics.empty() ? "" : "; ") << diag.getLocation() << ": "
         << diag.str();
    }
    return success();
  });
  std::string source =
      code.contains("gpu.module")
          ? code.str()
          : ("gpu.module @autoprof_candidate {\n" + code + "\n}\n").str();
  if (std::optional<std::string> why = ::autoprof::checkSourceNesting(source)) {
    error = "the answer does not parse: " + *why;
    return failure();
  }
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(source, ParserConfig(context), "answer");
  if (!parsed) {
    error = "the answer does not parse: " + diagnostics;
    return failure();
  }
  gpu::GPUFuncOp candidate;
  parsed->walk([&](gpu::GPUFuncOp func) {
    if (func.getName() == kernelName)
      candidate = func;
  });
  if (!candidate) {
    error = "the answer has no gpu.func named @" + kernelName.str();
    return failure();
  }
  gpu::GPUFuncOp original;
  gpu::GPUModuleOp target;
  for (auto gpuModule : variant.getOps<gpu::GPUModuleOp>())
    if (gpuModule.getName() == moduleName) {
      target = gpuModule;
      original = gpuModule.lookupSymbol<gpu::GPUFuncOp>(kernelName);
    }
  if (!original) {
    error = "internal: no kernel @" + kernelName.str() + " to replace";
    return failure();
  }
  if (candidate.getFunctionType() != original.getFunctionType() ||
      !candidate.isKernel()) {
    std::string expected, actual;
    llvm::raw_string_ostream(expected) << original.getFunctionType();
    llvm::raw_string_ostream(actual) << candidate.getFunctionType();
    error = "the answer's kernel has signature " + actual + " (" +
            (candidate.isKernel() ? "" : "not a kernel, ") + "expected " +
            expected + ")";
    return failure();
  }
  OpBuilder builder(original);
  Operation *replacement = builder.clone(*candidate);
  original.erase();
  if (failed(verify(target))) {
    error = "the answer's kernel does not verify: " + diagnostics;
    replacement->erase();
    return failure();
  }
  uninstallCudaKernel(variant, moduleName, kernelName);
  return success();
}

llvm::Expected<Proposal> mlir::autoprof::proposeWithModel(
    const llm::ChatClient &client, ModuleOp variant, StringRef moduleName,
    StringRef kernelName, const ProposalContext &context,
    CudaCompiler compileCuda) {
  gpu::GPUFuncOp kernel;
  for (auto gpuModule : variant.getOps<gpu::GPUModuleOp>())
    if (gpuModule.getName() == moduleName)
      kernel = gpuModule.lookupSymbol<gpu::GPUFuncOp>(kernelName);
  gpu::LaunchFuncOp launch;
  variant.walk([&](gpu::LaunchFuncOp op) {
    if (!launch && op.getKernelModuleName() == moduleName &&
        op.getKernelName() == kernelName)
      launch = op;
  });
  auto take = [&](const llm::CodeBlock &block, Proposal &proposal,
                  std::string &error) {
    if (block.language == llm::CodeLanguage::CUDA)
      return acceptCudaAnswer(block.code, kernelName, compileCuda, proposal,
                              error);
    proposal.code = block.code;
    proposal.language = "mlir";
    if (failed(installKernel(variant, moduleName, kernelName, block.code,
                             error)))
      return false;
    proposal.installed = true;
    return true;
  };
  return askWithRepair(client, buildKernelPrompt(kernel, launch, context), take,
                       "Answer again with exactly one ```mlir block holding "
                       "the complete gpu.func @" +
                           kernelName.str() +
                           " with the same signature, or one ```cuda block "
                           "defining " +
                           getCudaDeclaration(kernel) + ".");
}

llvm::json::Object mlir::autoprof::Proposal::toDetails() const {
  llvm::json::Object details{{"prompt_tokens", promptTokens},
                             {"completion_tokens", completionTokens},
                             {"latency_s", latencySeconds},
                             {"from_cache", fromCache},
                             {"repaired", repaired}};
  if (!code.empty()) {
    details["language"] = language;
    details["text"] = code;
  }
  return details;
}
