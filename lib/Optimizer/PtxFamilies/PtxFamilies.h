//===- PtxFamilies.h - The PTX-level rewrite families -----------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// One creation function per PTX-level family (PtxRewrite.h), each defined
// in its own file of this folder.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_PTXFAMILIES_PTXFAMILIES_H
#define AUTOPROF_LIB_OPTIMIZER_PTXFAMILIES_PTXFAMILIES_H

#include "autoprof/Optimizer/PtxRewrite.h"

namespace mlir::autoprof::ptx_rewrites {

std::unique_ptr<PtxRewriteFamily> createBlockSizeFamily();
std::unique_ptr<PtxRewriteFamily> createMaxRegistersFamily();
std::unique_ptr<PtxRewriteFamily> createMinBlocksFamily();
std::unique_ptr<PtxRewriteFamily> createFastMathFamily();

/// Threads per block of `launch`.
inline int64_t getBlockThreads(const ::autoprof::runtime::JobLaunch &launch) {
  return int64_t(launch.block[0]) * launch.block[1] * launch.block[2];
}

} // namespace mlir::autoprof::ptx_rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_PTXFAMILIES_PTXFAMILIES_H
