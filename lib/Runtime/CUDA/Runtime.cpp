//===- Runtime.cpp - C ABI of the AutoProf GPU runtime shim ---------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Errors, the driver objects every part holds (contexts, allocations),
// sessions and the peak bandwidth (docs/runtime.md). The other parts of the
// C ABI: LaunchSpec.cpp (launch checks), LaunchBuffers.cpp (device buffers
// and their inputs), Kernels.cpp (loading; CUDA C++ through NVRTC),
// Verification.cpp, Timing.cpp; profiling in CuptiProfiler.cpp.
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
// Errors
//===----------------------------------------------------------------------===//

namespace {

/// Error of the last failed session creation on this thread (trivially
/// constructed, so no global constructor).
thread_local char creationError[4096];

void formatInto(std::string &out, const char *format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (length < 0) {
    out = format;
    return;
  }
  out.resize(static_cast<size_t>(length) + 1);
  std::vsnprintf(&out[0], out.size(), format, args);
  out.resize(static_cast<size_t>(length));
}

} // namespace

autoprof_status autoprof::runtime::setError(autoprof_session *session,
                                            autoprof_status status,
                                            const char *format, ...) {
  std::string message;
  va_list args;
  va_start(args, format);
  formatInto(message, format, args);
  va_end(args);
  if (session) {
    session->lastError = std::move(message);
  } else {
    std::snprintf(creationError, sizeof(creationError), "%s", message.c_str());
  }
  return status;
}

bool autoprof::runtime::isStickyError(CUresult result) {
  switch (result) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    return true;
  default:
    return false;
  }
}

autoprof_status autoprof::runtime::cudaFailure(autoprof_session *session,
                                               CUresult result,
                                               const char *what) {
  autoprof_status status;
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    status = AUTOPROF_ERROR_OUT_OF_MEMORY;
    break;
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_INVALID_DEVICE:
    status = AUTOPROF_ERROR_NO_DEVICE;
    break;
  case CUDA_ERROR_NOT_INITIALIZED:
  case CUDA_ERROR_DEINITIALIZED:
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
  case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
    status = AUTOPROF_ERROR_NO_DRIVER;
    break;
  case CUDA_ERROR_INVALID_VALUE:
  case CUDA_ERROR_INVALID_HANDLE:
  case CUDA_ERROR_NOT_FOUND:
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
  case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
    status = AUTOPROF_ERROR_INVALID_ARGUMENT;
    break;
  default:
    status = AUTOPROF_ERROR_LAUNCH;
    break;
  }
  std::string description = describeCudaResult(result);
  if (isStickyError(result))
    return setError(session, AUTOPROF_ERROR_LAUNCH,
                    "%s: %s; the kernel faulted and the context is unusable",
                    what, description.c_str());
  return setError(session, status, "%s: %s", what, description.c_str());
}

autoprof_status autoprof::runtime::launchFailure(autoprof_session *session,
                                                 CUresult result,
                                                 const char *what) {
  std::string description = describeCudaResult(result);
  return setError(session, AUTOPROF_ERROR_LAUNCH,
                  "%s: %s; the kernel faulted and the context is unusable",
                  what, description.c_str());
}

const CudaApi &autoprof::runtime::cuda() { return *loadCudaApi().api; }

//===----------------------------------------------------------------------===//
// RAII helpers
//===----------------------------------------------------------------------===//

ContextScope::ContextScope(autoprof_session *session)
    : pushResult(cuda().cuCtxPushCurrent(session->context)) {}

ContextScope::~ContextScope() {
  if (pushResult == CUDA_SUCCESS) {
    CUcontext popped = nullptr;
    cuda().cuCtxPopCurrent(&popped);
  }
}

DeviceAllocation::DeviceAllocation(DeviceAllocation &&other) noexcept
    : ptr(other.ptr), bytes(other.bytes) {
  other.ptr = 0;
  other.bytes = 0;
}

DeviceAllocation &
DeviceAllocation::operator=(DeviceAllocation &&other) noexcept {
  if (this != &other) {
    reset();
    ptr = other.ptr;
    bytes = other.bytes;
    other.ptr = 0;
    other.bytes = 0;
  }
  return *this;
}

autoprof_status DeviceAllocation::allocate(autoprof_session *session,
                                           size_t size, const char *what) {
  reset();
  CUresult result = cuda().cuMemAlloc(&ptr, size);
  if (result != CUDA_SUCCESS) {
    ptr = 0;
    std::string context = std::string("cannot allocate ") +
                          std::to_string(size) + " bytes of device memory " +
                          "for " + what;
    return cudaFailure(session, result, context.c_str());
  }
  bytes = size;
  return AUTOPROF_OK;
}

