//===- Passes.h - AutoProf passes -------------------------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TRANSFORMS_PASSES_H
#define AUTOPROF_TRANSFORMS_PASSES_H

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::autoprof {

#define GEN_PASS_DECL
#include "autoprof/Transforms/Passes.h.inc"

/// Registers what lowering GPU kernels to PTX needs beyond the dialects: the
/// ConvertToLLVM interfaces the conversions find their patterns through, the
/// NVVM target and the LLVM IR translations used to serialize.
void registerPTXLoweringExtensions(DialectRegistry &registry);

#define GEN_PASS_REGISTRATION
#include "autoprof/Transforms/Passes.h.inc"

} // namespace mlir::autoprof

#endif // AUTOPROF_TRANSFORMS_PASSES_H
