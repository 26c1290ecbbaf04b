/*===- Runtime.h - C ABI of the AutoProf GPU runtime shim -----------*- C
 *-*-===//
 *
 * Part of the AutoProf project.
 *
 *===----------------------------------------------------------------------===//
 *
 * The runtime shim runs, verifies, times and profiles GPU kernels on one
 * device through the CUDA driver API, NVRTC and CUPTI. It is a plain C ABI so
 * that the worker process (and anything else) can use it without LLVM; it
 * never aborts: every failure is a status plus a message from
 * autoprof_last_error().
 *
 * A kernel is (code, format, entry name); a launch spec gives the grid, the
 * block, the dynamic shared memory and the ordered parameters: buffers with
 * element type, element count and role, and scalars with values. Kernels
 * use the bare-pointer ABI: a buffer parameter is one device pointer.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AUTOPROF_RUNTIME_RUNTIME_H
#define AUTOPROF_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome of every shim call.
typedef enum autoprof_status {
  AUTOPROF_OK = 0,
  /// libcuda could not be loaded or initialized (no driver).
  AUTOPROF_ERROR_NO_DRIVER,
  /// The driver works but the requested device does not exist.
  AUTOPROF_ERROR_NO_DEVICE,
  /// A bad argument or a launch spec that does not fit the kernel.
  AUTOPROF_ERROR_INVALID_ARGUMENT,
  /// NVRTC rejected CUDA C++ source; the log is in autoprof_last_error().
  AUTOPROF_ERROR_COMPILE,
  /// The driver rejected PTX or cubin; the JIT log is in autoprof_last_error().
  AUTOPROF_ERROR_LOAD,
  /// Device memory could not be allocated.
  AUTOPROF_ERROR_OUT_OF_MEMORY,
  /// The launch failed or the kernel faulted (illegal address, trap, ...).
  /// The context is unusable afterwards; the process should exit.
  AUTOPROF_ERROR_LAUNCH,
  /// CUPTI could not set up or collect the requested metrics.
  AUTOPROF_ERROR_PROFILER,
} autoprof_status;

/// Element types of buffer parameters and types of scalar parameters.
typedef enum autoprof_dtype {
  AUTOPROF_F32 = 0,
  AUTOPROF_F64,
  AUTOPROF_F16,
  AUTOPROF_BF16,
  AUTOPROF_I8,
  AUTOPROF_I16,
  AUTOPROF_I32,
  AUTOPROF_I64,
  AUTOPROF_U8,
  AUTOPROF_U16,
  AUTOPROF_U32,
  AUTOPROF_U64,
} autoprof_dtype;

/// What a kernel does with a buffer; decides how it is filled before a run.
typedef enum autoprof_role {
  /// Read only: filled with generated data.
  AUTOPROF_ROLE_INPUT = 0,
  /// Written: filled with a poison pattern before every run.
  AUTOPROF_ROLE_OUTPUT,
  /// Read and written (e.g. accumulators): filled with generated data.
  AUTOPROF_ROLE_INOUT,
} autoprof_role;

/// How generated input data is distributed.
typedef enum autoprof_distribution {
  AUTOPROF_DIST_NORMAL = 0, /* N(0, 1) */
  AUTOPROF_DIST_UNIFORM,    /* U[-1, 1) */
  AUTOPROF_DIST_LARGE,      /* U[-1e4, 1e4), clamped to the type's range */
  AUTOPROF_DIST_SMALL_INT,  /* integers in [-8, 8] (in [0, 8] if unsigned) */
  /* Floats N(0, 1) with one element in 8 replaced by NaN, +Inf, -Inf, -0 or
     a subnormal of either sign; integers as for NORMAL. */
  AUTOPROF_DIST_SPECIAL,
  /* Zipfian: value rank r (r >= 1) has probability about 1 / r. Floats are
     (-1)^r r / 8, so a few values fill most of the buffer; integers are
     r - 1 (indices below the bound, the low ones hot), else r - 1 with a
     random sign where the type is signed. */
  AUTOPROF_DIST_SKEWED,
  /* Near the type's range: floats with magnitudes from 2^-5 to 2^-1 of the
     largest finite value's square root (a product of two stays below a
     quarter of the largest value), random signs; integers within 16 of the
     type's extremes (or of the index bound's). */
  AUTOPROF_DIST_NEAR_RANGE,
  /* Floats subnormal only, of random sign and magnitude; integers as for
     NORMAL. */
  AUTOPROF_DIST_SUBNORMAL,
} autoprof_distribution;