void DeviceAllocation::reset() {
  if (ptr)
    cuda().cuMemFree(ptr); // Errors (e.g. after a fault) are ignored.
  ptr = 0;
  bytes = 0;
}

//===----------------------------------------------------------------------===//
// Sessions
//===----------------------------------------------------------------------===//

namespace {

/// Reads a device attribute; 0 when the driver does not know it.
int deviceAttribute(autoprof_session *session, CUdevice_attribute attribute) {
  int value = 0;
  if (cuda().cuDeviceGetAttribute(&value, attribute, session->device) !=
      CUDA_SUCCESS)
    return 0;
  return value;
}


} // namespace

extern "C" autoprof_status autoprof_session_create(int ordinal,
                                                   autoprof_session **out) {
  if (!out)
    return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_session_create: no output pointer given");
  *out = nullptr;
  const CudaLoadResult &loaded = loadCudaApi();
  if (!loaded.api) {
    bool noDevice = loaded.initResult == CUDA_ERROR_NO_DEVICE;
    return setError(
        nullptr, noDevice ? AUTOPROF_ERROR_NO_DEVICE : AUTOPROF_ERROR_NO_DRIVER,
        "%s", loaded.error);
  }
  const CudaApi &api = *loaded.api;
  int count = 0;
  if (CUresult r = api.cuDeviceGetCount(&count))
    return cudaFailure(nullptr, r, "cannot count CUDA devices");
  if (ordinal < 0 || ordinal >= count)
    return setError(nullptr, AUTOPROF_ERROR_NO_DEVICE,
                    "CUDA device %d does not exist (%d device%s visible)",
                    ordinal, count, count == 1 ? "" : "s");

  auto *session = new (std::nothrow) autoprof_session();
  if (!session)
    return setError(nullptr, AUTOPROF_ERROR_OUT_OF_MEMORY,
                    "cannot allocate a session");
  session->ordinal = ordinal;
  if (CUresult r = api.cuDeviceGet(&session->device, ordinal)) {
    delete session;
    return cudaFailure(nullptr, r, "cannot open the CUDA device");
  }
  if (CUresult r =
          api.cuDevicePrimaryCtxRetain(&session->context, session->device)) {
    delete session;
    return cudaFailure(nullptr, r,
                       "cannot retain the device's primary context");
  }
  {
    ContextScope scope(session);
    CUresult r = scope.result();
    if (r == CUDA_SUCCESS)
      r = api.cuStreamCreate(&session->stream, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS) {
      session->stream = nullptr;
      api.cuDevicePrimaryCtxRelease(session->device);
      delete session;
      return cudaFailure(nullptr, r, "cannot create a stream");
    }
  }

  autoprof_device_facts &facts = session->facts;
  api.cuDeviceGetName(facts.name, sizeof(facts.name), session->device);
  facts.ordinal = ordinal;
  facts.compute_capability_major =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  facts.compute_capability_minor =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  facts.sm_count =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  facts.max_threads_per_sm = deviceAttribute(
      session, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  facts.max_shared_bytes_per_sm = deviceAttribute(
      session, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  facts.l2_bytes = deviceAttribute(session, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  size_t totalMemory = 0;
  api.cuDeviceTotalMem(&totalMemory, session->device);
  facts.global_memory_bytes = static_cast<int64_t>(totalMemory);
  facts.memory_clock_khz =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  facts.memory_bus_width_bits =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  api.cuDriverGetVersion(&facts.driver_version);

  session->maxThreadsPerBlock =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  session->maxBlockDim[0] =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  session->maxBlockDim[1] =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  session->maxBlockDim[2] =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  session->maxGridDim[0] =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  session->maxGridDim[1] =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  session->maxGridDim[2] =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  session->maxSharedPerBlock =
      deviceAttribute(session, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  session->maxSharedPerBlockOptin = std::max(
      session->maxSharedPerBlock,
      deviceAttribute(session,
                      CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  if (api.cuDeviceGetPCIBusId(session->pciBusId, sizeof(session->pciBusId),
                              session->device) != CUDA_SUCCESS)
    session->pciBusId[0] = 0;
  facts.sm_clock_khz = readSmClockKHz(session);
  *out = session;
  return AUTOPROF_OK;
}

extern "C" void autoprof_session_destroy(autoprof_session *session) {
  if (!session)
    return;
  const CudaApi &api = cuda();
  {
    ContextScope scope(session);
    if (scope.result() == CUDA_SUCCESS) {
      if (session->flushBuffer)
        api.cuMemFree(session->flushBuffer);
      if (session->flushModule)
        api.cuModuleUnload(session->flushModule);
      if (session->compareModule)
        api.cuModuleUnload(session->compareModule);
      if (session->stream)
        api.cuStreamDestroy(session->stream);
    }
  }
  api.cuDevicePrimaryCtxRelease(session->device);
  delete session;
}

extern "C" const char *autoprof_last_error(autoprof_session *session) {
  if (!session)
    return creationError;
  return session->lastError.c_str();
}

extern "C" autoprof_status
autoprof_device_facts_get(autoprof_session *session,
                          autoprof_device_facts *out) {
  AUTOPROF_CHECK_SESSION(session);
  if (!out)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_device_facts_get: no output given");
  session->facts.sm_clock_khz = readSmClockKHz(session);
  *out = session->facts;
  return AUTOPROF_OK;
}

//===----------------------------------------------------------------------===//
// Peak bandwidth
//===----------------------------------------------------------------------===//

namespace {


} // namespace

extern "C" autoprof_status
autoprof_measure_peak_bandwidth(autoprof_session *session,
                                double *bytesPerSecond) {
  AUTOPROF_CHECK_SESSION(session);
  if (!bytesPerSecond)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_measure_peak_bandwidth: no output given");
  if (session->peakBandwidth > 0) {
    *bytesPerSecond = session->peakBandwidth;
    return AUTOPROF_OK;
  }
  AUTOPROF_PUSH_CONTEXT(session, scope);
  const CudaApi &api = cuda();
  size_t freeBytes = 0, totalBytes = 0;
  if (CUresult r = api.cuMemGetInfo(&freeBytes, &totalBytes))
    return cudaFailure(session, r, "cannot read free device memory");
  // 1 GiB copied (2 GiB of DRAM traffic: read + write) is far beyond L2;
  // shrink on a device with little free memory but stay >= 16x L2.
  size_t bytes = size_t(1) << 30;
  while (bytes * 2 > freeBytes / 2 && bytes > (size_t(64) << 20))
    bytes /= 2;
  uint64_t l2 =
      static_cast<uint64_t>(std::max<int64_t>(session->facts.l2_bytes, 1));
  if (bytes * 2 > freeBytes || bytes < 8 * l2)
    return setError(session, AUTOPROF_ERROR_OUT_OF_MEMORY,
                    "not enough free device memory (%zu bytes) to measure "
                    "the copy bandwidth with buffers far larger than L2",
                    freeBytes);
  DeviceAllocation source, destination;
  if (autoprof_status s =
          source.allocate(session, bytes, "the bandwidth test source"))
    return s;
  if (autoprof_status s = destination.allocate(
          session, bytes, "the bandwidth test destination"))
    return s;
  if (CUresult r =
          api.cuMemsetD8Async(source.get(), 0x5A, bytes, session->stream))
    return cudaFailure(session, r, "cannot fill the bandwidth test buffer");
  constexpr int Warmup = 3, Repetitions = 20;
  EventList events;
  std::vector<CUevent> starts, ends;
  for (int i = 0; i < Repetitions; ++i) {
    CUresult r;
    CUevent start = events.create(r);
    CUevent end = start ? events.create(r) : nullptr;
    if (!end)
      return cudaFailure(session, r, "cannot create CUDA events");
    starts.push_back(start);
    ends.push_back(end);
  }
  for (int i = 0; i < Warmup + Repetitions; ++i) {
    int timed = i - Warmup;
    if (timed >= 0)
      if (CUresult r = api.cuEventRecord(starts[timed], session->stream))
        return cudaFailure(session, r, "cannot record an event");
    if (CUresult r = api.cuMemcpyDtoDAsync(destination.get(), source.get(),
                                           bytes, session->stream))
      return cudaFailure(session, r, "cannot copy device memory");
    if (timed >= 0)
      if (CUresult r = api.cuEventRecord(ends[timed], session->stream))
        return cudaFailure(session, r, "cannot record an event");
  }
  if (CUresult r = api.cuStreamSynchronize(session->stream))
    return launchFailure(session, r, "the bandwidth test failed");
  std::vector<double> seconds;
  for (int i = 0; i < Repetitions; ++i) {
    float ms = 0;
    if (CUresult r = api.cuEventElapsedTime(&ms, starts[i], ends[i]))
      return cudaFailure(session, r, "cannot read event times");
    seconds.push_back(ms * 1e-3);
  }
  double time = median(seconds);
  if (time <= 0)
    return setError(session, AUTOPROF_ERROR_LAUNCH,
                    "the bandwidth test measured no time");
  session->peakBandwidth = 2.0 * static_cast<double>(bytes) / time;
  *bytesPerSecond = session->peakBandwidth;
  return AUTOPROF_OK;
}
