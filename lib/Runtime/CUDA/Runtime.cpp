//===- Runtime.cpp - C ABI of the AutoProf GPU runtime shim ---------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Sessions, kernel loading (PTX, cubin, CUDA C++ through NVRTC), launch spec
// checks, input generation, verification and timing (docs/runtime.md) over
// the dynamically loaded CUDA driver API. Profiling lives in
// CuptiProfiler.cpp.
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

/// Writes a verification's reason into its fixed buffer, cut at the
/// buffer's size (the C ABI's reasons are bounded; a cut reason still names
/// the parameter and the element first).
template <size_t N>
__attribute__((format(printf, 2, 3))) void
writeReason(char (&reason)[N], const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(reason, N, format, args);
  va_end(args);
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

namespace {

/// CUDA events destroyed on scope exit.
class EventList {
public:
  ~EventList() {
    for (CUevent event : events)
      cuda().cuEventDestroy(event);
  }
  /// Creates one more event; null on failure (result in `result`).
  CUevent create(CUresult &result) {
    CUevent event = nullptr;
    result = cuda().cuEventCreate(&event, CU_EVENT_DEFAULT);
    if (result != CUDA_SUCCESS)
      return nullptr;
    events.push_back(event);
    return event;
  }

private:
  std::vector<CUevent> events;
};

} // namespace

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

//===----------------------------------------------------------------------===//
// LaunchBuffers
//===----------------------------------------------------------------------===//

LaunchBuffers::~LaunchBuffers() = default;

autoprof_status LaunchBuffers::prepare(const autoprof_launch_spec &spec,
                                       uint64_t seed,
                                       autoprof_distribution distribution,
                                       uint8_t poisonByte) {
  poison = poisonByte;
  // Buffers prepared before for the same parameters are kept, device
  // allocations and copies included: only their contents change.
  bool same = buffers.size() == spec.num_params;
  for (size_t i = 0; same && i < spec.num_params; ++i) {
    const autoprof_param &param = spec.params[i];
    const Buffer &buffer = buffers[i];
    same = buffer.isBuffer == !param.is_scalar &&
           (param.is_scalar ||
            (buffer.role == param.role && buffer.dtype == param.dtype &&
             buffer.host.size() == param.count * dtypeSize(param.dtype)));
  }
  if (!same) {
    buffers.clear();
    buffers.resize(spec.num_params);
  }
  for (size_t i = 0; i < spec.num_params; ++i) {
    const autoprof_param &param = spec.params[i];
    Buffer &buffer = buffers[i];
    if (param.is_scalar)
      continue;
    buffer.isBuffer = true;
    buffer.role = param.role;
    buffer.dtype = param.dtype;
    size_t bytes = param.count * dtypeSize(param.dtype);
    std::string what = "parameter " + std::to_string(i);
    if (!buffer.device.get())
      if (autoprof_status s =
              buffer.device.allocate(session, bytes + GuardBytes, what.c_str()))
        return s;
    buffer.host.resize(bytes);
    StopwatchScope generating(generateSeconds);
    if (param.role == AUTOPROF_ROLE_OUTPUT)
      std::memset(buffer.host.data(), poison, bytes);
    else
      generateInput(param, i, seed, distribution, buffer.host.data());
  }
  return upload();
}

autoprof_status LaunchBuffers::upload() {
  StopwatchScope transferring(transferSeconds);
  const CudaApi &api = cuda();
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &buffer = buffers[i];
    if (!buffer.isBuffer)
      continue;
    if (CUresult r =
            api.cuMemcpyHtoDAsync(buffer.device.get(), buffer.host.data(),
                                  buffer.host.size(), session->stream))
      return cudaFailure(session, r, "cannot copy inputs to the device");
  }
  if (autoprof_status s = fillGuardsAsync())
    return s;
  if (CUresult r = api.cuStreamSynchronize(session->stream))
    return cudaFailure(session, r, "cannot copy inputs to the device");
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::fillGuardsAsync() {
  const CudaApi &api = cuda();
  for (Buffer &buffer : buffers) {
    if (!buffer.isBuffer)
      continue;
    if (CUresult r =
            api.cuMemsetD8Async(buffer.device.get() + buffer.host.size(),
                                GuardByte, GuardBytes, session->stream))
      return cudaFailure(session, r, "cannot fill the guard zones");
  }
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::findGuardWrite(bool &found, size_t &paramIndex,
                                              uint64_t &offset,
                                              uint8_t &value) {
  StopwatchScope transferring(transferSeconds);
  found = false;
  const CudaApi &api = cuda();
  std::vector<uint8_t> guard(GuardBytes);
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &buffer = buffers[i];
    if (!buffer.isBuffer)
      continue;
    if (CUresult r = api.cuMemcpyDtoHAsync(
            guard.data(), buffer.device.get() + buffer.host.size(), GuardBytes,
            session->stream))
      return cudaFailure(session, r, "cannot read the guard zones back");
    if (CUresult r = api.cuStreamSynchronize(session->stream))
      return launchFailure(session, r, "cannot read the guard zones back");
    for (size_t at = 0; at < GuardBytes; ++at) {
      if (guard[at] == GuardByte)
        continue;
      found = true;
      paramIndex = i;
      offset = at;
      value = guard[at];
      return AUTOPROF_OK;
    }
  }
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::uploadAbsolute() {
  StopwatchScope transferring(transferSeconds);
  const CudaApi &api = cuda();
  // Host copies live until the copies are done (synchronized below).
  std::vector<std::vector<uint8_t>> absolute(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &buffer = buffers[i];
    if (!buffer.isBuffer)
      continue;
    const std::vector<uint8_t> *contents = &buffer.host;
    if (buffer.role != AUTOPROF_ROLE_OUTPUT && isFloatType(buffer.dtype)) {
      // Clearing the sign bit is the absolute value (NaN stays NaN); the
      // sign is the top bit of the element's last byte (little-endian).
      size_t size = dtypeSize(buffer.dtype);
      absolute[i] = buffer.host;
      for (size_t at = size - 1; at < absolute[i].size(); at += size)
        absolute[i][at] &= 0x7F;
      contents = &absolute[i];
    }
    if (CUresult r =
            api.cuMemcpyHtoDAsync(buffer.device.get(), contents->data(),
                                  contents->size(), session->stream))
      return cudaFailure(session, r, "cannot copy inputs to the device");
  }
  if (autoprof_status s = fillGuardsAsync())
    return s;
  if (CUresult r = api.cuStreamSynchronize(session->stream))
    return cudaFailure(session, r, "cannot copy inputs to the device");
  return AUTOPROF_OK;
}

autoprof_status
LaunchBuffers::copyOnDevice(const std::function<bool(const Buffer &)> &wanted,
                            DeviceAllocation Buffer::*slot, const char *what) {
  const CudaApi &api = cuda();
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &buffer = buffers[i];
    if (!buffer.isBuffer || !wanted(buffer))
      continue;
    DeviceAllocation &copy = buffer.*slot;
    if (!copy.get()) {
      std::string name =
          std::string(what) + " of parameter " + std::to_string(i);
      if (autoprof_status s =
              copy.allocate(session, buffer.host.size(), name.c_str()))
        return s;
    }
    if (CUresult r = api.cuMemcpyDtoDAsync(copy.get(), buffer.device.get(),
                                           buffer.host.size(), session->stream))
      return cudaFailure(session, r, "cannot copy buffers on the device");
  }
  if (CUresult r = api.cuStreamSynchronize(session->stream))
    return cudaFailure(session, r, "cannot copy buffers on the device");
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::keepDeviceCopies(bool inputsToo) {
  return copyOnDevice(
      [&](const Buffer &buffer) {
        return buffer.role == AUTOPROF_ROLE_INOUT ||
               (inputsToo && buffer.role == AUTOPROF_ROLE_INPUT);
      },
      &Buffer::pristine, "a copy");
}

autoprof_status LaunchBuffers::keepExpected() {
  return copyOnDevice(
      [](const Buffer &buffer) { return buffer.role != AUTOPROF_ROLE_INPUT; },
      &Buffer::expected, "the expected results");
}

namespace {
/// Sets *flag to 1 when the `count16` 16-byte words and the `tail` bytes
/// after them differ between buffers `a` and `b` (grid-stride, read-only).
/// Written for sm_75 so that the driver JIT-compiles it for any newer GPU.
constexpr const char *kComparePtx = R"ptx(
.version 6.3
.target sm_75
.address_size 64
.visible .entry autoprof_differs(.param .u64 a, .param .u64 b,
                                 .param .u64 count16, .param .u64 tail,
                                 .param .u64 flag)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [count16];
  ld.param.u64 %rd4, [tail];
  ld.param.u64 %rd5, [flag];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd5, %rd5;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd6, %r1, %r2;
  cvt.u64.u32 %rd7, %r3;
  add.u64 %rd6, %rd6, %rd7;
  mov.u64 %rd12, %rd6;
  mul.wide.u32 %rd8, %r4, %r2;
  mov.u32 %r5, 0;
LOOP:
  setp.ge.u64 %p1, %rd6, %rd3;
  @%p1 bra TAIL;
  shl.b64 %rd9, %rd6, 4;
  add.u64 %rd10, %rd1, %rd9;
  add.u64 %rd11, %rd2, %rd9;
  ld.global.nc.v4.u32 {%r6, %r7, %r8, %r9}, [%rd10];
  ld.global.nc.v4.u32 {%r10, %r11, %r12, %r13}, [%rd11];
  xor.b32 %r6, %r6, %r10;
  xor.b32 %r7, %r7, %r11;
  xor.b32 %r8, %r8, %r12;
  xor.b32 %r9, %r9, %r13;
  or.b32 %r5, %r5, %r6;
  or.b32 %r5, %r5, %r7;
  or.b32 %r5, %r5, %r8;
  or.b32 %r5, %r5, %r9;
  add.u64 %rd6, %rd6, %rd8;
  bra LOOP;
TAIL:
  // The first thread compares the bytes after the last whole word.
  setp.ne.u64 %p2, %rd12, 0;
  @%p2 bra DONE;
  shl.b64 %rd9, %rd3, 4;
  mov.u64 %rd13, 0;
TAILLOOP:
  setp.ge.u64 %p3, %rd13, %rd4;
  @%p3 bra DONE;
  add.u64 %rd14, %rd9, %rd13;
  add.u64 %rd10, %rd1, %rd14;
  add.u64 %rd11, %rd2, %rd14;
  ld.global.nc.u8 %r6, [%rd10];
  ld.global.nc.u8 %r10, [%rd11];
  xor.b32 %r6, %r6, %r10;
  or.b32 %r5, %r5, %r6;
  add.u64 %rd13, %rd13, 1;
  bra TAILLOOP;
DONE:
  setp.eq.u32 %p1, %r5, 0;
  @%p1 bra END;
  mov.u32 %r14, 1;
  st.global.u32 [%rd5], %r14;
END:
  ret;
}
)ptx";
} // namespace

