//===- CudaApi.h - Dynamically loaded CUDA driver, NVRTC, NVML --*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The runtime shim builds from the CUDA headers alone: libcuda, libnvrtc and
// libnvidia-ml are opened with dlopen on first use and their functions are
// resolved with dlsym under the (versioned) names the CUDA 13 headers map
// the plain names to, e.g. `cuMemAlloc` resolves `cuMemAlloc_v2`.
//
// Members of CudaApi and NvrtcApi are named like the functions they point to,
// so `api.cuMemAlloc(&ptr, bytes)` reads like a direct call (cuda.h's macros
// rename the member and the symbol consistently).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_RUNTIME_CUDA_CUDAAPI_H
#define AUTOPROF_LIB_RUNTIME_CUDA_CUDAAPI_H

#include <cuda.h>
#include <nvrtc.h>

#include <cstddef>
#include <string>

namespace autoprof::runtime {

/// Driver functions the shim needs; every one must resolve.
#define AUTOPROF_CUDA_REQUIRED_FUNCTIONS(X)                                    \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDeviceGetPCIBusId)                                                       \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxPopCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemGetInfo)                                                              \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemcpyDtoHAsync)                                                         \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD8Async)                                                           \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)

/// Driver functions that may be absent in older drivers; null when missing.
#define AUTOPROF_CUDA_OPTIONAL_FUNCTIONS(X) X(cuFuncGetParamInfo)

/// NVRTC functions; every one must resolve.
#define AUTOPROF_NVRTC_FUNCTIONS(X)                                            \
  X(nvrtcVersion)                                                              \
  X(nvrtcGetErrorString)                                                       \
  X(nvrtcCreateProgram)                                                        \
  X(nvrtcDestroyProgram)                                                       \
  X(nvrtcCompileProgram)                                                       \
  X(nvrtcGetProgramLogSize)                                                    \
  X(nvrtcGetProgramLog)                                                        \
  X(nvrtcGetCUBINSize)                                                         \
  X(nvrtcGetCUBIN)                                                             \
  X(nvrtcGetPTXSize)                                                           \
  X(nvrtcGetPTX)

#define AUTOPROF_DECLARE_FUNCTION_POINTER(name)                                \
  decltype(&::name) name = nullptr;

/// The CUDA driver API, resolved from libcuda.so.1. cuInit(0) has succeeded
/// once an instance is handed out by loadCudaApi().
struct CudaApi {
  AUTOPROF_CUDA_REQUIRED_FUNCTIONS(AUTOPROF_DECLARE_FUNCTION_POINTER)
  AUTOPROF_CUDA_OPTIONAL_FUNCTIONS(AUTOPROF_DECLARE_FUNCTION_POINTER)
};

/// NVRTC, resolved from libnvrtc.
struct NvrtcApi {
  AUTOPROF_NVRTC_FUNCTIONS(AUTOPROF_DECLARE_FUNCTION_POINTER)
};

/// The few NVML functions used to read the current SM clock. The types are
/// declared here because the toolkit ships no nvml.h.
struct NvmlApi {
  using Device = struct NvmlDeviceOpaque *;
  /// nvmlReturn_t; 0 is NVML_SUCCESS.
  using Return = int;
  /// nvmlClockType_t values.
  enum ClockType { ClockGraphics = 0, ClockSM = 1, ClockMem = 2 };
  Return (*nvmlInit)() = nullptr;
  Return (*nvmlDeviceGetHandleByPciBusId)(const char *, Device *) = nullptr;
  Return (*nvmlDeviceGetClockInfo)(Device, int, unsigned *) = nullptr;
};

/// Outcome of loading the driver: the API, or why it is unavailable.
struct CudaLoadResult {
  /// Null when libcuda is missing, lacks a required function, or cuInit
  /// failed.
  const CudaApi *api = nullptr;
  /// The result of cuInit(0) (CUDA_SUCCESS when the library did not load).
  CUresult initResult = CUDA_SUCCESS;
  /// A sentence saying what failed; empty on success.
  const char *error = "";
};

/// Loads libcuda.so.1 and calls cuInit(0), once per process (thread safe).
/// Later calls return the same result.
const CudaLoadResult &loadCudaApi();

/// Loads libnvrtc once per process: "libnvrtc.so.13", "libnvrtc.so", then
/// $CUDA_HOME/lib64 and /usr/local/cuda/lib64. Returns null and sets `error`
/// to a sentence naming what was tried when it is unavailable.
const NvrtcApi *loadNvrtcApi(const char **error);

/// Loads libnvidia-ml.so.1 and calls nvmlInit once per process; null when
/// NVML is absent or fails to initialize (clocks then come from the driver).
const NvmlApi *loadNvmlApi();

/// Opens the first library of `names` that dlopen finds, trying each bare
/// name (the loader's search path) and then each name under $CUDA_HOME/<dir>
/// and /usr/local/cuda/<dir> for every dir of `subdirs`. Returns the handle
/// or null; `tried` receives a list of what was tried and dlerror() of the
/// last attempt. Useful for libcupti (subdirs "lib64",
/// "extras/CUPTI/lib64").
void *openLibrary(const char *const *names, size_t numNames,
                  const char *const *subdirs, size_t numSubdirs,
                  std::string &tried);

/// "CUDA_ERROR_X (description)" for a driver result; works without a driver.
std::string describeCudaResult(CUresult result);

} // namespace autoprof::runtime

#endif // AUTOPROF_LIB_RUNTIME_CUDA_CUDAAPI_H
