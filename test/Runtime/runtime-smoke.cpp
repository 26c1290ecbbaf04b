//===- runtime-smoke.cpp - Smoke test of the GPU runtime shim on a GPU ----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A standalone program (no gtest, no LLVM) that exercises the C ABI of
// include/autoprof/Runtime/Runtime.h on a real GPU: device facts, peak
// bandwidth, PTX / CUDA C++ loading and their error logs, launch spec
// checks, verification of a correct candidate and of planted faults, and
// timing. It prints one line per check and "N passed, N failed" last; the
// exit status is nonzero when a check failed.
//
//   g++ -std=c++17 -fno-exceptions -O2 -Iinclude -I/usr/local/cuda/include
//       test/Runtime/runtime-smoke.cpp lib/Runtime/CUDA/{CudaApi,Runtime}.cpp
//       -ldl -lpthread -o runtime-smoke && ./runtime-smoke
//
// Faults that destroy the context are not part of the main run; each of
// `runtime-smoke --fault illegal-address` and `--fault trap` checks in a
// process of its own that verify and time report AUTOPROF_ERROR_LAUNCH with
// the driver's error name instead of crashing.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/Runtime.h"

#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int passed = 0;
int failed = 0;

/// Prints one check line; the detail is cut to one line of bounded length.
void check(bool ok, const char *name, const std::string &detail) {
  std::string line = detail;
  for (char &c : line)
    if (c == '\n' || c == '\r')
      c = ' ';
  if (line.size() > 400)
    line = line.substr(0, 400) + "...";
  std::printf("%s %s: %s\n", ok ? "PASS" : "FAIL", name, line.c_str());
  std::fflush(stdout);
  ++(ok ? passed : failed);
}

std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *fmt, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof(buffer), fmt, args);
  va_end(args);
  return buffer;
}

const char *statusName(autoprof_status status) {
  switch (status) {
  case AUTOPROF_OK:
    return "OK";
  case AUTOPROF_ERROR_NO_DRIVER:
    return "NO_DRIVER";
  case AUTOPROF_ERROR_NO_DEVICE:
    return "NO_DEVICE";
  case AUTOPROF_ERROR_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case AUTOPROF_ERROR_COMPILE:
    return "COMPILE";
  case AUTOPROF_ERROR_LOAD:
    return "LOAD";
  case AUTOPROF_ERROR_OUT_OF_MEMORY:
    return "OUT_OF_MEMORY";
  case AUTOPROF_ERROR_LAUNCH:
    return "LAUNCH";
  case AUTOPROF_ERROR_PROFILER:
    return "PROFILER";
  }
  return "?";
}

bool contains(const std::string &text, const char *needle) {
  return text.find(needle) != std::string::npos;
}

// y = a * x + y written to `out`, hand-written PTX for sm_90.
const char *AxpyPtx = R"(
.version 8.0
.target sm_90
.address_size 64

.visible .entry axpy(
    .param .u64 axpy_param_0,
    .param .u64 axpy_param_1,
    .param .u64 axpy_param_2,
    .param .f32 axpy_param_3,
    .param .u32 axpy_param_4
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<5>;
    .reg .b64 %rd<11>;

    ld.param.u64 %rd1, [axpy_param_0];
    ld.param.u64 %rd2, [axpy_param_1];
    ld.param.u64 %rd3, [axpy_param_2];
    ld.param.f32 %f1, [axpy_param_3];
    ld.param.u32 %r1, [axpy_param_4];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mul.wide.u32 %rd7, %r5, 4;
    add.s64 %rd8, %rd4, %rd7;
    add.s64 %rd9, %rd5, %rd7;
    add.s64 %rd10, %rd6, %rd7;
    ld.global.f32 %f2, [%rd8];
    ld.global.f32 %f3, [%rd9];
    fma.rn.f32 %f4, %f1, %f2, %f3;
    st.global.f32 [%rd10], %f4;
DONE:
    ret;
}
)";

const char *CudaSource = R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += gridDim.x * blockDim.x)

