//===- GpuTurn.cpp - One worker at a time on a shared GPU -----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/GpuTurn.h"

#include "llvm/Support/Errno.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace autoprof::runtime;

GpuTurn GpuTurn::fromEnvironment() {
  const char *path = std::getenv(kGpuLockVariable);
  return GpuTurn(path ? path : "");
}

llvm::Expected<double> GpuTurn::take() {
  if (lockPath.empty() || held())
    return 0.0;
  auto start = std::chrono::steady_clock::now();
  int opened = llvm::sys::RetryAfterSignal(-1, [&] {
    return ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  });
  if (opened < 0)
    return llvm::createStringError(
        llvm::errnoAsErrorCode(),
        "cannot open the GPU's lock file '%s' (%s): %s", lockPath.c_str(),
        kGpuLockVariable, std::strerror(errno));
  if (llvm::sys::RetryAfterSignal(-1, ::flock, opened, LOCK_EX) != 0) {
    int error = errno;
    ::close(opened);
    return llvm::createStringError(
        std::error_code(error, std::generic_category()),
        "cannot lock the GPU's lock file '%s' (%s): %s", lockPath.c_str(),
        kGpuLockVariable, std::strerror(error));
  }
  fd = opened;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void GpuTurn::give() {
  if (!held())
    return;
  // Closing the only descriptor of the open file releases its lock.
  ::close(fd);
  fd = -1;
}