autoprof_status LaunchBuffers::findDifferences(std::vector<char> &differs,
                                               bool inputsOnly) {
  const CudaApi &api = cuda();
  differs.assign(buffers.size(), 0);
  if (!session->compareModule) {
    if (CUresult r = api.cuModuleLoadDataEx(&session->compareModule,
                                            kComparePtx, 0, nullptr, nullptr))
      return cudaFailure(session, r, "cannot load the compare kernel");
    if (CUresult r =
            api.cuModuleGetFunction(&session->compareFunction,
                                    session->compareModule, "autoprof_differs"))
      return cudaFailure(session, r, "cannot find the compare kernel");
  }
  size_t flagBytes = std::max<size_t>(1, buffers.size()) * sizeof(uint32_t);
  if (!flags.get())
    if (autoprof_status s =
            flags.allocate(session, flagBytes, "the compare kernel's flags"))
      return s;
  if (CUresult r =
          api.cuMemsetD8Async(flags.get(), 0, flagBytes, session->stream))
    return cudaFailure(session, r, "cannot clear the compare kernel's flags");
  unsigned blocks =
      static_cast<unsigned>(std::max(1, session->facts.sm_count) * 8);
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &buffer = buffers[i];
    if (!buffer.isBuffer || (inputsOnly && buffer.role != AUTOPROF_ROLE_INPUT))
      continue;
    CUdeviceptr a = buffer.device.get();
    CUdeviceptr b = buffer.role == AUTOPROF_ROLE_INPUT ? buffer.pristine.get()
                                                       : buffer.expected.get();
    if (!b)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "parameter %zu has no device copy to compare with", i);
    unsigned long long count16 = buffer.host.size() / 16;
    unsigned long long tail = buffer.host.size() % 16;
    CUdeviceptr flag = flags.get() + i * sizeof(uint32_t);
    void *args[] = {&a, &b, &count16, &tail, &flag};
    if (CUresult r =
            api.cuLaunchKernel(session->compareFunction, blocks, 1, 1, 256, 1,
                               1, 0, session->stream, args, nullptr))
      return cudaFailure(session, r, "cannot compare buffers on the device");
  }
  std::vector<uint32_t> values(flagBytes / sizeof(uint32_t));
  if (CUresult r = api.cuMemcpyDtoHAsync(values.data(), flags.get(), flagBytes,
                                         session->stream))
    return cudaFailure(session, r, "cannot read the compare kernel's flags");
  if (CUresult r = api.cuStreamSynchronize(session->stream))
    return launchFailure(session, r, "the compare kernel failed");
  for (size_t i = 0; i < buffers.size(); ++i)
    differs[i] = values[i] != 0;
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::downloadExpected(size_t paramIndex,
                                                std::vector<uint8_t> &out) {
  StopwatchScope transferring(transferSeconds);
  Buffer &buffer = buffers[paramIndex];
  out.resize(buffer.host.size());
  const CudaApi &api = cuda();
  if (CUresult r = api.cuMemcpyDtoHAsync(out.data(), buffer.expected.get(),
                                         out.size(), session->stream))
    return cudaFailure(session, r, "cannot copy results from the device");
  if (CUresult r = api.cuStreamSynchronize(session->stream))
    return launchFailure(session, r, "cannot copy results from the device");
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::restoreAsync(CUstream stream) {
  const CudaApi &api = cuda();
  for (Buffer &buffer : buffers) {
    if (!buffer.isBuffer)
      continue;
    CUresult r = CUDA_SUCCESS;
    if (buffer.role == AUTOPROF_ROLE_OUTPUT)
      r = api.cuMemsetD8Async(buffer.device.get(), poison, buffer.host.size(),
                              stream);
    else if (buffer.role == AUTOPROF_ROLE_INOUT && buffer.pristine.get())
      r = api.cuMemcpyDtoDAsync(buffer.device.get(), buffer.pristine.get(),
                                buffer.host.size(), stream);
    if (r != CUDA_SUCCESS)
      return cudaFailure(session, r, "cannot reset buffers between launches");
  }
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::launch(autoprof_kernel *kernel,
                                      const autoprof_launch_spec &spec,
                                      CUstream stream, const size_t *paramMap) {
  if (!paramMap && spec.num_params != buffers.size())
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "the launch spec has %zu parameters but the buffers were "
                    "prepared for %zu",
                    spec.num_params, buffers.size());
  std::vector<uint64_t> slots(spec.num_params);
  std::vector<void *> arguments(spec.num_params);
  for (size_t i = 0; i < spec.num_params; ++i) {
    const autoprof_param &param = spec.params[i];
    size_t prepared = paramMap ? paramMap[i] : i;
    if (prepared >= buffers.size())
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "parameter %zu receives prepared parameter %zu but the "
                      "buffers were prepared for %zu",
                      i, prepared, buffers.size());
    if (!param.is_scalar != buffers[prepared].isBuffer)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "parameter %zu is a %s in the launch spec but a %s in "
                      "the prepared buffers",
                      i, param.is_scalar ? "scalar" : "buffer",
                      buffers[prepared].isBuffer ? "buffer" : "scalar");
    if (param.is_scalar)
      encodeScalar(param, slots[i]);
    else
      slots[i] = buffers[prepared].device.get();
    arguments[i] = &slots[i];
  }
  // A repeated launch passes its varying scalar start + i * step.
  uint64_t count = std::max<uint64_t>(spec.repeat_count, 1);
  for (uint64_t i = 0; i < count; ++i) {
    if (count > 1) {
      autoprof_param varying = spec.params[spec.repeat_param];
      varying.i =
          spec.repeat_start + static_cast<int64_t>(i) * spec.repeat_step;
      encodeScalar(varying, slots[spec.repeat_param]);
    }
    CUresult r = cuda().cuLaunchKernel(
        kernel->function, spec.grid[0], spec.grid[1], spec.grid[2],
        spec.block[0], spec.block[1], spec.block[2], spec.dynamic_shared_bytes,
        stream, arguments.empty() ? nullptr : arguments.data(), nullptr);
    if (r != CUDA_SUCCESS) {
      std::string what = "cannot launch kernel '" + kernel->entry + "'";
      if (count > 1)
        what += " (launch " + std::to_string(i + 1) + " of " +
                std::to_string(count) + ")";
      return cudaFailure(session, r, what.c_str());
    }
  }
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::synchronize() {
  if (CUresult r = cuda().cuStreamSynchronize(session->stream))
    return launchFailure(session, r, "the kernel failed");
  return AUTOPROF_OK;
}

autoprof_status LaunchBuffers::download(size_t paramIndex,
                                        std::vector<uint8_t> &out) {
  Buffer &buffer = buffers[paramIndex];
  out.resize(buffer.host.size());
  if (!buffer.isBuffer)
    return AUTOPROF_OK;
  StopwatchScope transferring(transferSeconds);
  const CudaApi &api = cuda();
  if (CUresult r = api.cuMemcpyDtoHAsync(out.data(), buffer.device.get(),
                                         out.size(), session->stream))
    return cudaFailure(session, r, "cannot copy results from the device");
  if (CUresult r = api.cuStreamSynchronize(session->stream))
    return launchFailure(session, r, "cannot copy results from the device");
  return AUTOPROF_OK;
}

