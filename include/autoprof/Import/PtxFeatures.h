//===- PtxFeatures.h - Kernel features of an imported kernel ----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The features (docs/kernel-features.md) a kernel known only as PTX has:
// those of the schema marked `fromPtx`, from its launch (grid, block,
// dynamic shared memory, parameter bytes) and its PTX (shared and local
// declarations, the widest vector global access). The per-thread operation
// counts need loop trip counts, which PTX does not state: they are absent,
// and the profiling tree's splits on them take their `missing` branch.
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
