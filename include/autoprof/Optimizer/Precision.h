//===- Precision.h - The precision a candidate computes in ------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A candidate may compute in a lower precision than the original and still
// pass a tolerance: f32 products as tf32 or f16, f64 as f32, an f32
// accumulation of f16 products done in f16. The precision policy compares
// the least precise formats of both kernels' products and accumulations
// (PtxMathPrecision, from their PTX) and rejects a candidate below the
// original's unless the user allowed that format (`precision=`). TF32 is
// never allowed by default. The baseline is always the original kernel at
// its own precision.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_PRECISION_H
#define AUTOPROF_OPTIMIZER_PRECISION_H

#include "autoprof/Import/PtxInstructions.h"
#include "autoprof/Runtime/Job.h"

#include <optional>
#include <string>

namespace mlir::autoprof {

/// The formats a candidate may compute in below the original's.
enum class PrecisionPolicy {
  /// None: the original's least precise formats are the floor.
  Same,
  /// Down to tf32 (f32's range, f16's mantissa).
  TF32,
  /// Down to f16 (and tf32, which is as precise in both respects).
  F16,
  /// Down to bf16.
  BF16,
};

/// The policy's name in the `precision=` option ("same", "tf32", ...).
llvm::StringRef stringifyPrecisionPolicy(PrecisionPolicy policy);

/// The format `policy` allows below the original's, if any.
std::optional<FloatFormat> getAllowedFormat(PrecisionPolicy policy);

/// The least precise formats of the arithmetic of `kernel`'s entry, where
/// its code is PTX (nothing for CUDA C++ or cubin code).
std::optional<PtxMathPrecision>
getKernelPrecision(const ::autoprof::runtime::JobKernel &kernel);

/// The least precise formats of a kernel's products' operands, of what its
/// products are rounded to, and of its accumulations ("f32", "f16", ...;
/// empty where it has none), for reports.
struct MathFormats {
  std::string productOperands;
  std::string products;
  std::string accumulations;
};
/// Those of `kernel`, where its code is PTX.
std::optional<MathFormats>
getKernelMath(const ::autoprof::runtime::JobKernel &kernel);

/// Why `candidate` computes in a lower precision than `reference` allows
/// under `policy` ("its products are f16 where the original's are f32 at
/// the least; precision=f16 allows it"), or an empty string where it does
/// not, or where either kernel's code is not PTX (a cubin; a CUDA C++
/// candidate reaches the search as the PTX NVRTC made of it).
std::string checkPrecision(const ::autoprof::runtime::JobKernel &reference,
                           const ::autoprof::runtime::JobKernel &candidate,
                           PrecisionPolicy policy);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_PRECISION_H