const std::vector<uint8_t> &LaunchBuffers::initial(size_t paramIndex) const {
  return buffers[paramIndex].host;
}

CUdeviceptr LaunchBuffers::devicePointer(size_t paramIndex) const {
  return buffers[paramIndex].device.get();
}

uint64_t LaunchBuffers::totalBytes() const {
  uint64_t total = 0;
  for (const Buffer &buffer : buffers)
    total += buffer.host.size();
  return total;
}

autoprof_status
autoprof::runtime::launchOnce(autoprof_session *session,
                              autoprof_kernel *kernel,
                              const autoprof_launch_spec *spec, uint64_t seed,
                              autoprof_distribution distribution) {
  ContextScope scope(session);
  if (scope.result() != CUDA_SUCCESS)
    return cudaFailure(session, scope.result(),
                       "cannot make the context "
                       "current");
  if (autoprof_status s = checkLaunchSpec(session, kernel, spec, 1))
    return s;
  LaunchBuffers buffers(session);
  if (autoprof_status s = buffers.prepare(*spec, seed, distribution))
    return s;
  if (autoprof_status s = buffers.launch(kernel, *spec, session->stream))
    return s;
  return buffers.synchronize();
}

int autoprof::runtime::readSmClockKHz(autoprof_session *session) {
  if (const NvmlApi *nvml = loadNvmlApi()) {
    NvmlApi::Device device = nullptr;
    unsigned mhz = 0;
    if (nvml->nvmlDeviceGetHandleByPciBusId(session->pciBusId, &device) == 0 &&
        nvml->nvmlDeviceGetClockInfo(device, NvmlApi::ClockSM, &mhz) == 0 &&
        mhz > 0)
      return static_cast<int>(mhz) * 1000;
  }
  // Without NVML the driver only reports the maximum (boost) clock.
  int khz = 0;
  if (cuda().cuDeviceGetAttribute(&khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
                                  session->device) != CUDA_SUCCESS)
    return 0;
  return khz;
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

#define AUTOPROF_CHECK_SESSION(session)                                        \
  do {                                                                         \
    if (!(session))                                                            \
      return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,                \
                      "%s: no session given", __func__);                       \
  } while (false)

#define AUTOPROF_PUSH_CONTEXT(session, scope)                                  \
  ContextScope scope(session);                                                 \
  if (scope.result() != CUDA_SUCCESS)                                          \
  return cudaFailure(session, scope.result(),                                  \
                     "cannot make the device's primary context current")

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

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/// Linear interpolation between closest ranks of sorted `values`.
double percentile(const std::vector<double> &sorted, double fraction) {
  if (sorted.empty())
    return 0;
  double position = fraction * static_cast<double>(sorted.size() - 1);
  size_t below = static_cast<size_t>(std::floor(position));
  size_t above = std::min(below + 1, sorted.size() - 1);
  double weight = position - static_cast<double>(below);
  return sorted[below] * (1 - weight) + sorted[above] * weight;
}

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

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

namespace {

bool directoryExists(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

/// Compiles CUDA C++ with NVRTC for `arch` ("sm_90": a cubin; "compute_90":
/// PTX). On failure `error` says why, with NVRTC's log.
bool compileWithNvrtc(const std::string &source, const char *entry,
                      const std::string &arch,
                      const std::vector<std::string> &extraOptions,
                      bool wantPtx, std::vector<char> &output,
                      std::string &error) {
  const char *loadError = "";
  const NvrtcApi *nvrtc = loadNvrtcApi(&loadError);
  if (!nvrtc) {
    error = loadError;
    return false;
  }
  nvrtcProgram program = nullptr;
  std::string name = std::string(entry) + ".cu";
  if (nvrtcResult r = nvrtc->nvrtcCreateProgram(
          &program, source.c_str(), name.c_str(), 0, nullptr, nullptr)) {
    error = std::string("NVRTC cannot create a program for '") + entry +
            "': " + nvrtc->nvrtcGetErrorString(r);
    return false;
  }
  std::vector<std::string> options;
  options.push_back("--gpu-architecture=" + arch);
  options.push_back("--std=c++17");
  options.push_back("-lineinfo");
  // Toolkit headers (cuda_fp16.h, ...) when a toolkit is installed.
  const char *home = std::getenv("CUDA_HOME");
  std::string include;
  if (home && *home && directoryExists(std::string(home) + "/include"))
    include = std::string(home) + "/include";
  else if (directoryExists("/usr/local/cuda/include"))
    include = "/usr/local/cuda/include";
  if (!include.empty())
    options.push_back("--include-path=" + include);
  // CUDA 13 keeps libcu++, CUB and Thrust under include/cccl, which
  // cooperative groups and <cuda/std/...> need.
  if (!include.empty() && directoryExists(include + "/cccl"))
    options.push_back("--include-path=" + include + "/cccl");
  options.insert(options.end(), extraOptions.begin(), extraOptions.end());
  std::vector<const char *> optionPointers;
  for (const std::string &option : options)
    optionPointers.push_back(option.c_str());
  nvrtcResult compiled = nvrtc->nvrtcCompileProgram(
      program, static_cast<int>(optionPointers.size()), optionPointers.data());
  size_t logSize = 0;
  std::string log;
  if (nvrtc->nvrtcGetProgramLogSize(program, &logSize) == NVRTC_SUCCESS &&
      logSize > 1) {
    log.resize(logSize);
    nvrtc->nvrtcGetProgramLog(program, &log[0]);
    log.resize(std::strlen(log.c_str()));
  }
  if (compiled != NVRTC_SUCCESS) {
    nvrtc->nvrtcDestroyProgram(&program);
    error = std::string("NVRTC could not compile '") + entry + "' for " + arch +
            ": " + nvrtc->nvrtcGetErrorString(compiled) + "\n" + log;
    return false;
  }
  size_t size = 0;
  nvrtcResult r = wantPtx ? nvrtc->nvrtcGetPTXSize(program, &size)
                          : nvrtc->nvrtcGetCUBINSize(program, &size);
  if (r == NVRTC_SUCCESS && size > 0) {
    output.resize(size);
    r = wantPtx ? nvrtc->nvrtcGetPTX(program, output.data())
                : nvrtc->nvrtcGetCUBIN(program, output.data());
  }
  nvrtc->nvrtcDestroyProgram(&program);
  if (r != NVRTC_SUCCESS || size == 0) {
    error = std::string("NVRTC compiled '") + entry + "' but produced no " +
            (wantPtx ? "PTX" : "cubin") + ": " + nvrtc->nvrtcGetErrorString(r);
    return false;
  }
  return true;
}

/// Compiles CUDA C++ to a cubin for the session's device with NVRTC.
autoprof_status compileCuda(autoprof_session *session, const char *code,
                            size_t size, const char *entry,
                            std::vector<char> &cubin) {
  std::string source = size ? std::string(code, size) : std::string(code);
  std::string arch = "sm_" +
                     std::to_string(session->facts.compute_capability_major) +
                     std::to_string(session->facts.compute_capability_minor);
  std::string error;
  if (!compileWithNvrtc(source, entry, arch, {}, /*wantPtx=*/false, cubin,
                        error))
    return setError(session, AUTOPROF_ERROR_COMPILE, "%s", error.c_str());
  return AUTOPROF_OK;
}

} // namespace

extern "C" autoprof_status
autoprof_compile_cuda_to_ptx(const char *code, const char *entry,
                             const char *arch, const char *const *options,
                             size_t num_options, char **ptx, char **error) {
  auto copy = [](const std::string &text) {
    char *out = static_cast<char *>(std::malloc(text.size() + 1));
    if (out)
      std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
  };
  if (ptx)
    *ptx = nullptr;
  if (error)
    *error = nullptr;
  if (!code || !entry || !arch || !ptx || (num_options && !options)) {
    if (error)
      *error = copy("autoprof_compile_cuda_to_ptx: needs code, an entry, an "
                    "architecture, the options it counts and a place for the "
                    "PTX");
    return AUTOPROF_ERROR_INVALID_ARGUMENT;
  }
  std::vector<std::string> extraOptions;
  for (size_t i = 0; i < num_options; ++i) {
    if (!options[i]) {
      if (error)
        *error = copy("autoprof_compile_cuda_to_ptx: option " +
                      std::to_string(i) + " is null");
      return AUTOPROF_ERROR_INVALID_ARGUMENT;
    }
    extraOptions.push_back(options[i]);
  }
  // A missing NVRTC is the machine's problem, not the code's.
  const char *loadError = "";
  if (!loadNvrtcApi(&loadError)) {
    if (error)
      *error = copy(loadError);
    return AUTOPROF_ERROR_NO_DRIVER;
  }
  std::vector<char> output;
  std::string message;
  if (!compileWithNvrtc(code, entry, arch, extraOptions, /*wantPtx=*/true,
                        output, message)) {
    if (error)
      *error = copy(message);
    return AUTOPROF_ERROR_COMPILE;
  }
  *ptx =
      copy(std::string(output.data(), strnlen(output.data(), output.size())));
  return *ptx ? AUTOPROF_OK : AUTOPROF_ERROR_OUT_OF_MEMORY;
}

extern "C" autoprof_status autoprof_kernel_load(autoprof_session *session,
                                                autoprof_code_format format,
                                                const char *code, size_t size,
                                                const char *entry,
                                                autoprof_kernel **out) {
  AUTOPROF_CHECK_SESSION(session);
  if (!out)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_load: no output pointer given");
  *out = nullptr;
  if (!code || !entry || !*entry)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_load: no code or no entry name given");
  if (format != AUTOPROF_CODE_PTX && format != AUTOPROF_CODE_CUBIN &&
      format != AUTOPROF_CODE_CUDA)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_load: invalid code format %d",
                    static_cast<int>(format));
  if (format == AUTOPROF_CODE_CUBIN && size == 0)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_load: a cubin needs its size");
  AUTOPROF_PUSH_CONTEXT(session, scope);