/// One kernel parameter, in declaration order.
typedef struct autoprof_param {
  /// Nonzero for a scalar, zero for a buffer.
  int is_scalar;
  autoprof_dtype dtype;
  /// Buffers: number of elements and role. Scalars: unused.
  uint64_t count;
  autoprof_role role;
  /// Buffers: for integer inputs, values are generated in [0, index_bound)
  /// when index_bound > 0 (indices, CSR row pointers stay in range).
  int64_t index_bound;
  /// Buffers: nonzero sorts generated integer inputs in ascending order, for
  /// offsets such as CSR row pointers (with index_bound: nondecreasing values
  /// in [0, index_bound)).
  int sorted;
  /// Buffers: nonzero when every generated input value lies in [range_low,
  /// range_high] (a domain the kernel needs, such as non-negative values):
  /// each distribution then keeps its character within the range (see
  /// autoprof::runtime::generateInput). Integer types need integer bounds
  /// the type holds; float types finite bounds; range_low < range_high.
  int has_range;
  double range_low, range_high;
  /// Scalars: the value, as double for floats and int64 for integers.
  double f;
  int64_t i;
} autoprof_param;

/// A launch configuration and its parameters.
typedef struct autoprof_launch_spec {
  unsigned grid[3];
  unsigned block[3];
  unsigned dynamic_shared_bytes;
  const autoprof_param *params;
  size_t num_params;
  /// A host loop around the launch: with repeat_count > 1 the kernel runs
  /// repeat_count times in order, launch i passing repeat_start + i *
  /// repeat_step to the integer scalar parameter repeat_param (whose value
  /// in `params` is then not used). Timing measures the whole sequence,
  /// verification compares the buffers after it, and profiling collects the
  /// metrics of its first launch. 0 or 1: one launch.
  uint64_t repeat_count;
  size_t repeat_param;
  int64_t repeat_start;
  int64_t repeat_step;
} autoprof_launch_spec;

/// Facts about the device a session runs on.
typedef struct autoprof_device_facts {
  char name[256];
  int ordinal;
  int compute_capability_major;
  int compute_capability_minor;
  int sm_count;
  int max_threads_per_sm;
  int max_shared_bytes_per_sm;
  int64_t l2_bytes;
  int64_t global_memory_bytes;
  /// Current SM clock as reported by the driver (kHz); 0 when unknown.
  int sm_clock_khz;
  int memory_clock_khz;
  int memory_bus_width_bits;
  int driver_version;
} autoprof_device_facts;

/// Kernel attributes read from the driver after loading.
typedef struct autoprof_kernel_attributes {
  int registers_per_thread;
  int static_shared_bytes;
  int local_bytes_per_thread;
  int const_bytes;
  int max_threads_per_block;
  int ptx_version;
  int binary_version;
} autoprof_kernel_attributes;

/// Measurement protocol (docs/runtime.md, Timing).
typedef struct autoprof_timing_options {
  /// Untimed launches first.
  int warmup;
  /// At least this many timed launches ...
  int min_repetitions;
  /// ... and at most this many, stopping early once time_budget_s is spent.
  int max_repetitions;
  double time_budget_s;
  /// Nonzero: write a buffer of several times the L2 size before every timed
  /// launch so each one starts with a cold L2.
  int flush_l2;
  uint64_t seed;
  autoprof_distribution distribution;
} autoprof_timing_options;

/// Timing of one kernel: statistics over the timed launches (microseconds).
typedef struct autoprof_timing {
  int samples;
  double median_us;
  double min_us;
  double max_us;
  double mean_us;
  double stddev_us;
  /// Median absolute deviation of the samples.
  double mad_us;
  double p10_us;
  double p90_us;
  /// SM clock (kHz) read before and after the timed launches; the shim never
  /// changes or locks clocks.
  int sm_clock_khz_before;
  int sm_clock_khz_after;
  /// The lowest SM clock (kHz) read during the run: before it, after every
  /// chunk of timed launches, and after it (0 where NVML cannot say).
  int sm_clock_khz_min;
  /// Input sets the timed launches rotated among: 2 (the options' seed and
  /// the next one, every input buffer different), or 1 where the device has
  /// no room for a second set.
  int input_sets;
} autoprof_timing;

