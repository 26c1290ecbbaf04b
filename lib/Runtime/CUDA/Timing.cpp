//===- Timing.cpp - Timed launches ----------------------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Times launches with CUDA events, L2 flushed before each, and interleaves
// a candidate with its incumbent (docs/runtime.md, "Timing").
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