  // The image: NUL-terminated PTX text, a cubin, or NVRTC's cubin.
  std::vector<char> image;
  if (format == AUTOPROF_CODE_CUDA) {
    if (autoprof_status s = compileCuda(session, code, size, entry, image))
      return s;
  } else if (format == AUTOPROF_CODE_PTX) {
    size_t length = size ? size : std::strlen(code);
    image.assign(code, code + length);
    image.push_back('\0');
  } else {
    image.assign(code, code + size);
  }

  constexpr unsigned LogSize = 1 << 16;
  std::vector<char> errorLog(LogSize, '\0'), infoLog(LogSize, '\0');
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(LogSize)),
                    infoLog.data(),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(LogSize))};
  const CudaApi &api = cuda();
  CUmodule module = nullptr;
  CUresult r =
      api.cuModuleLoadDataEx(&module, image.data(), 4, options, values);
  if (r != CUDA_SUCCESS) {
    errorLog.back() = '\0';
    if (isStickyError(r))
      return cudaFailure(session, r, "cannot load the module");
    std::string description = describeCudaResult(r);
    const char *what = format == AUTOPROF_CODE_PTX     ? "PTX"
                       : format == AUTOPROF_CODE_CUBIN ? "cubin"
                                                       : "NVRTC's cubin";
    return setError(session,
                    r == CUDA_ERROR_OUT_OF_MEMORY ? AUTOPROF_ERROR_OUT_OF_MEMORY
                                                  : AUTOPROF_ERROR_LOAD,
                    "the driver rejected the %s of '%s': %s\n%s", what, entry,
                    description.c_str(), errorLog.data());
  }
  CUfunction function = nullptr;
  r = api.cuModuleGetFunction(&function, module, entry);
  if (r != CUDA_SUCCESS) {
    api.cuModuleUnload(module);
    std::string description = describeCudaResult(r);
    return setError(session, AUTOPROF_ERROR_LOAD,
                    "the module has no kernel named '%s': %s", entry,
                    description.c_str());
  }
  // Force the (lazily loaded) function to load now so errors surface here.
  int registers = 0;
  r = api.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function);
  if (r != CUDA_SUCCESS) {
    api.cuModuleUnload(module);
    return cudaFailure(session, r, "cannot load the kernel's code");
  }
  auto *kernel = new (std::nothrow) autoprof_kernel();
  if (!kernel) {
    api.cuModuleUnload(module);
    return setError(session, AUTOPROF_ERROR_OUT_OF_MEMORY,
                    "cannot allocate a kernel");
  }
  kernel->session = session;
  kernel->module = module;
  kernel->function = function;
  kernel->entry = entry;
  kernel->format = format;
  *out = kernel;
  return AUTOPROF_OK;
}

extern "C" void autoprof_kernel_unload(autoprof_kernel *kernel) {
  if (!kernel)
    return;
  {
    ContextScope scope(kernel->session);
    if (scope.result() == CUDA_SUCCESS && kernel->module)
      cuda().cuModuleUnload(kernel->module);
  }
  delete kernel;
}

extern "C" autoprof_status
autoprof_kernel_attributes_get(autoprof_kernel *kernel,
                               autoprof_kernel_attributes *out) {
  if (!kernel)
    return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_attributes_get: no kernel given");
  autoprof_session *session = kernel->session;
  if (!out)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_attributes_get: no output given");
  AUTOPROF_PUSH_CONTEXT(session, scope);
  struct {
    CUfunction_attribute attribute;
    int *slot;
  } queries[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, &out->registers_per_thread},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &out->static_shared_bytes},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &out->local_bytes_per_thread},
      {CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &out->const_bytes},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &out->max_threads_per_block},
      {CU_FUNC_ATTRIBUTE_PTX_VERSION, &out->ptx_version},
      {CU_FUNC_ATTRIBUTE_BINARY_VERSION, &out->binary_version},
  };
  for (auto &query : queries) {
    *query.slot = 0;
    if (CUresult r = cuda().cuFuncGetAttribute(query.slot, query.attribute,
                                               kernel->function))
      return cudaFailure(session, r, "cannot read a kernel attribute");
  }
  return AUTOPROF_OK;
}

extern "C" autoprof_status autoprof_kernel_occupancy(autoprof_kernel *kernel,
                                                     int blockThreads,
                                                     size_t dynamicShared,
                                                     int *blocksPerSm) {
  if (!kernel)
    return setError(nullptr, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_occupancy: no kernel given");
  autoprof_session *session = kernel->session;
  if (!blocksPerSm || blockThreads <= 0)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_kernel_occupancy: needs a positive block size "
                    "and an output (block size %d)",
                    blockThreads);
  AUTOPROF_PUSH_CONTEXT(session, scope);
  if (CUresult r = cuda().cuOccupancyMaxActiveBlocksPerMultiprocessor(
          blocksPerSm, kernel->function, blockThreads, dynamicShared))
    return cudaFailure(session, r, "cannot compute the occupancy");
  return AUTOPROF_OK;
}