/// Verification of a candidate against a reference (docs/runtime.md,
/// Verification).
typedef struct autoprof_verify_options {
  const uint64_t *seeds;
  size_t num_seeds;
  const autoprof_distribution *distributions;
  size_t num_distributions;
  /// Tolerances by element type; 0 selects the defaults (1e-4 for f32,
  /// 1e-10 for f64: far below what an f64 kernel computed in f32 or with
  /// fewer mantissa bits differs by, far above the last bits another order
  /// of f64 operations changes; 1e-2 for f16 and bf16), applied as
  /// |a - b| <= tol * (1 + |b|).
  /// When a float buffer differs, the reference runs a second time on the
  /// same inputs; if it disagrees with itself (float atomics), the buffer's
  /// tolerance grows by four times that disagreement, measured the same way.
  double tolerance_f32;
  double tolerance_f16;
  double tolerance_f64;
  /// Nonzero for a candidate that reassociates floating-point sums (a
  /// reduction split across threads): in another order a sum rounds
  /// differently by as much as the magnitude of its terms allows, not its
  /// result. When a float buffer differs, the reference then also runs on
  /// the absolute values of every float input, which gives each element of
  /// a sum of products the sum of its terms' magnitudes, M, and the bound
  /// becomes tol * (1 + |b|) + r * |M|, with r = 1e-5 for f32 (1e-12 for
  /// f64, 1e-2 for f16 and bf16).
  int reassociated;
  /// Optional (null: both specs have the same parameter list): for each
  /// parameter of the candidate spec, the index of the reference parameter it
  /// receives; candidate_param_map_size must equal the candidate spec's
  /// num_params. A buffer is then the same device buffer for both kernels
  /// (same count, role and generation hints); a scalar must have the
  /// reference's value. Reference parameters no entry names must be scalars:
  /// constants the candidate has sunk into its body, passed to the reference
  /// only. Each reference parameter is received at most once.
  const size_t *candidate_param_map;
  size_t candidate_param_map_size;
} autoprof_verify_options;

typedef struct autoprof_verify_result {
  /// Nonzero when every buffer matched for every seed and distribution.
  int passed;
  /// Which parameter failed (-1 if none; an index into the reference spec),
  /// at which element, with what values.
  int param_index;
  uint64_t element;
  double expected;
  double actual;
  uint64_t seed;
  autoprof_distribution distribution;
  /// A sentence saying why the candidate was rejected (empty if it passed):
  /// "wrong result", "did not write", "wrote outside the reference's
  /// outputs", "NaN where the reference has none", a fault, ...
  char reason[512];
  /// Where the verification's wall time went, in seconds: generating inputs
  /// on the host, copying between host and device, running the kernels
  /// (every reference and candidate run, waited for), and the rest
  /// (comparing results, guard zones, allocation).
  double seconds_inputs;
  double seconds_transfers;
  double seconds_kernels;
  double seconds_other;
} autoprof_verify_result;

/// One profiled metric.
typedef struct autoprof_metric_value {
  const char *name;
  /// Nonzero when collected; zero means missing (never read value then).
  int collected;
  double value;
  /// Why a metric is missing (e.g. "not supported on sm_90").
  const char *note;
} autoprof_metric_value;

typedef struct autoprof_profile {
  const autoprof_metric_value *metrics;
  size_t num_metrics;
  /// Replay passes CUPTI needed, as the host API reported before collection.
  int replay_passes;
  /// Wall time of the whole collection, in seconds.
  double seconds;
} autoprof_profile;

typedef struct autoprof_session autoprof_session;
typedef struct autoprof_kernel autoprof_kernel;

/// Code formats a kernel can be loaded from.
typedef enum autoprof_code_format {
  AUTOPROF_CODE_PTX = 0,
  AUTOPROF_CODE_CUBIN,
  /// CUDA C++ compiled with NVRTC for the session's device.
  AUTOPROF_CODE_CUDA,
} autoprof_code_format;

/// Opens a session on device `ordinal` (primary context). On failure *out is
/// null and the message is available from autoprof_last_error(NULL).
autoprof_status autoprof_session_create(int ordinal, autoprof_session **out);
void autoprof_session_destroy(autoprof_session *session);

/// The message of the last failed call on `session` (or of the last failed
/// session creation when `session` is null): JIT logs, NVRTC logs, driver
/// error names. Valid until the next call on the session.
const char *autoprof_last_error(autoprof_session *session);

autoprof_status autoprof_device_facts_get(autoprof_session *session,
                                          autoprof_device_facts *out);

/// Measures the peak DRAM bandwidth with a device-to-device copy far larger
/// than L2 (bytes/s). Measured once per session and cached.
autoprof_status autoprof_measure_peak_bandwidth(autoprof_session *session,
                                                double *bytes_per_second);