extern "C" __global__ void axpy_cuda(const float *x, const float *y,
                                     float *out, float a, int n) {
  LOOP(i, n) out[i] = a * x[i] + y[i];
}
extern "C" __global__ void axpy_nofma(const float *x, const float *y,
                                      float *out, float a, int n) {
  LOOP(i, n) out[i] = __fadd_rn(__fmul_rn(a, x[i]), y[i]);
}
extern "C" __global__ void axpy_wrong(const float *x, const float *y,
                                      float *out, float a, int n) {
  LOOP(i, n) out[i] = a * x[i] - y[i];
}
extern "C" __global__ void axpy_partial(const float *x, const float *y,
                                        float *out, float a, int n) {
  LOOP(i, n / 2) out[i] = a * x[i] + y[i];
}
extern "C" __global__ void axpy_nan(const float *x, const float *y,
                                    float *out, float a, int n) {
  LOOP(i, n) out[i] = i == 7 ? __int_as_float(0x7fc00000) : a * x[i] + y[i];
}
extern "C" __global__ void axpy_clobber(float *x, const float *y, float *out,
                                        float a, int n) {
  LOOP(i, n) {
    out[i] = a * x[i] + y[i];
    if (i == 9)
      x[i] = 42.0f;
  }
}
extern "C" __global__ void axpy_extra(const float *x, const float *y,
                                      float *out, float *extra, float a,
                                      int n) {
  LOOP(i, n) out[i] = a * x[i] + y[i];
}
extern "C" __global__ void axpy_extra_bad(const float *x, const float *y,
                                          float *out, float *extra, float a,
                                          int n) {
  LOOP(i, n) {
    out[i] = a * x[i] + y[i];
    if (i == 3)
      extra[i] = 1.0f;
  }
}
extern "C" __global__ void scale3(const int *a, int *out, int n) {
  LOOP(i, n) out[i] = a[i] * 3;
}
extern "C" __global__ void scale3_bad(const int *a, int *out, int n) {
  LOOP(i, n) out[i] = a[i] * 3 + (i == 5);
}
// scale3 with its length sunk into the body and its buffers swapped.
extern "C" __global__ void scale3_sunk(int *out, const int *a) {
  LOOP(i, 1 << 20) out[i] = a[i] * 3;
}
extern "C" __global__ void scale3_sunk_bad(int *out, const int *a) {
  LOOP(i, 1 << 20) out[i] = a[i] * 3 + (i == 7);
}
extern "C" __global__ void gather(const float *x, const int *index,
                                  float *out, int n) {
  LOOP(i, n) out[i] = x[index[i]];
}
extern "C" __global__ void copy_f32(const float *x, float *out, int n) {
  LOOP(i, n) out[i] = x[i];
}
extern "C" __global__ void zero_f32(const float *x, float *out, int n) {
  LOOP(i, n) out[i] = 0.0f;
}
extern "C" __global__ void copy_smem(const float *x, float *out, int n) {
  extern __shared__ float stage[];
  LOOP(i, n) {
    stage[threadIdx.x] = x[i];
    out[i] = stage[threadIdx.x];
  }
}
extern "C" __global__ void accum(const float *x, float *acc, int n) {
  LOOP(i, n) acc[i] += x[i];
}
extern "C" __global__ void accum_bad(const float *x, float *acc, int n) {
  LOOP(i, n) acc[i] += 2.0f * x[i];
}
extern "C" __global__ void scale_f16(const __half *x, __half *out, int n) {
  LOOP(i, n) out[i] = __float2half(__half2float(x[i]) * 2.0f);
}
extern "C" __global__ void scale_f16_hmul(const __half *x, __half *out,
                                          int n) {
  LOOP(i, n) out[i] = __hmul(x[i], __float2half(2.0f));
}
extern "C" __global__ void scale_f16_bad(const __half *x, __half *out,
                                         int n) {
  LOOP(i, n) out[i] = __float2half(__half2float(x[i]) * 2.0f + 0.25f);
}
extern "C" __global__ void scale_bf16(const __nv_bfloat16 *x,
                                      __nv_bfloat16 *out, int n) {
  LOOP(i, n) out[i] = __float2bfloat16(__bfloat162float(x[i]) * 2.0f);
}
extern "C" __global__ void scale_bf16_hmul(const __nv_bfloat16 *x,
                                           __nv_bfloat16 *out, int n) {
  LOOP(i, n) out[i] = __hmul(x[i], __float2bfloat16(2.0f));
}
extern "C" __global__ void wild_write(const float *x, const float *y,
                                      float *out, float a, int n) {
  float *wild = out + (1ull << 40); // 4 TiB past the buffer: unmapped.
  LOOP(i, n) wild[i] = a * x[i] + y[i];
}
extern "C" __global__ void trap_kernel(const float *x, const float *y,
                                       float *out, float a, int n) {
  __trap();
}
)";

autoprof_param buffer(autoprof_dtype dtype, uint64_t count, autoprof_role role,
                      int64_t indexBound = 0) {
  autoprof_param p = {};
  p.is_scalar = 0;
  p.dtype = dtype;
  p.count = count;
  p.role = role;
  p.index_bound = indexBound;
  return p;
}

autoprof_param scalarF32(double value) {
  autoprof_param p = {};
  p.is_scalar = 1;
  p.dtype = AUTOPROF_F32;
  p.f = value;
  return p;
}

autoprof_param scalarI32(int64_t value) {
  autoprof_param p = {};
  p.is_scalar = 1;
  p.dtype = AUTOPROF_I32;
  p.i = value;
  return p;
}

