//===- InitAll.h - Register everything AutoProf tools need ------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The one registration point shared by every AutoProf tool and test driver:
// the autoprof dialect and passes, and the upstream dialects, extensions and
// passes a GPU kernel pipeline needs (gpu, nvvm, llvm, arith, math, memref,
// scf, cf, vector, func, index, affine).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INITALL_H
#define AUTOPROF_INITALL_H

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Optimizer/Passes.h"
#include "autoprof/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::autoprof {

/// Registers the dialects and dialect extensions AutoProf tools understand,
/// including what lowering GPU kernels to PTX needs.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<AutoProfDialect, affine::AffineDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, DLTIDialect, func::FuncDialect,
                  gpu::GPUDialect, index::IndexDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, NVVM::NVVMDialect,
                  nvgpu::NVGPUDialect, scf::SCFDialect, ub::UBDialect,
                  vector::VectorDialect>();

  registerPTXLoweringExtensions(registry);
}

/// Registers the AutoProf passes and the upstream passes and pipelines of a
/// GPU kernel compilation flow.
inline void registerAllPasses() {
  registerAutoProfPasses();
  registerAutoProfOptimizerPasses();

  registerTransformsPasses();
  registerGPUPasses();
  gpu::registerGPUToNVVMPipeline();
  affine::registerAffinePasses();
  memref::registerMemRefPasses();
  registerSCFPasses();

  registerArithToLLVMConversionPass();
  registerConvertAffineForToGPUPass();
  registerConvertControlFlowToLLVMPass();
  registerConvertFuncToLLVMPass();
  registerConvertGpuOpsToNVVMOps();
  registerConvertIndexToLLVMPass();
  registerConvertMathToLLVMPass();
  registerConvertNVGPUToNVVMPass();
  registerConvertNVVMToLLVMPass();
  registerConvertParallelLoopToGpuPass();
  registerConvertToLLVMPass();
  registerConvertVectorToLLVMPass();
  registerConvertVectorToSCF();
  registerFinalizeMemRefToLLVMConversionPass();
  registerGpuToLLVMConversionPass();
  registerLowerAffinePass();
  registerReconcileUnrealizedCastsPass();
  registerSCFToControlFlowPass();
}

} // namespace mlir::autoprof

#endif // AUTOPROF_INITALL_H