extern "C" autoprof_status
autoprof_launch_spec_check(autoprof_session *session, autoprof_kernel *kernel,
                           const autoprof_launch_spec *spec) {
  AUTOPROF_CHECK_SESSION(session);
  AUTOPROF_PUSH_CONTEXT(session, scope);
  return checkLaunchSpec(session, kernel, spec, 1);
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

namespace {

/// Why a candidate's buffer does not match.
enum class Mismatch {
  None,
  WrongResult,
  DidNotWrite,
  WroteOutside,
  UnexpectedNaN,
  WroteInput,
};

/// Compares one element of a float buffer: tolerance, NaN and infinities;
/// `slack` is added to the bound (the rounding a reassociated sum may
/// differ by; 0 otherwise).
Mismatch compareFloat(double actual, double expected, double tolerance,
                      double slack = 0) {
  if (std::isnan(expected))
    return std::isnan(actual) ? Mismatch::None : Mismatch::WrongResult;
  if (std::isnan(actual))
    return Mismatch::UnexpectedNaN;
  if (std::isinf(expected) || std::isinf(actual))
    return actual == expected ? Mismatch::None : Mismatch::WrongResult;
  return std::fabs(actual - expected) <=
                 tolerance * (1 + std::fabs(expected)) + slack
             ? Mismatch::None
             : Mismatch::WrongResult;
}

/// How much of the magnitude of its terms a reassociated sum of `dtype` may
/// differ by: well above the rounding of sums in another order (on an H200,
/// split f32 sums of 128 to 8192 products differed by at most 1e-6 of it),
/// well below one term of a few thousand (a dropped or repeated term).
double reassociationTolerance(autoprof_dtype dtype) {
  switch (dtype) {
  case AUTOPROF_F64:
    return 1e-12;
  case AUTOPROF_F16:
  case AUTOPROF_BF16:
    return 1e-2;
  default:
    return 1e-5;
  }
}

/// Classifies element `j` of buffer parameter `param`.
Mismatch classify(const autoprof_param &param, const uint8_t *initial,
                  const uint8_t *reference, const uint8_t *candidate,
                  uint64_t j, double tolerance,
                  const uint8_t *magnitudes = nullptr) {
  size_t size = dtypeSize(param.dtype);
  const uint8_t *ref = reference + j * size;
  const uint8_t *cand = candidate + j * size;
  if (std::memcmp(ref, cand, size) == 0)
    return Mismatch::None;
  if (param.role == AUTOPROF_ROLE_INPUT)
    return std::memcmp(cand, initial + j * size, size) == 0
               ? Mismatch::None
               : Mismatch::WroteInput;
  if (param.role == AUTOPROF_ROLE_OUTPUT) {
    // An output starts as the poison (LaunchBuffers::prepare).
    const uint8_t *poison = initial + j * size;
    if (std::memcmp(ref, poison, size) == 0)
      return Mismatch::WroteOutside;
    if (std::memcmp(cand, poison, size) == 0)
      return Mismatch::DidNotWrite;
  }
  if (!isFloatType(param.dtype))
    return Mismatch::WrongResult; // Integers compare exactly.
  double slack = 0;
  if (magnitudes) {
    double magnitude = std::fabs(loadElement(magnitudes, param.dtype, j));
    if (std::isfinite(magnitude))
      slack = reassociationTolerance(param.dtype) * magnitude;
  }
  return compareFloat(loadElement(candidate, param.dtype, j),
                      loadElement(reference, param.dtype, j), tolerance, slack);
}

/// How many times the reference's own run-to-run variation a candidate may
/// differ by, on top of the base tolerance.
constexpr double NondeterminismMargin = 4.0;

/// The largest |a - b| / (1 + |a|) over the elements of two runs of a float
/// buffer. Elements where one run is not finite are left out: a reference
/// that disagrees with itself there cannot bound anything.
double relativeDisagreement(const autoprof_param &param,
                            const std::vector<uint8_t> &a,
                            const std::vector<uint8_t> &b) {
  double worst = 0;
  for (uint64_t j = 0; j < param.count; ++j) {
    double x = loadElement(a.data(), param.dtype, j);
    double y = loadElement(b.data(), param.dtype, j);
    if (x == y || (std::isnan(x) && std::isnan(y)))
      continue;
    if (!std::isfinite(x) || !std::isfinite(y))
      continue;
    worst = std::max(worst, std::fabs(x - y) / (1 + std::fabs(x)));
  }
  return worst;
}

/// Whether a candidate parameter receives what a reference parameter holds:
/// the same kind and type, and for buffers the same count, role and input
/// generation; for scalars the same value.
bool isSameParameter(const autoprof_param &a, const autoprof_param &b) {
  bool same = (!a.is_scalar) == (!b.is_scalar) && a.dtype == b.dtype;
  if (same && !a.is_scalar)
    same = a.count == b.count && a.role == b.role &&
           a.index_bound == b.index_bound && a.sorted == b.sorted &&
           (a.has_range != 0) == (b.has_range != 0) &&
           (!a.has_range || (a.range_low == b.range_low &&
                             a.range_high == b.range_high));
  if (same && a.is_scalar)
    same = isFloatType(a.dtype) ? (a.f == b.f || (a.f != a.f && b.f != b.f))
                                : a.i == b.i;
  return same;
}

/// Checks that two specs describe the same problem (launch shapes may
/// differ): the same parameter list, or, with `map` (candidate parameter i
/// receives reference parameter map[i]), a candidate list that receives every
/// reference buffer once and leaves out reference scalars only.
autoprof_status checkSameParameters(autoprof_session *session,
                                    const autoprof_launch_spec &reference,
                                    const autoprof_launch_spec &candidate,
                                    const size_t *map, size_t mapSize) {
  // A repeated launch is part of the problem: a candidate that receives the
  // varying scalar must vary it the same way.
  auto repeats = [](const autoprof_launch_spec &spec) {
    return spec.repeat_count > 1;
  };
  auto sameRepeat = [&] {
    return reference.repeat_count == candidate.repeat_count &&
           reference.repeat_start == candidate.repeat_start &&
           reference.repeat_step == candidate.repeat_step;
  };
  if (!map) {
    if (repeats(reference) != repeats(candidate) ||
        (repeats(reference) &&
         (!sameRepeat() || reference.repeat_param != candidate.repeat_param)))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the reference and the candidate repeat their launches "
                      "differently; with the same parameter list both must "
                      "run the same sequence of launches");
    if (reference.num_params != candidate.num_params)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the reference has %zu parameters but the candidate has "
                      "%zu; both must have the same parameter list",
                      reference.num_params, candidate.num_params);
    for (size_t i = 0; i < reference.num_params; ++i)
      if (!isSameParameter(reference.params[i], candidate.params[i]))
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "parameter %zu differs between the reference and the "
                        "candidate launch specs (kind, element type, count, "
                        "role, index bound or scalar value); both must have "
                        "the same parameter list",
                        i);
    return AUTOPROF_OK;
  }
  if (mapSize != candidate.num_params)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "the parameter map has %zu entries but the candidate has "
                    "%zu parameters",
                    mapSize, candidate.num_params);
  std::vector<bool> received(reference.num_params, false);
  for (size_t i = 0; i < candidate.num_params; ++i) {
    size_t r = map[i];
    if (r >= reference.num_params)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the parameter map gives candidate parameter %zu "
                      "reference parameter %zu, but the reference has %zu",
                      i, r, reference.num_params);
    if (received[r])
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "the parameter map gives reference parameter %zu to "
                      "more than one candidate parameter",
                      r);
    received[r] = true;
    bool referenceVaries = repeats(reference) && r == reference.repeat_param;
    bool candidateVaries = repeats(candidate) && i == candidate.repeat_param;
    if (referenceVaries != candidateVaries ||
        (referenceVaries && !sameRepeat()))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "candidate parameter %zu receives reference parameter "
                      "%zu, but only one of them varies over repeated "
                      "launches, or they vary differently",
                      i, r);
    if (referenceVaries)
      continue;
    if (!isSameParameter(reference.params[r], candidate.params[i]))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "candidate parameter %zu differs from reference "
                      "parameter %zu, which it receives (kind, element type, "
                      "count, role, index bound or scalar value)",
                      i, r);
  }
  for (size_t r = 0; r < reference.num_params; ++r)
    if (!received[r] && !reference.params[r].is_scalar)
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "reference parameter %zu is a buffer that no candidate "
                      "parameter receives; a candidate can only leave out "
                      "scalar parameters",
                      r);
  return AUTOPROF_OK;
}

void clearVerifyResult(autoprof_verify_result &out) {
  std::memset(&out, 0, sizeof(out));
  out.passed = 0;
  out.param_index = -1;
}

} // namespace

