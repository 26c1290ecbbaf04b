//===- GpuTurn.h - One worker at a time on a shared GPU ---------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Workers that share a GPU (the worker pool, scripts/worker-pool.py, starts
// several per GPU) take turns on it: each prepares beside the others (process
// start, GPU context, kernel loads and JIT compilation, which run on the CPU)
// and holds the GPU's lock file for everything it runs on the GPU
// (verification, timing, profiling, teardown), so that no measurement
// overlaps another worker's kernels or copies. The lock is flock(2)'s, taken
// on a file the pool names in AUTOPROF_GPU_LOCK; the kernel releases it when
// a worker dies.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_RUNTIME_GPUTURN_H
#define AUTOPROF_RUNTIME_GPUTURN_H

#include "llvm/Support/Error.h"

#include <string>

namespace autoprof::runtime {

/// The environment variable naming the lock file of the worker's GPU.
inline constexpr const char *kGpuLockVariable = "AUTOPROF_GPU_LOCK";

/// A worker's turn on its GPU: the lock file it takes before running on the
/// GPU and gives back after, or nothing when the GPU is its own.
class GpuTurn {
public:
  /// A turn on the lock file `lockPath`; an empty path: the GPU is the
  /// worker's alone, taking it never waits.
  explicit GpuTurn(std::string lockPath) : lockPath(std::move(lockPath)) {}
  /// The turn of the lock file named by AUTOPROF_GPU_LOCK, if set.
  static GpuTurn fromEnvironment();
  GpuTurn(const GpuTurn &) = delete;
  GpuTurn &operator=(const GpuTurn &) = delete;
  ~GpuTurn() { give(); }

  /// Blocks until the GPU is this worker's (the lock file opened, created if
  /// missing, and locked); returns the seconds it waited. Taking a turn
  /// already held returns 0 at once. Fails with the path and the system's
  /// reason when the file cannot be opened or locked.
  llvm::Expected<double> take();
  /// Gives the GPU back (nothing when not held).
  void give();
  bool held() const { return fd >= 0; }
  llvm::StringRef path() const { return lockPath; }

private:
  std::string lockPath;
  int fd = -1;
};

} // namespace autoprof::runtime

#endif // AUTOPROF_RUNTIME_GPUTURN_H