/// Compiles CUDA C++ to PTX with NVRTC for `arch` (a virtual architecture
/// such as "compute_90"), passing NVRTC the `num_options` strings of
/// `options` after the runtime's own (architecture, C++17, line info, the
/// toolkit's headers); needs neither a GPU nor a session. On success `*ptx`
/// holds the NUL-terminated PTX; on failure `*error` (when given) says why,
/// with NVRTC's log. Both are malloc'ed; release them with free(). Returns
/// AUTOPROF_ERROR_COMPILE when NVRTC rejects the code or an option and
/// AUTOPROF_ERROR_NO_DRIVER when NVRTC cannot be loaded.
autoprof_status autoprof_compile_cuda_to_ptx(const char *code,
                                             const char *entry,
                                             const char *arch,
                                             const char *const *options,
                                             size_t num_options, char **ptx,
                                             char **error);

/// Loads a kernel. For AUTOPROF_CODE_CUDA the code is NVRTC-compiled for the
/// device with `entry` as an extern "C" name.
autoprof_status autoprof_kernel_load(autoprof_session *session,
                                     autoprof_code_format format,
                                     const char *code, size_t size,
                                     const char *entry, autoprof_kernel **out);
void autoprof_kernel_unload(autoprof_kernel *kernel);

autoprof_status autoprof_kernel_attributes_get(autoprof_kernel *kernel,
                                               autoprof_kernel_attributes *out);

/// Resident blocks per SM for a block size and dynamic shared memory.
autoprof_status autoprof_kernel_occupancy(autoprof_kernel *kernel,
                                          int block_threads,
                                          size_t dynamic_shared_bytes,
                                          int *blocks_per_sm);

/// Checks a launch spec against device limits (block size, grid size, shared
/// memory, total buffer bytes vs free device memory) before anything runs.
autoprof_status autoprof_launch_spec_check(autoprof_session *session,
                                           autoprof_kernel *kernel,
                                           const autoprof_launch_spec *spec);

/// Runs `reference` and `candidate` on identical inputs for every seed and
/// distribution and compares every buffer (see autoprof_verify_result).
/// Both specs must have the same parameter list, or the candidate's must
/// receive the reference's through options->candidate_param_map; launch
/// shapes may differ.
autoprof_status autoprof_verify(autoprof_session *session,
                                autoprof_kernel *reference,
                                const autoprof_launch_spec *reference_spec,
                                autoprof_kernel *candidate,
                                const autoprof_launch_spec *candidate_spec,
                                const autoprof_verify_options *options,
                                autoprof_verify_result *out);

/// Times a kernel following the measurement protocol.
autoprof_status autoprof_time(autoprof_session *session,
                              autoprof_kernel *kernel,
                              const autoprof_launch_spec *spec,
                              const autoprof_timing_options *options,
                              autoprof_timing *out);

/// Times `count` kernels (1 to 8) interleaved on one stream, so that they
/// share one process, one context and the same clocks: every round launches
/// each kernel once, in order, each launch prepared as autoprof_time
/// prepares one (its own buffers restored, L2 flushed) and timed alone.
/// `options` applies to every kernel (repetitions count rounds); `out[i]`
/// is kernel i's timing (the SM clock readings are shared).
autoprof_status autoprof_time_interleaved(
    autoprof_session *session, size_t count, autoprof_kernel *const *kernels,
    const autoprof_launch_spec *const *specs,
    const autoprof_timing_options *options, autoprof_timing *out);

/// Collects metrics with CUPTI's Range Profiler (kernel replay, auto range).
/// Names are validated one by one; unknown or unsupported ones come back as
/// missing with a note instead of failing the whole collection. Metrics whose
/// names start with "launch__" or "device__attribute_" are computed from the
/// driver. The result stays valid until autoprof_profile_free().
autoprof_status autoprof_profile_collect(autoprof_session *session,
                                         autoprof_kernel *kernel,
                                         const autoprof_launch_spec *spec,
                                         const char *const *metric_names,
                                         size_t num_metrics, uint64_t seed,
                                         autoprof_profile **out);
void autoprof_profile_free(autoprof_profile *profile);

/// The replay passes CUPTI's Range Profiler takes to collect `metric_names`
/// together on `chip` (a CUPTI chip name, "GH100" for the H100 and H200),
/// asked of the profiler host alone: no GPU or driver is needed. No metrics:
/// 0 passes, once the host initializes for the chip. A name the host does
/// not take is AUTOPROF_ERROR_INVALID_ARGUMENT, no CUPTI or a host that does
/// not initialize AUTOPROF_ERROR_PROFILER, each with CUPTI's reason in
/// autoprof_last_error(NULL).
autoprof_status autoprof_metrics_host_passes(const char *chip,
                                             const char *const *metric_names,
                                             size_t num_metrics,
                                             size_t *passes);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // AUTOPROF_RUNTIME_RUNTIME_H
