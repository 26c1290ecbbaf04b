//===- LaunchSpec.cpp - Launch spec checks --------------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Checks a launch spec against the device before anything runs: sizes,
// parameters, buffers, repeated launches (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

using namespace autoprof::runtime;

//===----------------------------------------------------------------------===//
// Launch spec helpers
//===----------------------------------------------------------------------===//

namespace {

const char *dimName(int i) { return i == 0 ? "x" : i == 1 ? "y" : "z"; }

} // namespace

//===----------------------------------------------------------------------===//
// Launch spec check
//===----------------------------------------------------------------------===//

autoprof_status autoprof::runtime::checkLaunchSpec(
    autoprof_session *session, autoprof_kernel *kernel,
    const autoprof_launch_spec *spec, unsigned memoryFactor) {
  if (!kernel)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "no kernel given");
  if (!spec)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "no launch spec given for kernel '%s'",
                    kernel->entry.c_str());
  const char *name = kernel->entry.c_str();
  if (spec->num_params > 0 && !spec->params)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "the launch spec of kernel '%s' has %zu parameters but "
                    "no parameter array",
                    name, spec->num_params);
  const CudaApi &api = cuda();

  // Block and grid.
  int kernelMaxThreads = 0;
  if (CUresult r = api.cuFuncGetAttribute(
          &kernelMaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
          kernel->function))
    return cudaFailure(session, r, "cannot read the kernel's thread limit");
  uint64_t blockThreads = 1;
  for (int i = 0; i < 3; ++i) {
    if (spec->block[i] == 0)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "block dimension %s of kernel '%s' is 0; every grid "
                      "and block dimension must be at least 1",
                      dimName(i), name);
    if (spec->block[i] > static_cast<unsigned>(session->maxBlockDim[i]))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "block dimension %s of kernel '%s' is %u but the "
                      "device allows at most %d",
                      dimName(i), name, spec->block[i],
                      session->maxBlockDim[i]);
    if (spec->grid[i] == 0)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "grid dimension %s of kernel '%s' is 0; every grid and "
                      "block dimension must be at least 1",
                      dimName(i), name);
    if (spec->grid[i] > static_cast<unsigned>(session->maxGridDim[i]))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "grid dimension %s of kernel '%s' is %u but the device "
                      "allows at most %d",
                      dimName(i), name, spec->grid[i], session->maxGridDim[i]);
    blockThreads *= spec->block[i];
  }
  if (blockThreads > static_cast<uint64_t>(kernelMaxThreads))
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "the block of kernel '%s' has %llu threads (%ux%ux%u) but "
                    "the kernel allows at most %d per block (device limit "
                    "%d; registers and .maxntid lower it)",
                    name, static_cast<unsigned long long>(blockThreads),
                    spec->block[0], spec->block[1], spec->block[2],
                    kernelMaxThreads, session->maxThreadsPerBlock);

  // Shared memory.
  int staticShared = 0;
  if (CUresult r = api.cuFuncGetAttribute(
          &staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel->function))
    return cudaFailure(session, r, "cannot read the kernel's shared memory");
  uint64_t sharedTotal =
      static_cast<uint64_t>(staticShared) + spec->dynamic_shared_bytes;
  if (sharedTotal > static_cast<uint64_t>(session->maxSharedPerBlockOptin))
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "kernel '%s' needs %llu bytes of shared memory per block "
                    "(%d static + %u dynamic) but the device allows at most "
                    "%d (with opt-in)",
                    name, static_cast<unsigned long long>(sharedTotal),
                    staticShared, spec->dynamic_shared_bytes,
                    session->maxSharedPerBlockOptin);
  if (sharedTotal > static_cast<uint64_t>(session->maxSharedPerBlock)) {
    if (CUresult r = api.cuFuncSetAttribute(
            kernel->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            static_cast<int>(spec->dynamic_shared_bytes))) {
      std::string what = "cannot opt kernel '" + kernel->entry + "' into " +
                         std::to_string(spec->dynamic_shared_bytes) +
                         " bytes of dynamic shared memory";
      return cudaFailure(session, r, what.c_str());
    }
  }

  // Parameters.
  uint64_t totalBytes = 0;
  for (size_t i = 0; i < spec->num_params; ++i) {
    const autoprof_param &param = spec->params[i];
    if (!isValidDtype(param.dtype))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "parameter %zu of kernel '%s' has an invalid element "
                      "type (%d)",
                      i, name, static_cast<int>(param.dtype));
    if (param.is_scalar)
      continue;
    if (!isValidRole(param.role))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "buffer parameter %zu of kernel '%s' has an invalid "
                      "role (%d)",
                      i, name, static_cast<int>(param.role));
    if (param.count == 0)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "buffer parameter %zu of kernel '%s' has 0 elements", i,
                      name);
    size_t size = dtypeSize(param.dtype);
    if (param.count > std::numeric_limits<uint64_t>::max() / size / 4 ||
        param.count * size >
            std::numeric_limits<uint64_t>::max() / 4 - totalBytes)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "buffer parameter %zu of kernel '%s' has %llu elements, "
                      "too many to address",
                      i, name, static_cast<unsigned long long>(param.count));
    if (param.index_bound > 0 && !isFloatType(param.dtype) &&
        static_cast<uint64_t>(param.index_bound) - 1 > integerMax(param.dtype))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "buffer parameter %zu of kernel '%s' has index bound "
                      "%lld, which does not fit its element type %s",
                      i, name, static_cast<long long>(param.index_bound),
                      dtypeName(param.dtype));
    if (ValueRangeError error = checkValueRange(param);
        error != ValueRangeError::None)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "buffer parameter %zu of kernel '%s' (%s) has the value "
                      "range [%.9g, %.9g]: %s",
                      i, name, dtypeName(param.dtype), param.range_low,
                      param.range_high, describe(error));
    totalBytes += param.count * size;
  }

  // A repeated launch varies one integer scalar, within its type.
  if (spec->repeat_count > 1) {
    if (spec->repeat_count > MaxRepeatCount)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the launch of kernel '%s' repeats %llu times; at most "
                      "%llu repetitions are supported",
                      name, static_cast<unsigned long long>(spec->repeat_count),
                      static_cast<unsigned long long>(MaxRepeatCount));
    if (spec->repeat_param >= spec->num_params ||
        !spec->params[spec->repeat_param].is_scalar ||
        isFloatType(spec->params[spec->repeat_param].dtype))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the repeated launch of kernel '%s' varies parameter "
                      "%zu, which is not an integer scalar of its %zu "
                      "parameters",
                      name, spec->repeat_param, spec->num_params);
    double low = 0, high = 0;
    integerRange(spec->params[spec->repeat_param].dtype, low, high);
    double first = static_cast<double>(spec->repeat_start);
    double last = first + static_cast<double>(spec->repeat_count - 1) *
                              static_cast<double>(spec->repeat_step);
    if (std::min(first, last) < low || std::max(first, last) > high)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the repeated launch of kernel '%s' passes parameter "
                      "%zu values from %lld in steps of %lld, which leave "
                      "its type %s",
                      name, spec->repeat_param,
                      static_cast<long long>(spec->repeat_start),
                      static_cast<long long>(spec->repeat_step),
                      dtypeName(spec->params[spec->repeat_param].dtype));
  }

  // The kernel's own parameter list, when the driver can tell it (12.4+).
  if (api.cuFuncGetParamInfo) {
    size_t offset = 0, paramSize = 0;
    for (size_t i = 0; i < spec->num_params; ++i) {
      CUresult r =
          api.cuFuncGetParamInfo(kernel->function, i, &offset, &paramSize);
      if (r == CUDA_ERROR_INVALID_VALUE)
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "kernel '%s' takes %zu parameters but the launch "
                        "spec has %zu",
                        name, i, spec->num_params);
      if (r != CUDA_SUCCESS)
        break; // Not supported for this module: skip the check.
      const autoprof_param &param = spec->params[i];
      size_t expected =
          param.is_scalar ? dtypeSize(param.dtype) : sizeof(CUdeviceptr);
      if (paramSize != expected)
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "parameter %zu of kernel '%s' is %zu bytes but the "
                        "launch spec passes a %s of %zu bytes",
                        i, name, paramSize,
                        param.is_scalar ? dtypeName(param.dtype)
                                        : "buffer pointer",
                        expected);
    }
    if (api.cuFuncGetParamInfo(kernel->function, spec->num_params, &offset,
                               &paramSize) == CUDA_SUCCESS) {
      size_t actual = spec->num_params + 1;
      while (api.cuFuncGetParamInfo(kernel->function, actual, &offset,
                                    &paramSize) == CUDA_SUCCESS &&
             actual < 4096)
        ++actual;
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "kernel '%s' takes %zu parameters but the launch spec "
                      "has %zu",
                      name, actual, spec->num_params);
    }
  }

  // Memory.
  size_t freeBytes = 0, totalDevice = 0;
  if (CUresult r = api.cuMemGetInfo(&freeBytes, &totalDevice))
    return cudaFailure(session, r, "cannot read free device memory");
  uint64_t needed = totalBytes * memoryFactor;
  if (needed >= freeBytes)
    return setError(session, AUTOPROF_ERROR_OUT_OF_MEMORY,
                    "the buffers of kernel '%s' need %llu bytes%s but only "
                    "%zu of %zu bytes of device memory are free",
                    name, static_cast<unsigned long long>(needed),
                    memoryFactor > 1 ? " (counting every copy)" : "", freeBytes,
                    totalDevice);
  return AUTOPROF_OK;
}
