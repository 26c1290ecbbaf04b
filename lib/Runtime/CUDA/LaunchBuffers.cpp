//===- LaunchBuffers.cpp - Device buffers of a launch ---------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The device buffers of a launch: generated inputs, poisoned outputs,
// guard zones, and their comparison (docs/runtime.md).
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
