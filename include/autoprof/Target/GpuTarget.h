//===- GpuTarget.h - What the rewrites assume of a GPU ----------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The hardware limits and sizes the rewrite families and their rankings
// rest on, per chip: SMs, resident threads, registers and shared memory.
// One description per chip (lib/Target/GpuTarget.cpp) instead of constants
// in each family. A measured figure (launch__sm_count, the warps an SM
// holds) still takes precedence where a profile collected it.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TARGET_GPUTARGET_H
#define AUTOPROF_TARGET_GPUTARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::autoprof {

/// What the rewrites assume of the GPU a kernel runs on.
struct GpuTarget {
  /// The compute capability as PTX names it ("sm_90").
  llvm::StringRef chip;
  /// The part whose SM count this is (a chip's parts differ in SMs only).
  llvm::StringRef part;
  int64_t multiprocessors;
  /// Threads an SM holds at once, and a block at most.
  int64_t threadsPerMultiprocessor;
  int64_t maxThreadsPerBlock;
  /// 32-bit registers of an SM, of a block at most, and of a thread at
  /// most.
  int64_t registersPerMultiprocessor;
  int64_t registersPerBlock;
  int64_t maxRegistersPerThread;
  /// Shared memory a block may declare statically (without opting in to
  /// more), and an SM's.
  int64_t staticSharedPerBlock;
  int64_t sharedPerMultiprocessor;

  /// Threads all SMs hold at once.
  int64_t getResidentThreadSlots() const {
    return multiprocessors * threadsPerMultiprocessor;
  }
};

/// Every chip described, oldest first.
llvm::ArrayRef<GpuTarget> getGpuTargets();
/// The description of `chip` ("sm_90", "sm_90a": a suffix names the same
/// chip), or null when none is known.
const GpuTarget *findGpuTarget(llvm::StringRef chip);
/// The chip the tools compile for unless told otherwise: sm_90 (an H100
/// or H200).
const GpuTarget &getDefaultGpuTarget();
/// The described chips, for messages: "sm_80, sm_86, ...".
std::string listGpuTargets();

} // namespace mlir::autoprof

#endif // AUTOPROF_TARGET_GPUTARGET_H