extern "C" autoprof_status autoprof_verify(
    autoprof_session *session, autoprof_kernel *reference,
    const autoprof_launch_spec *referenceSpec, autoprof_kernel *candidate,
    const autoprof_launch_spec *candidateSpec,
    const autoprof_verify_options *options, autoprof_verify_result *out) {
  AUTOPROF_CHECK_SESSION(session);
  if (!out)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_verify: no result given");
  clearVerifyResult(*out);
  if (!reference || !candidate || !referenceSpec || !candidateSpec)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_verify: needs a reference and a candidate "
                    "kernel with their launch specs");
  // Defaults: two seeds, all four distributions.
  static const uint64_t DefaultSeeds[] = {1, 2};
  static const autoprof_distribution DefaultDistributions[] = {
      AUTOPROF_DIST_NORMAL, AUTOPROF_DIST_UNIFORM, AUTOPROF_DIST_LARGE,
      AUTOPROF_DIST_SMALL_INT};
  const uint64_t *seeds = DefaultSeeds;
  size_t numSeeds = 2;
  const autoprof_distribution *distributions = DefaultDistributions;
  size_t numDistributions = 4;
  double tolerance32 = 1e-4, tolerance16 = 1e-2, tolerance64 = 1e-10;
  if (options) {
    if (options->num_seeds > 0) {
      if (!options->seeds)
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "autoprof_verify: num_seeds is %zu but no seeds are "
                        "given",
                        options->num_seeds);
      seeds = options->seeds;
      numSeeds = options->num_seeds;
    }
    if (options->num_distributions > 0) {
      if (!options->distributions)
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "autoprof_verify: num_distributions is %zu but no "
                        "distributions are given",
                        options->num_distributions);
      distributions = options->distributions;
      numDistributions = options->num_distributions;
    }
    if (options->tolerance_f32 > 0)
      tolerance32 = options->tolerance_f32;
    if (options->tolerance_f16 > 0)
      tolerance16 = options->tolerance_f16;
    if (options->tolerance_f64 > 0)
      tolerance64 = options->tolerance_f64;
  }
  bool reassociated = options && options->reassociated;
  for (size_t d = 0; d < numDistributions; ++d)
    if (!isValidDistribution(distributions[d]))
      return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                      "autoprof_verify: invalid distribution %d",
                      static_cast<int>(distributions[d]));
  const size_t *candidateMap = options ? options->candidate_param_map : nullptr;
  if (!candidateMap && options && options->candidate_param_map_size > 0)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_verify: candidate_param_map_size is %zu but no "
                    "map is given",
                    options->candidate_param_map_size);
  if (autoprof_status s = checkSameParameters(
          session, *referenceSpec, *candidateSpec, candidateMap,
          options ? options->candidate_param_map_size : 0))
    return s;
  AUTOPROF_PUSH_CONTEXT(session, scope);
  // One set of device buffers serves both kernels (re-uploaded in between).
  if (autoprof_status s = checkLaunchSpec(session, reference, referenceSpec, 1))
    return s;
  if (autoprof_status s = checkLaunchSpec(session, candidate, candidateSpec, 1))
    return s;

  const autoprof_launch_spec &spec = *referenceSpec;
  std::vector<std::vector<uint8_t>> referenceOut(spec.num_params);
  std::vector<std::vector<uint8_t>> candidateOut(spec.num_params);
  // One set of buffers for every seed and distribution (prepare() keeps
  // the allocations).
  LaunchBuffers buffers(session);
  for (size_t si = 0; si < numSeeds; ++si) {
    for (size_t di = 0; di < numDistributions; ++di) {
      uint64_t seed = seeds[si];
      autoprof_distribution distribution = distributions[di];
      out->seed = seed;
      out->distribution = distribution;
      const char *distName = distributionName(distribution);
      // Every other seed poisons outputs with another byte.
      uint8_t poison = si % 2 ? AlternatePoisonByte : PoisonByte;
      double kernelSeconds = 0;
      auto iterationStart = std::chrono::steady_clock::now();
      // Adds this iteration's time to the result however it ends.
      struct Account {
        autoprof_verify_result &out;
        const LaunchBuffers &buffers;
        const double &kernels;
        std::chrono::steady_clock::time_point start;
        double inputsBefore = buffers.generateSeconds;
        double transfersBefore = buffers.transferSeconds;
        ~Account() {
          double total = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
          double inputs = buffers.generateSeconds - inputsBefore;
          double transfers = buffers.transferSeconds - transfersBefore;
          out.seconds_inputs += inputs;
          out.seconds_transfers += transfers;
          out.seconds_kernels += kernels;
          out.seconds_other +=
              std::max(0.0, total - inputs - transfers - kernels);
        }
      } account{*out, buffers, kernelSeconds, iterationStart};
      if (autoprof_status s = buffers.prepare(spec, seed, distribution, poison))
        return s;

      // Launches one kernel and waits for it; a failure names the kernel,
      // its role and the inputs that triggered it. The candidate finds the
      // reference's buffers through `map`.
      auto run = [&](autoprof_kernel *kernel, const autoprof_launch_spec &ks,
                     const char *role,
                     const size_t *map = nullptr) -> autoprof_status {
        StopwatchScope running(kernelSeconds);
        if (autoprof_status s =
                buffers.launch(kernel, ks, session->stream, map)) {
          writeReason(out->reason,
                      "the %s kernel '%s' could not be launched: %s", role,
                      kernel->entry.c_str(), session->lastError.c_str());
          return s;
        }
        if (autoprof_status s = buffers.synchronize()) {
          writeReason(out->reason,
                      "the %s kernel '%s' faulted for seed %llu and "
                      "distribution %s: %s",
                      role, kernel->entry.c_str(),
                      static_cast<unsigned long long>(seed), distName,
                      session->lastError.c_str());
          return s;
        }
        return AUTOPROF_OK;
      };

      // Results stay on the device, compared there, and come to the host
      // only for a buffer that differs: the device keeps the initial
      // contents and the reference's results. Where it has no room for
      // them, every buffer is copied back and compared on the host.
      bool onDevice =
          buffers.keepDeviceCopies(/*inputsToo=*/true) == AUTOPROF_OK;
      // Which buffers' results are on the host for this seed and
      // distribution (referenceOut and candidateOut).
      std::vector<char> onHost(spec.num_params, 0);
      auto writesInput = [&](size_t i) {
        return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                        "the reference kernel '%s' writes into parameter "
                        "%zu, which the launch spec marks as an input; "
                        "mark it inout or output",
                        reference->entry.c_str(), i);
      };

      // Reference.
      if (autoprof_status s = run(reference, *referenceSpec, "reference"))
        return s;
      if (onDevice)
        onDevice = buffers.keepExpected() == AUTOPROF_OK;
      if (onDevice) {
        std::vector<char> changed;
        if (autoprof_status s =
                buffers.findDifferences(changed, /*inputsOnly=*/true))
          return s;
        for (size_t i = 0; i < spec.num_params; ++i)
          if (changed[i])
            return writesInput(i);
      } else {
        for (size_t i = 0; i < spec.num_params; ++i) {
          if (spec.params[i].is_scalar)
            continue;
          if (autoprof_status s = buffers.download(i, referenceOut[i]))
            return s;
          onHost[i] = 1;
          if (spec.params[i].role == AUTOPROF_ROLE_INPUT &&
              referenceOut[i] != buffers.initial(i))
            return writesInput(i);
        }
      }
      bool strayWrite = false;
      size_t strayParam = 0;
      uint64_t strayOffset = 0;
      uint8_t strayValue = 0;
      if (autoprof_status s = buffers.findGuardWrite(strayWrite, strayParam,
                                                     strayOffset, strayValue))
        return s;
      if (strayWrite)
        return setError(
            session, AUTOPROF_ERROR_INVALID_ARGUMENT,
            "the reference kernel '%s' writes past the end of "
            "parameter %zu (byte %llu after its %llu elements); "
            "the launch spec gives it too few elements",
            reference->entry.c_str(), strayParam,
            static_cast<unsigned long long>(strayOffset),
            static_cast<unsigned long long>(spec.params[strayParam].count));

      // The candidate runs twice on the same inputs: a candidate whose
      // results depend on what an earlier launch left behind (device
      // globals, a fingerprint of its inputs) fails the second run.
      // The magnitude run leaves absolute values in the input buffers, which
      // restoreAsync() does not undo: the next run uploads everything.
      bool inputsReplaced = false;
      // Both runs compare against what the reference does on these inputs,
      // measured at most once for the two.
      // A reference with float atomics may not agree with itself. Run it
      // once more, only when a float buffer differs, and measure by how much
      // (for every float buffer on the host then; a buffer that only the
      // second run of the candidate changes measures it again).
      std::vector<double> selfDisagreement(spec.num_params, 0.0);
      std::vector<char> disagreementMeasured(spec.num_params, 0);
      auto rerunReference = [&]() -> autoprof_status {
        if (autoprof_status s = buffers.upload())
          return s;
        if (autoprof_status s = run(reference, *referenceSpec, "reference"))
          return s;
        std::vector<uint8_t> again;
        for (size_t i = 0; i < spec.num_params; ++i) {
          const autoprof_param &param = spec.params[i];
          if (param.is_scalar || !isFloatType(param.dtype) || !onHost[i])
            continue;
          if (autoprof_status s = buffers.download(i, again))
            return s;
          selfDisagreement[i] =
              relativeDisagreement(param, referenceOut[i], again);
          disagreementMeasured[i] = 1;
        }
        return AUTOPROF_OK;
      };
      // A reassociating candidate: the reference on the inputs' absolute
      // values gives the magnitude of each sum's terms. Only the buffers the
      // reference writes come back (an input's magnitude bounds nothing; on
      // a matrix-vector product the matrix is most of the bytes).
      std::vector<std::vector<uint8_t>> magnitudes(spec.num_params);
      bool magnitudesRun = false;
      auto runMagnitudes = [&]() -> autoprof_status {
        magnitudesRun = true;
        inputsReplaced = true;
        if (autoprof_status s = buffers.uploadAbsolute())
          return s;
        if (autoprof_status s = run(reference, *referenceSpec, "reference"))
          return s;
        for (size_t i = 0; i < spec.num_params; ++i) {
          const autoprof_param &param = spec.params[i];
          if (param.is_scalar || !isFloatType(param.dtype) ||
              param.role == AUTOPROF_ROLE_INPUT)
            continue;
          if (autoprof_status s = buffers.download(i, magnitudes[i]))
            return s;
        }
        return AUTOPROF_OK;
      };
      for (int pass = 0; pass < 2; ++pass) {
        // Prefixes a rejection of the second run with what it means.
        auto secondRun = [&]() {
          if (pass == 0)
            return;
          std::string reason = std::string("results depend on earlier launches "
                                           "(a second run on the same "
                                           "inputs): ") +
                               out->reason;
          writeReason(out->reason, "%s", reason.c_str());
        };
        // Candidate, on the same initial contents.
        if (onDevice && !inputsReplaced) {
          if (autoprof_status s = buffers.restoreAsync(session->stream))
            return s;
          if (autoprof_status s = buffers.refillGuardsAsync())
            return s;
        } else if (autoprof_status s = buffers.upload()) {
          return s;
        }
        if (autoprof_status s =
                run(candidate, *candidateSpec, "candidate", candidateMap))
          return s;
        std::vector<char> differs(spec.num_params, 1);
        if (onDevice)
          if (autoprof_status s = buffers.findDifferences(differs))
            return s;
        for (size_t i = 0; i < spec.num_params; ++i) {
          if (spec.params[i].is_scalar || !differs[i])
            continue;
          if (autoprof_status s = buffers.download(i, candidateOut[i]))
            return s;
          if (!onHost[i]) {
            if (spec.params[i].role == AUTOPROF_ROLE_INPUT)
              referenceOut[i] = buffers.initial(i);
            else if (autoprof_status s =
                         buffers.downloadExpected(i, referenceOut[i]))
              return s;
            onHost[i] = 1;
          }
        }
        if (autoprof_status s = buffers.findGuardWrite(strayWrite, strayParam,
                                                       strayOffset, strayValue))
          return s;
        if (strayWrite) {
          const autoprof_param &param = spec.params[strayParam];
          out->passed = 0;
          out->param_index = static_cast<int>(strayParam);
          out->element = param.count + strayOffset / dtypeSize(param.dtype);
          writeReason(out->reason,
                      "wrote past the end of a buffer: byte %llu after the "
                      "%llu elements of parameter %zu (%s %s) is 0x%02x, not "
                      "the guard byte 0x%02x (seed %llu, distribution %s)",
                      static_cast<unsigned long long>(strayOffset),
                      static_cast<unsigned long long>(param.count), strayParam,
                      dtypeName(param.dtype), roleName(param.role), strayValue,
                      GuardByte, static_cast<unsigned long long>(seed),
                      distName);
          secondRun();
          return AUTOPROF_OK;
        }
        for (size_t i = 0; i < spec.num_params; ++i) {
          const autoprof_param &param = spec.params[i];
          if (param.is_scalar)
            continue;
          if (!differs[i])
            continue;
          const std::vector<uint8_t> &expected = referenceOut[i];
          if (candidateOut[i] == expected)
            continue;
          if (isFloatType(param.dtype) && !disagreementMeasured[i])
            if (autoprof_status s = rerunReference())
              return s;
          // A reference that disagrees with itself reorders its sums (float
          // atomics): the candidate may round as another order does, so it is
          // compared as a reassociated sum too, through its terms' magnitude.
          bool nondeterministic =
              isFloatType(param.dtype) && selfDisagreement[i] > 0;
          if (isFloatType(param.dtype) && (reassociated || nondeterministic) &&
              !magnitudesRun)
            if (autoprof_status s = runMagnitudes())
              return s;
          const uint8_t *magnitude =
              (reassociated || nondeterministic) && !magnitudes[i].empty()
                  ? magnitudes[i].data()
                  : nullptr;
          double baseTolerance =
              param.dtype == AUTOPROF_F16 || param.dtype == AUTOPROF_BF16
                  ? tolerance16
              : param.dtype == AUTOPROF_F64 ? tolerance64
                                            : tolerance32;
          // Allow a candidate what the reference allows itself, with margin.
          double tolerance =
              baseTolerance + NondeterminismMargin * selfDisagreement[i];
          const uint8_t *initial = buffers.initial(i).data();
          Mismatch first = Mismatch::None;
          uint64_t firstElement = 0, bad = 0;
          for (uint64_t j = 0; j < param.count; ++j) {
            Mismatch m =
                classify(param, initial, expected.data(),
                         candidateOut[i].data(), j, tolerance, magnitude);
            if (m == Mismatch::None)
              continue;
            if (bad++ == 0) {
              first = m;
              firstElement = j;
            }
          }
          if (first == Mismatch::None)
            continue; // Differences within tolerance.
          out->passed = 0;
          out->param_index = static_cast<int>(i);
          out->element = firstElement;
          out->expected =
              loadElement(expected.data(), param.dtype, firstElement);
          out->actual =
              loadElement(candidateOut[i].data(), param.dtype, firstElement);
          std::string exp =
              formatElement(expected.data(), param.dtype, firstElement);
          std::string act =
              formatElement(candidateOut[i].data(), param.dtype, firstElement);
          std::string was = formatElement(initial, param.dtype, firstElement);
          char where[160];
          std::snprintf(where, sizeof(where),
                        "parameter %zu (%s %s) element %llu", i,
                        dtypeName(param.dtype), roleName(param.role),
                        static_cast<unsigned long long>(firstElement));
          char tail[200];
          std::snprintf(tail, sizeof(tail),
                        "%llu of %llu elements differ; seed %llu, distribution "
                        "%s",
                        static_cast<unsigned long long>(bad),
                        static_cast<unsigned long long>(param.count),
                        static_cast<unsigned long long>(seed), distName);
          switch (first) {
          case Mismatch::WrongResult:
            if (nondeterministic && magnitude)
              writeReason(
                  out->reason,
                  "wrong result: %s is %s but the reference computed "
                  "%s (tolerance %g x (1 + |expected|) + %g x %s, the "
                  "magnitude of the terms of its sums, widened because the "
                  "reference itself varies by up to %g x (1 + |expected|) "
                  "between runs; %s)",
                  where, act.c_str(), exp.c_str(), tolerance,
                  reassociationTolerance(param.dtype),
                  formatElement(magnitude, param.dtype, firstElement).c_str(),
                  selfDisagreement[i], tail);
            else if (isFloatType(param.dtype) && magnitude)
              writeReason(
                  out->reason,
                  "wrong result: %s is %s but the reference computed "
                  "%s (tolerance %g x (1 + |expected|) + %g x %s, the "
                  "magnitude of the terms of the reassociated sums; "
                  "%s)",
                  where, act.c_str(), exp.c_str(), tolerance,
                  reassociationTolerance(param.dtype),
                  formatElement(magnitude, param.dtype, firstElement).c_str(),
                  tail);
            else if (isFloatType(param.dtype))
              writeReason(out->reason,
                          "wrong result: %s is %s but the reference computed "
                          "%s (tolerance %g x (1 + |expected|); %s)",
                          where, act.c_str(), exp.c_str(), tolerance, tail);
            else
              writeReason(out->reason,
                          "wrong result: %s is %s but the reference computed "
                          "%s (integers compare exactly; %s)",
                          where, act.c_str(), exp.c_str(), tail);
            break;
          case Mismatch::DidNotWrite:
            writeReason(out->reason,
                        "did not write: %s still holds the poison value "
                        "(bytes 0x%02x) where the reference computed %s (%s)",
                        where, buffers.poisonByte(), exp.c_str(), tail);
            break;
          case Mismatch::WroteOutside:
            writeReason(out->reason,
                        "wrote outside the reference's outputs: %s is %s but "
                        "the reference left it unwritten (poison) (%s)",
                        where, act.c_str(), tail);
            break;
          case Mismatch::UnexpectedNaN:
            writeReason(out->reason,
                        "NaN where the reference has none: %s is %s but the "
                        "reference computed %s (%s)",
                        where, act.c_str(), exp.c_str(), tail);
            break;
          case Mismatch::WroteInput:
            out->expected = loadElement(initial, param.dtype, firstElement);
            writeReason(out->reason,
                        "wrote into an input: %s is %s but was %s before the "
                        "run (%s)",
                        where, act.c_str(), was.c_str(), tail);
            break;
          case Mismatch::None:
            break;
          }
          secondRun();
          return AUTOPROF_OK;
        }
      } // pass
    }
  }
  out->passed = 1;
  out->param_index = -1;
  out->reason[0] = '\0';
  return AUTOPROF_OK;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

