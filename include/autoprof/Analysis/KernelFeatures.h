//===- KernelFeatures.h - Static features of GPU kernels --------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Computes the static features of a `gpu.func` kernel and its host launch
// (docs/kernel-features.md): launch geometry, memory footprint, per-thread operation
// counts weighted by constant loop trip counts, loop structure, and derived
// estimates such as arithmetic intensity. The names and ranges are those of
// FeatureSchema.h.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_ANALYSIS_KERNELFEATURES_H
#define AUTOPROF_ANALYSIS_KERNELFEATURES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"

#include <optional>

namespace mlir::autoprof {

/// Name of the attribute that carries a kernel's features.
constexpr StringLiteral kFeaturesAttrName = "autoprof.features";

/// The feature values of one kernel, keyed by schema name.
class KernelFeatures {
public:
  /// Computes the features of `kernel`; `launch` is its host launch, or null
  /// when the module never launches it (then launch-dependent features are
  /// absent). Emits a diagnostic and fails on kernels the analysis cannot
  /// model: dynamic shapes, unsupported ops, non-constant launch sizes.
  static FailureOr<KernelFeatures> compute(gpu::GPUFuncOp kernel,
                                           gpu::LaunchFuncOp launch);

  /// The value of a feature, or nothing when it is absent.
  std::optional<double> lookup(StringRef name) const;

  /// Sets a feature; `name` must be in the schema.
  void set(StringRef name, double value);

  /// The features as a dictionary: integral features as i64, others as f64.
  DictionaryAttr toAttr(MLIRContext *context) const;

private:
  llvm::MapVector<StringRef, double> values;
};

/// Every kernel's host launches in `module`, in walk order (the order the
/// host code holds them), keyed by the gpu.func.
using KernelLaunchLists =
    llvm::DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>>;
KernelLaunchLists findAllKernelLaunches(ModuleOp module);

/// The first host launch of every kernel in `module`, in walk order.
llvm::DenseMap<Operation *, gpu::LaunchFuncOp>
findKernelLaunches(ModuleOp module);

} // namespace mlir::autoprof

#endif // AUTOPROF_ANALYSIS_KERNELFEATURES_H
