//===- RuntimeInternal.h - Internals shared by the shim ---------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Session and kernel internals, error reporting and buffer preparation shared
// by the parts of the shim: Runtime.cpp (errors, sessions), LaunchSpec.cpp,
// LaunchBuffers.cpp, Kernels.cpp, Verification.cpp, Timing.cpp and
// CuptiProfiler.cpp (autoprof_profile_collect / autoprof_profile_free).
//
// Conventions:
//  - Every entry point that touches the device opens a ContextScope (pushes
//    the session's primary context, pops it on scope exit).
//  - Every failure goes through setError()/cudaFailure(), which store the
//    message returned by autoprof_last_error() and return the status.
//  - No exceptions, no abort: device memory is owned by RAII objects
//    (LaunchBuffers, DeviceAllocation) so every path frees it.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_RUNTIME_CUDA_RUNTIMEINTERNAL_H
#define AUTOPROF_LIB_RUNTIME_CUDA_RUNTIMEINTERNAL_H

#include "CudaApi.h"

#include "autoprof/Runtime/HostData.h"
#include "autoprof/Runtime/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

/// A session: one device, its primary context and a stream. Used by one
/// thread at a time.
struct autoprof_session {
  /// CUDA device ordinal and handle.
  int ordinal = 0;
  CUdevice device = 0;
  /// The device's primary context, retained for the session's lifetime.
  CUcontext context = nullptr;
  /// A non-blocking stream of the primary context; all shim work runs on it.
  CUstream stream = nullptr;
  /// Device facts read at creation (sm_clock_khz is refreshed on query).
  autoprof_device_facts facts = {};
  /// Device limits read at creation.
  int maxThreadsPerBlock = 0;
  int maxBlockDim[3] = {0, 0, 0};
  int maxGridDim[3] = {0, 0, 0};
  /// Shared memory per block without and with opt-in (bytes).
  int maxSharedPerBlock = 0;
  int maxSharedPerBlockOptin = 0;
  /// PCI bus id ("0000:xx:yy.z"), used to find the device in NVML.
  char pciBusId[32] = {0};
  /// Peak DRAM bandwidth in bytes/s; 0 until measured.
  double peakBandwidth = 0;
  /// L2 flush scratch buffer (>= 4x L2), allocated on first use.
  CUdeviceptr flushBuffer = 0;
  size_t flushBytes = 0;
  /// The kernel that reads the flush buffer (see ensureFlushBuffer).
  CUmodule flushModule = nullptr;
  CUfunction flushFunction = nullptr;
  /// The kernel that compares two device buffers (see
  /// LaunchBuffers::findDifferences), loaded on first use.
  CUmodule compareModule = nullptr;
  CUfunction compareFunction = nullptr;
  /// Message of the last failed call.
  std::string lastError;
};

/// A loaded kernel. Must be unloaded before its session is destroyed.
struct autoprof_kernel {
  autoprof_session *session = nullptr;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::string entry;
  autoprof_code_format format = AUTOPROF_CODE_PTX;
};