namespace {

/// Reads a buffer with 128-bit loads (grid-stride) and never writes: the L2
/// ends up holding clean lines of that buffer. Flushing by writing (a memset)
/// would leave dirty lines whose write-back then lands inside the timed
/// kernel and inflates its duration and DRAM writes. Written for sm_75 so
/// that the driver JIT-compiles it for any newer GPU.
constexpr const char *kFlushPtx = R"ptx(
.version 6.3
.target sm_75
.address_size 64
.visible .entry autoprof_l2_flush(.param .u64 data, .param .u64 count,
                                  .param .u64 sink)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [data];
  ld.param.u64 %rd2, [count];
  ld.param.u64 %rd3, [sink];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r4, %r2;
  mov.u32 %r5, 0;
LOOP:
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
  shl.b64 %rd7, %rd4, 4;
  add.u64 %rd8, %rd1, %rd7;
  ld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd8];
  xor.b32 %r5, %r5, %r6;
  xor.b32 %r5, %r5, %r7;
  xor.b32 %r5, %r5, %r8;
  xor.b32 %r5, %r5, %r9;
  add.u64 %rd4, %rd4, %rd6;
  bra LOOP;
DONE:
  // The buffer is all zeros, so this store never happens; it keeps the
  // loads alive.
  setp.ne.u32 %p2, %r5, 0;
  @!%p2 bra END;
  cvta.to.global.u64 %rd3, %rd3;
  st.global.u32 [%rd3], %r5;
END:
  ret;
}
)ptx";

/// Allocates the session's L2 flush buffer (>= 4x L2) and loads the kernel
/// that reads it, on first use.
autoprof_status ensureFlushBuffer(autoprof_session *session) {
  if (session->flushBuffer)
    return AUTOPROF_OK;
  const CudaApi &api = cuda();
  size_t l2 = static_cast<size_t>(
      std::max<int64_t>(session->facts.l2_bytes, int64_t(1) << 20));
  size_t bytes = std::max(4 * l2, size_t(64) << 20);
  bytes = (bytes + 15) / 16 * 16;
  if (!session->flushModule) {
    if (CUresult r = api.cuModuleLoadDataEx(&session->flushModule, kFlushPtx, 0,
                                            nullptr, nullptr))
      return cudaFailure(session, r, "cannot load the L2 flush kernel");
    if (CUresult r = api.cuModuleGetFunction(
            &session->flushFunction, session->flushModule, "autoprof_l2_flush"))
      return cudaFailure(session, r, "cannot find the L2 flush kernel");
  }
  CUdeviceptr ptr = 0;
  if (CUresult r = api.cuMemAlloc(&ptr, bytes + 16)) {
    std::string what = "cannot allocate the " + std::to_string(bytes) +
                       "-byte L2 flush buffer";
    return cudaFailure(session, r, what.c_str());
  }
  // Zero it once (the only write) and let the write-back happen now, not
  // during a measurement.
  if (CUresult r = api.cuMemsetD8Async(ptr, 0, bytes + 16, session->stream)) {
    api.cuMemFree(ptr);
    return cudaFailure(session, r, "cannot clear the L2 flush buffer");
  }
  session->flushBuffer = ptr;
  session->flushBytes = bytes;
  return AUTOPROF_OK;
}

