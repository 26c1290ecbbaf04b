//===- answer-fuzzer.cpp - Fuzzes reading a model's answer ----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for what the LLM proposer does with a model's answer:
// each input is an answer, its one code block is extracted, and an MLIR
// block is installed as the replacement of @kernels::@scale in a small fixed
// module. An installed kernel must leave a module that verifies and prints.
// Diagnostics are captured, never printed.
//
//===----------------------------------------------------------------------===//

#include "autoprof/InitAll.h"
#include "autoprof/LLM/CodeBlock.h"
#include "autoprof/Optimizer/LLMProposer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;
using namespace mlir::autoprof;

/// The module an answer's kernel is installed into: one kernel and its
/// launch, as the LLM proposer's tests use.
static const char kVariant[] = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4096xf32>
      %two = arith.constant 2.000000e+00 : f32
      %r = arith.mulf %v, %two : f32
      memref.store %r, %y[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<4096xf32>
    %y = memref.alloc() : memref<4096xf32>
    gpu.launch_func @kernels::@scale blocks in (%c16, %c1, %c1)
        threads in (%c256, %c1, %c1)
        args(%x : memref<4096xf32>, %y : memref<4096xf32>)
    return
  }
}
)mlir";

/// The registry every AutoProf tool uses, built once.
static const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *result = new DialectRegistry;
    registerAllDialects(*result);
    return result;
  }();
  return *registry;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef answer(reinterpret_cast<const char *>(data), size);
  llvm::Expected<::autoprof::llm::CodeBlock> block =
      ::autoprof::llm::extractCodeBlock(answer);
  if (!block) {
    llvm::consumeError(block.takeError());
    return 0;
  }
  // CUDA answers go to NVRTC through the worker, which is not fuzzed here.
  if (block->language == ::autoprof::llm::CodeLanguage::CUDA)
    return 0;

  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler swallow(&context,
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> variant =
      parseSourceString<ModuleOp>(kVariant, ParserConfig(&context), "variant");
  if (!variant) {
    llvm::errs() << "answer-fuzzer: the fixed module does not parse\n";
    std::abort();
  }
  std::string error;
  if (failed(installKernel(*variant, "kernels", "scale", block->code, error)))
    return 0;
  if (failed(verify(*variant))) {
    llvm::errs() << "answer-fuzzer: installKernel accepted a kernel that "
                    "leaves the module invalid\n";
    std::abort();
  }
  std::string printed;
  llvm::raw_string_ostream os(printed);
  variant->print(os);
  return 0;
}