autoprof_launch_spec makeSpec(const std::vector<autoprof_param> &params,
                              unsigned grid, unsigned block,
                              unsigned shared = 0) {
  autoprof_launch_spec spec = {};
  spec.grid[0] = grid;
  spec.grid[1] = spec.grid[2] = 1;
  spec.block[0] = block;
  spec.block[1] = spec.block[2] = 1;
  spec.dynamic_shared_bytes = shared;
  spec.params = params.data();
  spec.num_params = params.size();
  return spec;
}

struct Smoke {
  autoprof_session *session = nullptr;
  std::vector<autoprof_kernel *> kernels;

  ~Smoke() {
    for (autoprof_kernel *kernel : kernels)
      autoprof_kernel_unload(kernel);
    if (session)
      autoprof_session_destroy(session);
  }

  std::string error() { return autoprof_last_error(session); }

  autoprof_kernel *loadCuda(const char *entry) {
    autoprof_kernel *kernel = nullptr;
    autoprof_status s = autoprof_kernel_load(session, AUTOPROF_CODE_CUDA,
                                             CudaSource, 0, entry, &kernel);
    if (s != AUTOPROF_OK) {
      check(false, "load-cuda",
            format("%s: %s: %s", entry, statusName(s), error().c_str()));
      return nullptr;
    }
    kernels.push_back(kernel);
    return kernel;
  }

  /// Verifies and checks the outcome: passes, or is rejected with a reason
  /// starting with `reason` at `param`.
  void expectVerify(const char *name, autoprof_kernel *reference,
                    const autoprof_launch_spec &referenceSpec,
                    autoprof_kernel *candidate,
                    const autoprof_launch_spec &candidateSpec,
                    const char *reason, int param,
                    const autoprof_verify_options *options = nullptr) {
    if (!reference || !candidate) {
      check(false, name, "kernel not loaded");
      return;
    }
    autoprof_verify_result result;
    autoprof_status s =
        autoprof_verify(session, reference, &referenceSpec, candidate,
                        &candidateSpec, options, &result);
    if (s != AUTOPROF_OK) {
      check(false, name,
            format("status %s: %s", statusName(s), error().c_str()));
      return;
    }
    if (!reason) {
      check(result.passed, name,
            result.passed ? "passed" : format("rejected: %s", result.reason));
      return;
    }
    bool ok = !result.passed &&
              std::strncmp(result.reason, reason, std::strlen(reason)) == 0 &&
              result.param_index == param;
    check(ok, name,
          format("%s (param %d, element %llu, expected %g, actual %g)",
                 result.passed ? "passed unexpectedly" : result.reason,
                 result.param_index,
                 static_cast<unsigned long long>(result.element),
                 result.expected, result.actual));
  }
};