/// Enqueues one L2 flush: a read of the whole flush buffer.
autoprof_status enqueueL2Flush(autoprof_session *session, CUstream stream) {
  CUdeviceptr data = session->flushBuffer;
  unsigned long long count = session->flushBytes / 16;
  CUdeviceptr sink = session->flushBuffer + session->flushBytes;
  void *args[] = {&data, &count, &sink};
  unsigned blocks =
      static_cast<unsigned>(std::max(1, session->facts.sm_count) * 8);
  if (CUresult r = cuda().cuLaunchKernel(session->flushFunction, blocks, 1, 1,
                                         256, 1, 1, 0, stream, args, nullptr))
    return cudaFailure(session, r, "cannot flush L2");
  return AUTOPROF_OK;
}

} // namespace

namespace {
/// Fills `out` with the statistics of `samples` (microseconds).
void summarizeSamples(std::vector<double> samples, autoprof_timing &out) {
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  double sum = 0;
  for (double v : samples)
    sum += v;
  double mean = sum / static_cast<double>(n);
  double squares = 0;
  for (double v : samples)
    squares += (v - mean) * (v - mean);
  double med = percentile(samples, 0.5);
  std::vector<double> deviations;
  deviations.reserve(n);
  for (double v : samples)
    deviations.push_back(std::fabs(v - med));
  out.samples = static_cast<int>(n);
  out.median_us = med;
  out.min_us = samples.front();
  out.max_us = samples.back();
  out.mean_us = mean;
  out.stddev_us = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0;
  out.mad_us = median(deviations);
  out.p10_us = percentile(samples, 0.1);
  out.p90_us = percentile(samples, 0.9);
}
} // namespace

extern "C" autoprof_status autoprof_time(autoprof_session *session,
                                         autoprof_kernel *kernel,
                                         const autoprof_launch_spec *spec,
                                         const autoprof_timing_options *options,
                                         autoprof_timing *out) {
  return autoprof_time_interleaved(session, 1, &kernel, &spec, options, out);
}

extern "C" autoprof_status autoprof_time_interleaved(
    autoprof_session *session, size_t count, autoprof_kernel *const *kernels,
    const autoprof_launch_spec *const *specs,
    const autoprof_timing_options *options, autoprof_timing *out) {
  AUTOPROF_CHECK_SESSION(session);
  constexpr size_t MaxKernels = 8;
  if (!out || !kernels || !specs)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_time: no kernels or no result given");
  if (count < 1 || count > MaxKernels)
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_time_interleaved: %zu kernels (1 to %zu)", count,
                    MaxKernels);
  for (size_t k = 0; k < count; ++k)
    std::memset(&out[k], 0, sizeof(out[k]));
  autoprof_timing_options opts;
  if (options) {
    opts = *options;
  } else {
    opts.warmup = 3;
    opts.min_repetitions = 10;
    opts.max_repetitions = 200;
    opts.time_budget_s = 1.0;
    opts.flush_l2 = 1;
    opts.seed = 1;
    opts.distribution = AUTOPROF_DIST_NORMAL;
  }
  if (!isValidDistribution(opts.distribution))
    return setError(session, AUTOPROF_ERROR_INVALID_ARGUMENT,
                    "autoprof_time: invalid distribution %d",
                    static_cast<int>(opts.distribution));
  int warmup = std::max(opts.warmup, 0);
  int minReps = std::max(opts.min_repetitions, 1);
  int maxReps = std::max(opts.max_repetitions, minReps);
  double budget = opts.time_budget_s; // <= 0: no budget, run maxReps.

  AUTOPROF_PUSH_CONTEXT(session, scope);
  for (size_t k = 0; k < count; ++k)
    if (autoprof_status s = checkLaunchSpec(session, kernels[k], specs[k], 1))
      return s;
  const CudaApi &api = cuda();
  CUstream stream = session->stream;
  if (opts.flush_l2)
    if (autoprof_status s = ensureFlushBuffer(session))
      return s;
  // Each kernel's timed launches alternate between two input sets (the seed
  // and the next), so that a kernel that remembers its last inputs gains
  // nothing.
  struct Timed {
    std::unique_ptr<LaunchBuffers> sets[2];
    int numSets = 1;
    int launches = 0;
    std::vector<double> samples; // Microseconds.
  };
  std::vector<Timed> timed(count);
  for (size_t k = 0; k < count; ++k) {
    Timed &t = timed[k];
    t.sets[0] = std::make_unique<LaunchBuffers>(session);
    t.sets[1] = std::make_unique<LaunchBuffers>(session);
    if (autoprof_status s =
            t.sets[0]->prepare(*specs[k], opts.seed, opts.distribution))
      return s;
    if (autoprof_status s = t.sets[0]->keepDeviceCopies())
      return s;
    if (t.sets[1]->prepare(*specs[k], opts.seed + 1, opts.distribution) ==
            AUTOPROF_OK &&
        t.sets[1]->keepDeviceCopies() == AUTOPROF_OK)
      t.numSets = 2;
    out[k].input_sets = t.numSets;
  }

  // Restores kernel k's next input set, flushes L2 and launches it; records
  // events around the launch when given.
  auto enqueue = [&](size_t k, CUevent start, CUevent end) -> autoprof_status {
    Timed &t = timed[k];
    LaunchBuffers &buffers = *t.sets[t.launches++ % t.numSets];
    if (autoprof_status s = buffers.restoreAsync(stream))
      return s;
    if (opts.flush_l2)
      if (autoprof_status s = enqueueL2Flush(session, stream))
        return s;
    if (start)
      if (CUresult r = api.cuEventRecord(start, stream))
        return cudaFailure(session, r, "cannot record an event");
    if (autoprof_status s = buffers.launch(kernels[k], *specs[k], stream))
      return s;
    if (end)
      if (CUresult r = api.cuEventRecord(end, stream))
        return cudaFailure(session, r, "cannot record an event");
    return AUTOPROF_OK;
  };

  for (int i = 0; i < warmup; ++i)
    for (size_t k = 0; k < count; ++k)
      if (autoprof_status s = enqueue(k, nullptr, nullptr))
        return s;
  if (autoprof_status s = timed[0].sets[0]->synchronize())
    return s;

  int clockBefore = readSmClockKHz(session);
  int clockMin = clockBefore;
  auto readClock = [&] {
    int clock = readSmClockKHz(session);
    if (clock > 0 && (clockMin <= 0 || clock < clockMin))
      clockMin = clock;
    return clock;
  };
  EventList events;
  int rounds = 0;
  auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         started)
        .count();
  };
  // Rounds are enqueued in chunks (so the GPU never waits for the host
  // between a start event and its launch) and the budget is checked between
  // chunks.
  constexpr int MaxChunk = 64;
  while (rounds < maxReps) {
    int chunk = std::min(MaxChunk, maxReps - rounds);
    if (rounds >= minReps) {
      if (budget > 0) {
        double spent = elapsed();
        if (spent >= budget)
          break;
        double perRound = spent / rounds;
        int affordable = perRound > 0
                             ? static_cast<int>((budget - spent) / perRound) + 1
                             : chunk;
        chunk = std::max(1, std::min(chunk, affordable));
      }
    } else {
      chunk = std::min(chunk, minReps - rounds);
    }
    size_t launches = static_cast<size_t>(chunk) * count;
    std::vector<CUevent> starts(launches), ends(launches);
    for (size_t i = 0; i < launches; ++i) {
      CUresult r;
      starts[i] = events.create(r);
      ends[i] = starts[i] ? events.create(r) : nullptr;
      if (!ends[i])
        return cudaFailure(session, r, "cannot create CUDA events");
    }
    for (size_t i = 0; i < launches; ++i)
      if (autoprof_status s = enqueue(i % count, starts[i], ends[i]))
        return s;
    if (CUresult r = api.cuEventSynchronize(ends[launches - 1]))
      return launchFailure(session, r, "the kernel failed while being timed");
    for (size_t i = 0; i < launches; ++i) {
      float ms = 0;
      if (CUresult r = api.cuEventElapsedTime(&ms, starts[i], ends[i]))
        return cudaFailure(session, r, "cannot read event times");
      timed[i % count].samples.push_back(static_cast<double>(ms) * 1e3);
    }
    rounds += chunk;
    readClock();
  }
  if (autoprof_status s = timed[0].sets[0]->synchronize())
    return s;
  int clockAfter = readClock();

  for (size_t k = 0; k < count; ++k) {
    summarizeSamples(std::move(timed[k].samples), out[k]);
    out[k].sm_clock_khz_before = clockBefore;
    out[k].sm_clock_khz_after = clockAfter;
    out[k].sm_clock_khz_min = clockMin;
  }
  return AUTOPROF_OK;
}