namespace autoprof::runtime {

/// The driver API. Valid (non-null members) whenever a session exists.
const CudaApi &cuda();

/// Stores a printf-style message as the last error of `session` (or as the
/// process-wide creation error when `session` is null) and returns `status`.
autoprof_status setError(autoprof_session *session, autoprof_status status,
                         const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// Records a failed driver call: "<what>: CUDA_ERROR_X (description)" and
/// returns the matching status (OUT_OF_MEMORY for allocation failures,
/// LAUNCH for kernel faults and sticky errors, INVALID_ARGUMENT for launch
/// configuration errors, NO_DEVICE/NO_DRIVER for those, else LAUNCH).
autoprof_status cudaFailure(autoprof_session *session, CUresult result,
                            const char *what);

/// Like cudaFailure but for results of a synchronization after a launch:
/// every error maps to AUTOPROF_ERROR_LAUNCH ("the kernel faulted").
autoprof_status launchFailure(autoprof_session *session, CUresult result,
                              const char *what);

/// Whether `result` is a sticky error that leaves the context unusable.
bool isStickyError(CUresult result);

/// Pushes the session's primary context for the lifetime of the scope.
class ContextScope {
public:
  explicit ContextScope(autoprof_session *session);
  ~ContextScope();
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;
  /// CUDA_SUCCESS when the push succeeded; check before using the device.
  CUresult result() const { return pushResult; }

private:
  CUresult pushResult;
};

/// Entry points: fail with AUTOPROF_ERROR_INVALID_ARGUMENT when no session
/// is given, and push the session's primary context for the rest of the
/// scope (failing with the driver's error when it cannot be made current).
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

/// One device allocation, freed on destruction (errors ignored).
class DeviceAllocation {
public:
  DeviceAllocation() = default;
  ~DeviceAllocation() { reset(); }
  DeviceAllocation(const DeviceAllocation &) = delete;
  DeviceAllocation &operator=(const DeviceAllocation &) = delete;
  DeviceAllocation(DeviceAllocation &&other) noexcept;
  DeviceAllocation &operator=(DeviceAllocation &&other) noexcept;
  /// Allocates `bytes`; on failure records the error and returns the status.
  autoprof_status allocate(autoprof_session *session, size_t bytes,
                           const char *what);
  /// Frees the allocation (the caller's context must be current).
  void reset();
  CUdeviceptr get() const { return ptr; }
  size_t size() const { return bytes; }

private:
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
};

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

// HostData.h: element types, conversions and input generation.

/// The byte every element of an output buffer is filled with before a run
/// (0xFF: NaN for floats, -1 / max for integers).
constexpr uint8_t PoisonByte = 0xFF;

/// The poison of every other verification run (0x5A: a finite value for
/// every float type, a positive one for integers). A candidate that leaves
/// an element unwritten where the reference happens to compute the poison
/// value passes one of the two patterns by luck, never both.
constexpr uint8_t AlternatePoisonByte = 0x5A;

/// Bytes of guard zone after every device buffer, and what they hold before
/// each run: a kernel that writes up to GuardBytes past the end of a buffer
/// changes them (LaunchBuffers::findGuardWrite) instead of going unseen.
constexpr size_t GuardBytes = 4096;
constexpr uint8_t GuardByte = 0xA5;

/// The most launches a repeated launch spec may ask for.
constexpr uint64_t MaxRepeatCount = uint64_t(1) << 20;


//===----------------------------------------------------------------------===//
// Launch specs and buffers
//===----------------------------------------------------------------------===//

/// Checks `spec` against the device and `kernel`: parameter list (dtype,
/// role, count; and against the kernel's parameter sizes when the driver can
/// tell them), block and grid dims, shared memory (and sets the kernel's
/// MAX_DYNAMIC_SHARED_SIZE_BYTES when more than the default is asked), and
/// `memoryFactor` times the total buffer bytes against free device memory.
/// Requires a current context (ContextScope). Failures set the last error
/// and return AUTOPROF_ERROR_INVALID_ARGUMENT (or OUT_OF_MEMORY when the
/// buffers do not fit).
autoprof_status checkLaunchSpec(autoprof_session *session,
                                autoprof_kernel *kernel,
                                const autoprof_launch_spec *spec,
                                unsigned memoryFactor);

/// The device buffers of one launch spec and their initial contents.
///
/// Typical use (with a ContextScope open):
///   LaunchBuffers buffers(session);
///   if (auto s = buffers.prepare(*spec, seed, distribution)) return s;
///   if (auto s = buffers.launch(kernel, *spec, session->stream)) return s;
///   if (auto s = buffers.synchronize()) return s; // faults -> LAUNCH
/// Everything is freed by the destructor.
class LaunchBuffers {
public:
  explicit LaunchBuffers(autoprof_session *session) : session(session) {}
  ~LaunchBuffers();
  LaunchBuffers(const LaunchBuffers &) = delete;
  LaunchBuffers &operator=(const LaunchBuffers &) = delete;

  /// Allocates one device buffer per buffer parameter of `spec`, each
  /// followed by a guard zone of GuardBytes, generates the inputs (INPUT and
  /// INOUT) for (seed, distribution) on the host, fills outputs with
  /// `poison`, and uploads everything (synchronously), guard zones included.
  /// Does not check the spec: call checkLaunchSpec first.
  autoprof_status prepare(const autoprof_launch_spec &spec, uint64_t seed,
                          autoprof_distribution distribution,
                          uint8_t poison = PoisonByte);

  /// Uploads the initial contents again (synchronously), undoing a run, and
  /// refills the guard zones.
  autoprof_status upload();

  /// Reads every buffer's guard zone back (synchronously). Sets `found` when
  /// a byte no longer holds GuardByte, with the first such buffer parameter,
  /// the byte's offset past the buffer's end, and the byte.
  autoprof_status findGuardWrite(bool &found, size_t &paramIndex,
                                 uint64_t &offset, uint8_t &value);

  /// The byte outputs were filled with by prepare().
  uint8_t poisonByte() const { return poison; }

  /// Uploads the initial contents with every element of a float INPUT or
  /// INOUT buffer replaced by its absolute value (synchronously).
  autoprof_status uploadAbsolute();

  /// Keeps a device copy of every INOUT buffer's initial contents (with
  /// `inputsToo`, of every INPUT buffer's as well) so that restoreAsync() can
  /// undo a run, and findDifferences() find a write into an input, without
  /// host transfers. Call it while the device buffers hold the initial
  /// contents (after prepare() or upload()).
  autoprof_status keepDeviceCopies(bool inputsToo = false);

  /// Enqueues the refill of every guard zone with GuardByte.
  autoprof_status refillGuardsAsync() { return fillGuardsAsync(); }

  /// Keeps a device copy of what every INOUT and OUTPUT buffer holds now
  /// (a reference's results).
  autoprof_status keepExpected();

  /// Compares every buffer on the device (synchronously): INPUT buffers with
  /// their initial contents (keepDeviceCopies(true)), the others, unless
  /// `inputsOnly`, with the copy keepExpected() made. `differs[i]` is set
  /// for each buffer parameter where a byte differs.
  autoprof_status findDifferences(std::vector<char> &differs,
                                  bool inputsOnly = false);

  /// Copies the expected results (keepExpected()) of buffer parameter
  /// `paramIndex` back to the host.
  autoprof_status downloadExpected(size_t paramIndex,
                                   std::vector<uint8_t> &out);

  /// Enqueues on `stream`: outputs back to the poison, INOUT buffers back to
  /// their initial contents (needs keepDeviceCopies()).
  autoprof_status restoreAsync(CUstream stream);

  /// Enqueues one launch of `kernel` with the grid, block, shared memory and
  /// scalars of `spec` (whose buffer parameters must match the prepared
  /// spec) on `stream`. Does not wait. With `paramMap` (spec.num_params
  /// entries), parameter i of `spec` is prepared parameter paramMap[i]: a
  /// spec that leaves out scalars of the prepared one shares its buffers.
  autoprof_status launch(autoprof_kernel *kernel,
                         const autoprof_launch_spec &spec, CUstream stream,
                         const size_t *paramMap = nullptr);

  /// Waits for the session stream; any error is a kernel fault (LAUNCH).
  autoprof_status synchronize();

  /// Copies buffer parameter `paramIndex` back to the host.
  autoprof_status download(size_t paramIndex, std::vector<uint8_t> &out);

  /// The initial host contents of buffer parameter `paramIndex`.
  const std::vector<uint8_t> &initial(size_t paramIndex) const;

  /// The device pointer of buffer parameter `paramIndex` (0 for scalars).
  CUdeviceptr devicePointer(size_t paramIndex) const;

  /// Sum of the buffer sizes in bytes.
  uint64_t totalBytes() const;

  /// Wall seconds spent so far generating inputs on the host and copying
  /// between host and device (guard zones included).
  double generateSeconds = 0;
  double transferSeconds = 0;

private:
  struct Buffer {
    DeviceAllocation device;
    /// Device copy of the initial contents (INOUT, and INPUT on request:
    /// keepDeviceCopies()).
    DeviceAllocation pristine;
    /// Device copy of a reference's results (keepExpected()).
    DeviceAllocation expected;
    std::vector<uint8_t> host;
    autoprof_role role = AUTOPROF_ROLE_INPUT;
    autoprof_dtype dtype = AUTOPROF_F32;
    bool isBuffer = false;
  };
  /// Fills the guard zone after every buffer with GuardByte (enqueued).
  autoprof_status fillGuardsAsync();
  /// Copies, on the device, every buffer that `wanted` selects into its
  /// `slot` (allocated on first use; `what` names it in errors), and waits.
  autoprof_status copyOnDevice(const std::function<bool(const Buffer &)> &wanted,
                               DeviceAllocation Buffer::*slot,
                               const char *what);

  autoprof_session *session;
  std::vector<Buffer> buffers;
  /// One flag per parameter, written by the compare kernel.
  DeviceAllocation flags;
  uint8_t poison = PoisonByte;
};

/// Adds the wall time from its construction to its destruction to a
/// counter of seconds.
class StopwatchScope {
public:
  explicit StopwatchScope(double &seconds)
      : seconds(seconds), start(std::chrono::steady_clock::now()) {}
  ~StopwatchScope() {
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             start)
                   .count();
  }
  StopwatchScope(const StopwatchScope &) = delete;
  StopwatchScope &operator=(const StopwatchScope &) = delete;

private:
  double &seconds;
  std::chrono::steady_clock::time_point start;
};

/// Checks `spec`, prepares its buffers for (seed, distribution), launches
/// `kernel` once on the session stream and waits. Opens its own
/// ContextScope. For a profiler that needs nothing but one complete run.
autoprof_status launchOnce(autoprof_session *session, autoprof_kernel *kernel,
                           const autoprof_launch_spec *spec, uint64_t seed,
                           autoprof_distribution distribution);

/// Reads the current SM clock (kHz) from NVML, or the driver's
/// CU_DEVICE_ATTRIBUTE_CLOCK_RATE (the maximum, not the current clock) when
/// NVML is unavailable; 0 when neither works.
int readSmClockKHz(autoprof_session *session);

//===----------------------------------------------------------------------===//
// Helpers of several parts
//===----------------------------------------------------------------------===//

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


/// The median of `values` (0 for none).
inline double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/// Linear interpolation between closest ranks of sorted `values`.
inline double percentile(const std::vector<double> &sorted, double fraction) {
  if (sorted.empty())
    return 0;
  double position = fraction * static_cast<double>(sorted.size() - 1);
  size_t below = static_cast<size_t>(std::floor(position));
  size_t above = std::min(below + 1, sorted.size() - 1);
  double weight = position - static_cast<double>(below);
  return sorted[below] * (1 - weight) + sorted[above] * weight;
}

} // namespace autoprof::runtime

#endif // AUTOPROF_LIB_RUNTIME_CUDA_RUNTIMEINTERNAL_H
