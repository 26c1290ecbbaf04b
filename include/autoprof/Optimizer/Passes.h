//===- Passes.h - AutoProf optimizer passes ---------------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_PASSES_H
#define AUTOPROF_OPTIMIZER_PASSES_H

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/LLM/ChatClient.h"
#include "autoprof/Optimizer/CandidateProposer.h"
#include "autoprof/Optimizer/Precision.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::autoprof {

/// Who proposes the optimize pass's candidates.
enum class ProposerKind {
  /// The built-in rewrites (createBuiltinProposer).
  Builtin,
  /// A chat model (createModelProposer).
  Model,
};

/// Which compute-sanitizer tools a would-be winner runs under.
enum class SanitizeMode {
  None,
  Memcheck,
  Racecheck,
  /// memcheck, then racecheck.
  All,
};

#define GEN_PASS_DECL
#include "autoprof/Optimizer/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "autoprof/Optimizer/Passes.h.inc"

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_PASSES_H
