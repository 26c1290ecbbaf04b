//===- PtxFeatures.h - Kernel features of an imported kernel ----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The features (docs/kernel-features.md) of a kernel known only as PTX:
// from its launch (grid, block, dynamic shared memory, parameter bytes), its
// PTX's declarations (shared and local memory) and its instructions (the
// widest vector global access, the per-thread operation counts, loops and
// the derived estimates: PtxInstructions.h). PTX states no loop trip
// counts: a loop's body counts once, and the loop counts among
// `unknown_trip_loops`, as for a gpu.func whose loop bounds are not
// constants. A kernel known only as a cubin has the launch's features; the
// others are absent (a profiling tree's splits on them take their `missing`
// branch).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_IMPORT_PTXFEATURES_H
#define AUTOPROF_IMPORT_PTXFEATURES_H

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Import/ImportedKernel.h"

namespace mlir::autoprof {

/// The features of `kernel` that its launch and PTX give.
KernelFeatures computePtxFeatures(const ImportedKernel &kernel);

} // namespace mlir::autoprof

#endif // AUTOPROF_IMPORT_PTXFEATURES_H
