//===- NormalizeKernels.h - The canonical form of launched kernels -*- C++ -*-//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Upstream GPU pipelines spell a kernel's indices through affine.apply over
// arguments that every launch feeds the same constant (loop steps, bounds,
// tile sizes). Normalization brings such a module into one canonical form
// (constants sunk into kernels, affine lowered, canonicalized, launch sizes
// recorded, host loops around launches marked) so that the analyses and the
// rewrites see one spelling. It never changes what the module computes.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TRANSFORMS_NORMALIZEKERNELS_H
#define AUTOPROF_TRANSFORMS_NORMALIZEKERNELS_H

#include "autoprof/Analysis/KernelFeatures.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::autoprof {

/// Normalizes every launched kernel of `module` in place (see the
/// autoprof-normalize-kernels pass). Fails with a diagnostic only when the
/// canonicalization pipeline itself fails.
LogicalResult normalizeKernels(ModuleOp module);

/// A normalized copy of a module, with the counterparts of the original's
/// kernels and launches (kernels by symbol, launches in module order).
struct NormalizedCopy {
  OwningOpRef<ModuleOp> module;
  llvm::DenseMap<Operation *, gpu::GPUFuncOp> kernels;
  llvm::DenseMap<Operation *, gpu::LaunchFuncOp> launches;
};

/// Clones `module` and normalizes the clone: what the features and profile
/// passes analyze instead of the module they leave unchanged.
FailureOr<NormalizedCopy> normalizeCopy(ModuleOp module);

/// The features of `kernel` as `launch` runs it, computed on their
/// counterparts in `copy` (on the originals when the copy has none).
FailureOr<KernelFeatures> computeNormalizedFeatures(const NormalizedCopy &copy,
                                                    gpu::GPUFuncOp kernel,
                                                    gpu::LaunchFuncOp launch);

/// Sets `known_block_size` and `known_grid_size` of `kernel` to the constant
/// sizes every launch in `module` shares, and removes them when the launches
/// do not share one (a rewrite that changed the launches calls this, so that
/// the ranges the lowering derives from them stay true).
void recordKnownLaunchSizes(ModuleOp module, gpu::GPUFuncOp kernel);

} // namespace mlir::autoprof

#endif // AUTOPROF_TRANSFORMS_NORMALIZEKERNELS_H
