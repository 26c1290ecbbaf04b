//===- GpuTarget.cpp - What the rewrites assume of a GPU ------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The figures come from NVIDIA's CUDA C++ Programming Guide ("Technical
// Specifications per Compute Capability") and each part's data sheet.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Target/GpuTarget.h"

using namespace mlir::autoprof;

namespace {
constexpr int64_t KiB = 1024;

const GpuTarget kTargets[] = {
    // chip, part, SMs, threads per SM, per block, registers per SM, per
    // block, per thread, static shared memory per block, per SM.
    {"sm_80", "A100", 108, 2048, 1024, 65536, 65536, 255, 48 * KiB,
     164 * KiB},
    {"sm_86", "RTX 3090", 82, 1536, 1024, 65536, 65536, 255, 48 * KiB,
     100 * KiB},
    {"sm_89", "L40S", 142, 1536, 1024, 65536, 65536, 255, 48 * KiB,
     100 * KiB},
    {"sm_90", "H100 or H200", 132, 2048, 1024, 65536, 65536, 255, 48 * KiB,
     228 * KiB},
    {"sm_100", "B200", 148, 2048, 1024, 65536, 65536, 255, 48 * KiB,
     228 * KiB},
};
} // namespace

llvm::ArrayRef<GpuTarget> mlir::autoprof::getGpuTargets() { return kTargets; }

const GpuTarget *mlir::autoprof::findGpuTarget(llvm::StringRef chip) {
  // sm_90a and sm_100f name the chips of sm_90 and sm_100.
  llvm::StringRef base = chip.rtrim("af");
  for (const GpuTarget &target : kTargets)
    if (target.chip == base)
      return &target;
  return nullptr;
}

std::string mlir::autoprof::listGpuTargets() {
  std::string list;
  for (const GpuTarget &target : kTargets)
    list += (list.empty() ? "" : ", ") + target.chip.str();
  return list;
}

const GpuTarget &mlir::autoprof::getDefaultGpuTarget() {
  return *findGpuTarget("sm_90");
}