int runFault(const char *kind) {
  Smoke smoke;
  if (autoprof_session_create(0, &smoke.session) != AUTOPROF_OK) {
    check(false, "session", autoprof_last_error(nullptr));
    return 1;
  }
  autoprof_kernel *reference = nullptr;
  autoprof_status s = autoprof_kernel_load(smoke.session, AUTOPROF_CODE_PTX,
                                           AxpyPtx, 0, "axpy", &reference);
  if (s != AUTOPROF_OK) {
    check(false, "load-ptx", smoke.error());
    return 1;
  }
  smoke.kernels.push_back(reference);
  bool trap = std::strcmp(kind, "trap") == 0;
  autoprof_kernel *bad = smoke.loadCuda(trap ? "trap_kernel" : "wild_write");
  if (!bad)
    return 1;
  const uint64_t n = 1 << 20;
  std::vector<autoprof_param> params = {
      buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INPUT),
      buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INPUT),
      buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_OUTPUT), scalarF32(2.5),
      scalarI32(n)};
  autoprof_launch_spec spec = makeSpec(params, n / 256, 256);
  const char *expectedName =
      trap ? "CUDA_ERROR_LAUNCH_FAILED" : "CUDA_ERROR_ILLEGAL_ADDRESS";
  if (trap) {
    autoprof_timing timing;
    s = autoprof_time(smoke.session, bad, &spec, nullptr, &timing);
    check(s == AUTOPROF_ERROR_LAUNCH && contains(smoke.error(), "CUDA_ERROR"),
          "fault-trap-time",
          format("status %s: %s", statusName(s), smoke.error().c_str()));
  } else {
    autoprof_verify_result result;
    s = autoprof_verify(smoke.session, reference, &spec, bad, &spec, nullptr,
                        &result);
    check(s == AUTOPROF_ERROR_LAUNCH && contains(smoke.error(), expectedName) &&
              !result.passed && contains(result.reason, "faulted"),
          "fault-illegal-address-verify",
          format("status %s: %s | reason: %s", statusName(s),
                 smoke.error().c_str(), result.reason));
  }
  // The context is dead; later calls must fail cleanly, not crash.
  autoprof_timing timing;
  s = autoprof_time(smoke.session, reference, &spec, nullptr, &timing);
  check(s != AUTOPROF_OK, "fault-later-calls-fail",
        format("status %s: %s", statusName(s), smoke.error().c_str()));
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "--fault") == 0)
    return runFault(argv[2]);

  // Sessions.
  {
    autoprof_session *none = nullptr;
    autoprof_status s = autoprof_session_create(99, &none);
    check(s == AUTOPROF_ERROR_NO_DEVICE && !none &&
              *autoprof_last_error(nullptr),
          "session-bad-ordinal",
          format("%s: %s", statusName(s), autoprof_last_error(nullptr)));
  }
  Smoke smoke;
  autoprof_status s = autoprof_session_create(0, &smoke.session);
  check(s == AUTOPROF_OK, "session-create",
        s == AUTOPROF_OK ? "device 0" : autoprof_last_error(nullptr));
  if (s != AUTOPROF_OK) {
    std::printf("%d passed, %d failed\n", passed, failed);
    return 1;
  }

  // Device facts.
  autoprof_device_facts facts;
  s = autoprof_device_facts_get(smoke.session, &facts);
  check(s == AUTOPROF_OK && facts.sm_count > 0 && facts.l2_bytes > 0 &&
            facts.global_memory_bytes > 0 &&
            facts.compute_capability_major >= 7,
        "device-facts",
        format("%s sm_%d%d, %d SMs, %d threads/SM, %d B smem/SM, L2 %lld B, "
               "%lld B global, SM clock %d kHz, mem clock %d kHz, bus %d "
               "bits, driver %d",
               facts.name, facts.compute_capability_major,
               facts.compute_capability_minor, facts.sm_count,
               facts.max_threads_per_sm, facts.max_shared_bytes_per_sm,
               static_cast<long long>(facts.l2_bytes),
               static_cast<long long>(facts.global_memory_bytes),
               facts.sm_clock_khz, facts.memory_clock_khz,
               facts.memory_bus_width_bits, facts.driver_version));

  // AUTOPROF_SMOKE_QUICK=1 skips the bandwidth and large timing runs (for
  // runs under compute-sanitizer).
  const char *quickEnv = std::getenv("AUTOPROF_SMOKE_QUICK");
  bool quick = quickEnv && *quickEnv == '1';

  // Peak bandwidth, measured once and cached.
  double peak = 0, peakAgain = 0;
  if (!quick) {
    auto t0 = std::chrono::steady_clock::now();
    s = autoprof_measure_peak_bandwidth(smoke.session, &peak);
    auto t1 = std::chrono::steady_clock::now();
    autoprof_status s2 =
        autoprof_measure_peak_bandwidth(smoke.session, &peakAgain);
    auto t2 = std::chrono::steady_clock::now();
    double first = std::chrono::duration<double>(t1 - t0).count();
    double second = std::chrono::duration<double>(t2 - t1).count();
    check(s == AUTOPROF_OK && s2 == AUTOPROF_OK && peak > 5e11 && peak < 1e13 &&
              peakAgain == peak,
          "peak-bandwidth",
          format("%.3f TB/s (first call %.3f s, cached call %.6f s) %s",
                 peak / 1e12, first, second,
                 s == AUTOPROF_OK ? "" : smoke.error().c_str()));
  }

  // Loading PTX.
  autoprof_kernel *axpy = nullptr;
  s = autoprof_kernel_load(smoke.session, AUTOPROF_CODE_PTX, AxpyPtx, 0, "axpy",
                           &axpy);
  check(s == AUTOPROF_OK, "load-ptx",
        s == AUTOPROF_OK ? "axpy" : smoke.error());
  if (axpy)
    smoke.kernels.push_back(axpy);
  autoprof_kernel_attributes attributes = {};
  if (axpy) {
    s = autoprof_kernel_attributes_get(axpy, &attributes);
    check(s == AUTOPROF_OK && attributes.registers_per_thread > 0 &&
              attributes.max_threads_per_block > 0 &&
              // The virtual architecture the PTX was compiled for.
              attributes.ptx_version == facts.compute_capability_major * 10 +
                                            facts.compute_capability_minor &&
              attributes.binary_version == facts.compute_capability_major * 10 +
                                               facts.compute_capability_minor,
          "kernel-attributes",
          format("%d regs, %d B static smem, %d B local, %d B const, max %d "
                 "threads/block, PTX %d, binary %d",
                 attributes.registers_per_thread,
                 attributes.static_shared_bytes,
                 attributes.local_bytes_per_thread, attributes.const_bytes,
                 attributes.max_threads_per_block, attributes.ptx_version,
                 attributes.binary_version));
    int blocks = 0;
    s = autoprof_kernel_occupancy(axpy, 256, 0, &blocks);
    check(s == AUTOPROF_OK && blocks > 0, "occupancy",
          format("%d blocks of 256 threads per SM", blocks));
  }

  // Broken PTX: the JIT log must come back.
  {
    std::string broken = AxpyPtx;
    size_t at = broken.find("fma.rn.f32 %f4, %f1, %f2, %f3;");
    broken.replace(at, std::strlen("fma.rn.f32 %f4, %f1, %f2, %f3;"),
                   "fma.rn.f32 %f4, %f1, %f2;");
    autoprof_kernel *kernel = nullptr;
    s = autoprof_kernel_load(smoke.session, AUTOPROF_CODE_PTX, broken.c_str(),
                             broken.size(), "axpy", &kernel);
    std::string message = smoke.error();
    check(s == AUTOPROF_ERROR_LOAD && !kernel &&
              contains(message, "CUDA_ERROR_INVALID_PTX") &&
              contains(message, "line"),
          "load-broken-ptx", format("%s: %s", statusName(s), message.c_str()));
    s = autoprof_kernel_load(smoke.session, AUTOPROF_CODE_PTX, AxpyPtx, 0,
                             "no_such_kernel", &kernel);
    check(s == AUTOPROF_ERROR_LOAD && !kernel &&
              contains(smoke.error(), "no_such_kernel"),
          "load-missing-entry",
          format("%s: %s", statusName(s), smoke.error().c_str()));
  }

  // CUDA C++ through NVRTC, and a broken source.
  autoprof_kernel *axpyCuda = smoke.loadCuda("axpy_cuda");
  check(axpyCuda != nullptr, "load-cuda-nvrtc", "axpy_cuda");
  {
    const char *bad = "extern \"C\" __global__ void broken(float *x) { "
                      "x[0] = undeclared_name; }";
    autoprof_kernel *kernel = nullptr;
    s = autoprof_kernel_load(smoke.session, AUTOPROF_CODE_CUDA, bad, 0,
                             "broken", &kernel);
    std::string message = smoke.error();
    check(s == AUTOPROF_ERROR_COMPILE && !kernel &&
              contains(message, "undeclared_name") &&
              contains(message, "error"),
          "load-broken-cuda", format("%s: %s", statusName(s), message.c_str()));
  }

  const uint64_t n = 1 << 20;
  std::vector<autoprof_param> axpyParams = {
      buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INPUT),
      buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INPUT),
      buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_OUTPUT), scalarF32(2.5),
      scalarI32(n)};
  autoprof_launch_spec axpySpec = makeSpec(axpyParams, n / 256, 256);
  autoprof_launch_spec strideSpec = makeSpec(axpyParams, 264, 512);

  // Launch spec checks.
  if (axpy) {
    s = autoprof_launch_spec_check(smoke.session, axpy, &axpySpec);
    check(s == AUTOPROF_OK, "spec-ok",
          s == AUTOPROF_OK ? "axpy 4096x256" : smoke.error());
    autoprof_launch_spec big = makeSpec(axpyParams, n / 2048, 2048);
    s = autoprof_launch_spec_check(smoke.session, axpy, &big);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT &&
              contains(smoke.error(), "2048"),
          "spec-block-2048",
          format("%s: %s", statusName(s), smoke.error().c_str()));
    autoprof_launch_spec zeroGrid = makeSpec(axpyParams, 0, 256);
    s = autoprof_launch_spec_check(smoke.session, axpy, &zeroGrid);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT, "spec-grid-zero",
          format("%s: %s", statusName(s), smoke.error().c_str()));
    std::vector<autoprof_param> huge = axpyParams;
    huge[0].count = facts.global_memory_bytes; // 4x device memory in f32.
    autoprof_launch_spec hugeSpec = makeSpec(huge, n / 256, 256);
    s = autoprof_launch_spec_check(smoke.session, axpy, &hugeSpec);
    check(s == AUTOPROF_ERROR_OUT_OF_MEMORY && contains(smoke.error(), "free"),
          "spec-buffer-too-big",
          format("%s: %s", statusName(s), smoke.error().c_str()));
    std::vector<autoprof_param> fewer(axpyParams.begin(), axpyParams.end() - 1);
    autoprof_launch_spec fewerSpec = makeSpec(fewer, n / 256, 256);
    s = autoprof_launch_spec_check(smoke.session, axpy, &fewerSpec);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT, "spec-param-count",
          format("%s: %s", statusName(s), smoke.error().c_str()));
    std::vector<autoprof_param> wide = axpyParams;
    wide[3].dtype = AUTOPROF_F64;
    autoprof_launch_spec wideSpec = makeSpec(wide, n / 256, 256);
    s = autoprof_launch_spec_check(smoke.session, axpy, &wideSpec);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT, "spec-scalar-size",
          format("%s: %s", statusName(s), smoke.error().c_str()));
    std::vector<autoprof_param> badType = axpyParams;
    badType[1].dtype = static_cast<autoprof_dtype>(77);
    autoprof_launch_spec badTypeSpec = makeSpec(badType, n / 256, 256);
    s = autoprof_launch_spec_check(smoke.session, axpy, &badTypeSpec);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT, "spec-bad-dtype",
          format("%s: %s", statusName(s), smoke.error().c_str()));
    autoprof_launch_spec tooMuchShared =
        makeSpec(axpyParams, n / 256, 256, 1 << 20);
    s = autoprof_launch_spec_check(smoke.session, axpy, &tooMuchShared);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT &&
              contains(smoke.error(), "shared"),
          "spec-shared-too-big",
          format("%s: %s", statusName(s), smoke.error().c_str()));
  }

  // Verification: correct candidates pass, planted faults are rejected.
  const uint64_t seeds[] = {1, 7};
  const autoprof_distribution normalOnly[] = {AUTOPROF_DIST_NORMAL};
  autoprof_verify_options normal = {};
  normal.distributions = normalOnly;
  normal.num_distributions = 1;
  normal.seeds = seeds;
  normal.num_seeds = 1;
  smoke.expectVerify("verify-correct-cuda", axpy, axpySpec, axpyCuda,
                     strideSpec, nullptr, -1);
  smoke.expectVerify("verify-self", axpy, axpySpec, axpy, axpySpec, nullptr,
                     -1);
  // Without FMA contraction the results differ in the last bits. (Not with
  // the large distribution: a * x + y cancels there, and the error relative
  // to 1 + |result| exceeds the f32 tolerance.)
  {
    const autoprof_distribution mild[] = {AUTOPROF_DIST_NORMAL,
                                          AUTOPROF_DIST_UNIFORM};
    autoprof_verify_options options = {};
    options.distributions = mild;
    options.num_distributions = 2;
    smoke.expectVerify("verify-within-tolerance", axpy, axpySpec,
                       smoke.loadCuda("axpy_nofma"), strideSpec, nullptr, -1,
                       &options);
  }
  smoke.expectVerify("verify-wrong-result", axpy, axpySpec,
                     smoke.loadCuda("axpy_wrong"), strideSpec, "wrong result",
                     2);
  smoke.expectVerify("verify-partial-write", axpy, axpySpec,
                     smoke.loadCuda("axpy_partial"), strideSpec,
                     "did not write", 2);
  smoke.expectVerify("verify-nan-output", axpy, axpySpec,
                     smoke.loadCuda("axpy_nan"), strideSpec,
                     "NaN where the reference has none", 2);
  smoke.expectVerify("verify-writes-input", axpy, axpySpec,
                     smoke.loadCuda("axpy_clobber"), strideSpec,
                     "wrote into an input", 0);
  {
    std::vector<autoprof_param> extraParams = {
        buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_OUTPUT),
        buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_OUTPUT),
        scalarF32(-1.5),
        scalarI32(n)};
    autoprof_launch_spec extraSpec = makeSpec(extraParams, n / 256, 256);
    smoke.expectVerify("verify-write-outside-outputs",
                       smoke.loadCuda("axpy_extra"), extraSpec,
                       smoke.loadCuda("axpy_extra_bad"), extraSpec,
                       "wrote outside the reference's outputs", 3, &normal);
  }
  {
    std::vector<autoprof_param> mismatched = axpyParams;
    mismatched[3].f = 3.0;
    autoprof_launch_spec otherSpec = makeSpec(mismatched, 264, 512);
    autoprof_verify_result result;
    s = autoprof_verify(smoke.session, axpy, &axpySpec, axpyCuda, &otherSpec,
                        nullptr, &result);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT, "verify-different-params",
          format("%s: %s", statusName(s), smoke.error().c_str()));
  }
  {
    std::vector<autoprof_param> intParams = {
        buffer(AUTOPROF_I32, n, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_I32, n, AUTOPROF_ROLE_OUTPUT), scalarI32(n)};
    autoprof_launch_spec intSpec = makeSpec(intParams, n / 256, 256);
    autoprof_kernel *scale3 = smoke.loadCuda("scale3");
    smoke.expectVerify("verify-int-correct", scale3, intSpec, scale3,
                       makeSpec(intParams, 100, 128), nullptr, -1);
    smoke.expectVerify("verify-int-exact", scale3, intSpec,
                       smoke.loadCuda("scale3_bad"), intSpec, "wrong result",
                       1);

    // A candidate that sank the length receives the reference's buffers
    // through a parameter map; a rejection names the reference's parameter.
    std::vector<autoprof_param> sunkParams = {intParams[1], intParams[0]};
    autoprof_launch_spec sunkSpec = makeSpec(sunkParams, n / 256, 256);
    const size_t swapped[] = {1, 0};
    autoprof_verify_options mapped = {};
    mapped.candidate_param_map = swapped;
    mapped.candidate_param_map_size = 2;
    smoke.expectVerify("verify-mapped-correct", scale3, intSpec,
                       smoke.loadCuda("scale3_sunk"), sunkSpec, nullptr, -1,
                       &mapped);
    smoke.expectVerify("verify-mapped-wrong", scale3, intSpec,
                       smoke.loadCuda("scale3_sunk_bad"), sunkSpec,
                       "wrong result", 1, &mapped);
    // Leaving out a buffer, or receiving one twice, is refused up front.
    autoprof_verify_result result;
    const size_t twice[] = {1, 1};
    mapped.candidate_param_map = twice;
    s = autoprof_verify(smoke.session, scale3, &intSpec, scale3, &sunkSpec,
                        &mapped, &result);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT &&
              contains(smoke.error(), "more than one candidate parameter"),
          "verify-map-twice",
          format("%s: %s", statusName(s), smoke.error().c_str()));
    std::vector<autoprof_param> outputOnly = {intParams[1]};
    autoprof_launch_spec outputSpec = makeSpec(outputOnly, n / 256, 256);
    const size_t outputOnlyMap[] = {1};
    mapped.candidate_param_map = outputOnlyMap;
    mapped.candidate_param_map_size = 1;
    s = autoprof_verify(smoke.session, scale3, &intSpec, scale3, &outputSpec,
                        &mapped, &result);
    check(s == AUTOPROF_ERROR_INVALID_ARGUMENT &&
              contains(smoke.error(), "reference parameter 0 is a buffer that "
                                      "no candidate parameter receives"),
          "verify-map-leaves-out-buffer",
          format("%s: %s", statusName(s), smoke.error().c_str()));
  }
  {
    std::vector<autoprof_param> gatherParams = {
        buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_I32, n, AUTOPROF_ROLE_INPUT, n),
        buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_OUTPUT), scalarI32(n)};
    autoprof_launch_spec gatherSpec = makeSpec(gatherParams, n / 256, 256);
    autoprof_kernel *gather = smoke.loadCuda("gather");
    smoke.expectVerify("verify-index-bound-gather", gather, gatherSpec, gather,
                       makeSpec(gatherParams, 132, 1024), nullptr, -1);
  }
  {
    // A kernel that writes zeros is caught under every distribution: the
    // generated inputs are never all zero.
    std::vector<autoprof_param> copyParams = {
        buffer(AUTOPROF_F32, 1000, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_F32, 1000, AUTOPROF_ROLE_OUTPUT), scalarI32(1000)};
    autoprof_launch_spec copySpec = makeSpec(copyParams, 4, 256);
    autoprof_kernel *copy = smoke.loadCuda("copy_f32");
    autoprof_kernel *zero = smoke.loadCuda("zero_f32");
    const autoprof_distribution all[] = {
        AUTOPROF_DIST_NORMAL, AUTOPROF_DIST_UNIFORM, AUTOPROF_DIST_LARGE,
        AUTOPROF_DIST_SMALL_INT, AUTOPROF_DIST_SPECIAL};
    for (autoprof_distribution d : all) {
      autoprof_verify_options one = {};
      one.distributions = &d;
      one.num_distributions = 1;
      std::string name = format("verify-zero-writer-distribution-%d", d);
      smoke.expectVerify(name.c_str(), copy, copySpec, zero, copySpec,
                         "wrong result", 1, &one);
    }
    // Dynamic shared memory beyond 48 KiB needs the opt-in attribute.
    autoprof_kernel *smem = smoke.loadCuda("copy_smem");
    autoprof_launch_spec smemSpec = makeSpec(copyParams, 4, 256, 100 << 10);
    if (smem) {
      s = autoprof_launch_spec_check(smoke.session, smem, &smemSpec);
      check(s == AUTOPROF_OK, "spec-dynamic-shared-100k",
            s == AUTOPROF_OK ? "opted in" : smoke.error());
    }
    smoke.expectVerify("verify-dynamic-shared-100k", copy, copySpec, smem,
                       smemSpec, nullptr, -1);
  }
  {
    std::vector<autoprof_param> accParams = {
        buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_F32, n, AUTOPROF_ROLE_INOUT), scalarI32(n)};
    autoprof_launch_spec accSpec = makeSpec(accParams, n / 256, 256);
    autoprof_kernel *accum = smoke.loadCuda("accum");
    smoke.expectVerify("verify-inout-correct", accum, accSpec, accum,
                       makeSpec(accParams, 77, 64), nullptr, -1);
    smoke.expectVerify("verify-inout-wrong", accum, accSpec,
                       smoke.loadCuda("accum_bad"), accSpec, "wrong result", 1);
    if (accum) {
      autoprof_timing_options options = {};
      options.warmup = 2;
      options.min_repetitions = 10;
      options.max_repetitions = 10;
      options.flush_l2 = 1;
      options.seed = 3;
      autoprof_timing timing;
      s = autoprof_time(smoke.session, accum, &accSpec, &options, &timing);
      check(s == AUTOPROF_OK && timing.samples == 10, "time-inout",
            format("%d samples, median %.2f us %s", timing.samples,
                   timing.median_us,
                   s == AUTOPROF_OK ? "" : smoke.error().c_str()));
    }
  }
  {
    std::vector<autoprof_param> halfParams = {
        buffer(AUTOPROF_F16, n, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_F16, n, AUTOPROF_ROLE_OUTPUT), scalarI32(n)};
    autoprof_launch_spec halfSpec = makeSpec(halfParams, n / 256, 256);
    autoprof_kernel *scaleF16 = smoke.loadCuda("scale_f16");
    smoke.expectVerify("verify-f16-correct", scaleF16, halfSpec,
                       smoke.loadCuda("scale_f16_hmul"), halfSpec, nullptr, -1);
    smoke.expectVerify("verify-f16-wrong", scaleF16, halfSpec,
                       smoke.loadCuda("scale_f16_bad"), halfSpec,
                       "wrong result", 1, &normal);
    std::vector<autoprof_param> bfParams = halfParams;
    bfParams[0].dtype = bfParams[1].dtype = AUTOPROF_BF16;
    autoprof_launch_spec bfSpec = makeSpec(bfParams, n / 256, 256);
    smoke.expectVerify("verify-bf16-correct", smoke.loadCuda("scale_bf16"),
                       bfSpec, smoke.loadCuda("scale_bf16_hmul"), bfSpec,
                       nullptr, -1);
  }

  // Timing: a memory-bound axpy far larger than L2.
  if (axpy && !quick) {
    const uint64_t big = uint64_t(64) << 20;
    std::vector<autoprof_param> bigParams = {
        buffer(AUTOPROF_F32, big, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_F32, big, AUTOPROF_ROLE_INPUT),
        buffer(AUTOPROF_F32, big, AUTOPROF_ROLE_OUTPUT), scalarF32(2.5),
        scalarI32(static_cast<int64_t>(big))};
    autoprof_launch_spec bigSpec = makeSpec(bigParams, big / 256, 256);
    autoprof_timing_options options = {};
    options.warmup = 3;
    options.min_repetitions = 20;
    options.max_repetitions = 200;
    options.time_budget_s = 0.5;
    options.flush_l2 = 1;
    options.seed = 1;
    options.distribution = AUTOPROF_DIST_NORMAL;
    autoprof_timing t;
    s = autoprof_time(smoke.session, axpy, &bigSpec, &options, &t);
    double bytes = 12.0 * static_cast<double>(big);
    double achieved = t.median_us > 0 ? bytes / (t.median_us * 1e-6) : 0;
    check(s == AUTOPROF_OK && t.samples >= 20 && t.samples <= 200 &&
              t.min_us > 0 && t.min_us <= t.p10_us && t.p10_us <= t.median_us &&
              t.median_us <= t.p90_us && t.p90_us <= t.max_us &&
              t.stddev_us >= 0 && t.mad_us >= 0 && achieved < 1.1 * peak,
          "time-axpy-64M",
          format("%d samples, median %.2f us, min %.2f, max %.2f, mean "
                 "%.2f, stddev %.2f, MAD %.2f, p10 %.2f, p90 %.2f; %.3f "
                 "TB/s = %.0f%% of peak %s",
                 t.samples, t.median_us, t.min_us, t.max_us, t.mean_us,
                 t.stddev_us, t.mad_us, t.p10_us, t.p90_us, achieved / 1e12,
                 100 * achieved / peak,
                 s == AUTOPROF_OK ? "" : smoke.error().c_str()));
    check(s == AUTOPROF_OK && t.sm_clock_khz_before > 0 &&
              t.sm_clock_khz_after > 0,
          "time-sm-clock",
          format("SM clock %d kHz before, %d kHz after", t.sm_clock_khz_before,
                 t.sm_clock_khz_after));

    // The budget stops early, after at least min_repetitions.
    options.min_repetitions = 5;
    options.max_repetitions = 100000;
    options.time_budget_s = 0.05;
    auto start = std::chrono::steady_clock::now();
    s = autoprof_time(smoke.session, axpy, &bigSpec, &options, &t);
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    check(s == AUTOPROF_OK && t.samples >= 5 && t.samples < 100000 &&
              wall < 5.0,
          "time-budget",
          format("%d samples in %.3f s wall with a 0.05 s budget", t.samples,
                 wall));

    // Cold vs warm L2 on a problem that fits in L2 (reported, not checked).
    autoprof_launch_spec smallSpec = axpySpec;
    options.min_repetitions = 50;
    options.max_repetitions = 50;
    options.time_budget_s = 0;
    autoprof_timing cold, warm;
    options.flush_l2 = 1;
    autoprof_status sc =
        autoprof_time(smoke.session, axpy, &smallSpec, &options, &cold);
    options.flush_l2 = 0;
    autoprof_status sw =
        autoprof_time(smoke.session, axpy, &smallSpec, &options, &warm);
    check(sc == AUTOPROF_OK && sw == AUTOPROF_OK && cold.samples == 50 &&
              warm.samples == 50,
          "time-flush-l2",
          format("1M axpy (12 MB): cold L2 median %.2f us, warm L2 median "
                 "%.2f us",
                 cold.median_us, warm.median_us));
  }

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
