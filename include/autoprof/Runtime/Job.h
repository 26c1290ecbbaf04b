//===- Job.h - Evaluation jobs exchanged with autoprof-worker ---*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The compiler never runs GPU code itself: it writes an evaluation job as JSON,
// runs `autoprof-worker` on it in a child process with a deadline, and reads
// the JSON result. A faulting, hanging or crashing candidate therefore costs
// one job, never the compiler. This header defines both documents and their
// JSON form (llvm::json); it needs LLVM Support and the runtime's C header
// (its enumerations) only.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_RUNTIME_JOB_H
#define AUTOPROF_RUNTIME_JOB_H

#include "autoprof/Runtime/Runtime.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace autoprof::runtime {

/// What a kernel does with a buffer parameter.
enum class BufferRole {
  /// It reads the buffer only.
  Input,
  /// It writes the buffer and reads what it wrote only.
  Output,
  /// It reads and writes the buffer.
  InOut,
};

/// "input", "output" or "inout": the role as jobs and kernel specs spell it.
llvm::StringRef getBufferRoleName(BufferRole role);
/// The role `name` spells, if any.
std::optional<BufferRole> parseBufferRole(llvm::StringRef name);
/// The runtime's C form of `role`.
autoprof_role toRuntimeRole(BufferRole role);

/// The form of a kernel's code.
enum class CodeFormat {
  /// PTX assembly.
  Ptx,
  /// A cubin for one GPU architecture.
  Cubin,
  /// CUDA C++, compiled with NVRTC.
  Cuda,
};

/// "ptx", "cubin" or "cuda": the format as jobs and kernel specs spell it.
llvm::StringRef getCodeFormatName(CodeFormat format);
/// The format `name` spells, if any.
std::optional<CodeFormat> parseCodeFormat(llvm::StringRef name);
/// The runtime's C form of `format`.
autoprof_code_format toRuntimeFormat(CodeFormat format);

/// One kernel parameter in declaration order (bare-pointer ABI).
struct JobParam {
  /// A buffer (one device pointer) or a scalar passed by value.
  bool isScalar = false;
  /// Element or scalar type (JSON: its name, dtypeName).
  autoprof_dtype dtype = AUTOPROF_F32;
  /// Buffers: elements, and what the kernel does with them.
  uint64_t count = 0;
  BufferRole role = BufferRole::Input;
  /// Buffers: integer inputs are generated in [0, indexBound) when > 0.
  int64_t indexBound = 0;
  /// Buffers: integer inputs are sorted ascending (offsets, row pointers).
  bool sorted = false;
  /// Buffers: inputs are generated in [low, high] (JSON `range`: [low,
  /// high]), a domain the kernel needs, such as non-negative values; every
  /// distribution keeps its character within it (HostData.h).
  std::optional<std::array<double, 2>> range;
  /// Scalars: the value of a float scalar ...
  double value = 0;
  /// ... or of an integer scalar, exactly (JSON integers hold any int64).
  int64_t intValue = 0;
};

/// A launch a host loop repeats: the kernel runs `count` times in order,
/// launch i passing start + i * step to the integer scalar parameter `param`
/// (JSON `repeat`).
struct JobRepeat {
  unsigned param = 0;
  int64_t start = 0;
  int64_t step = 1;
  uint64_t count = 1;
};

/// A launch configuration and its parameters.
struct JobLaunch {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned dynamicSharedBytes = 0;
  std::vector<JobParam> params;
  /// Absent: one launch.
  std::optional<JobRepeat> repeat;
};

/// A kernel variant: code, format, entry name and launch. `code` holds a
/// cubin's bytes as they are; its JSON form is base64.
struct JobKernel {
  std::string code;
  CodeFormat format = CodeFormat::Ptx;
  std::string entry;
  JobLaunch launch;
  /// Candidates only (JSON `reference_params`): for each parameter of this
  /// kernel, in order, the index of the reference parameter it receives. A
  /// buffer is then the same device buffer for both kernels; a scalar must
  /// have the reference parameter's value. Reference parameters that no entry
  /// names must be scalars: constants this kernel has sunk into its body
  /// (`autoprof-normalize-kernels`), which only the reference is passed.
  /// Absent: this kernel takes exactly the reference's parameter list.
  std::optional<std::vector<unsigned>> referenceParams = std::nullopt;
};

/// What the worker should do; sections that are absent are skipped.
struct EvaluationJob {
  int device = 0;
  /// The kernel to measure (the reference when a candidate is given).
  JobKernel kernel;
  /// When set, verify it against `kernel` before timing and profiling it;
  /// timing and profiling then apply to the candidate.
  std::optional<JobKernel> candidate;
  std::vector<uint64_t> verifySeeds = {1, 2};
  /// The input distributions verification runs (JSON: their names,
  /// distributionName).
  std::vector<autoprof_distribution> verifyDistributions = {
      AUTOPROF_DIST_NORMAL, AUTOPROF_DIST_UNIFORM, AUTOPROF_DIST_LARGE,
      AUTOPROF_DIST_SMALL_INT};
  /// The candidate reassociates floating-point sums: float tolerances follow
  /// the magnitude of the sums' terms (autoprof_verify_options::reassociated).
  bool verifyReassociated = false;
  bool time = true;
  int warmup = 3;
  int minRepetitions = 10;
  int maxRepetitions = 200;
  double timeBudgetSeconds = 1.0;
  bool flushL2 = true;
  uint64_t seed = 1;
  /// When set (JSON `time.interleaved_with`), the measured kernel is timed
  /// interleaved with this one, in one process (autoprof_time_interleaved),
  /// and the result also gives this kernel's timing.
  std::optional<JobKernel> interleavedWith;
  /// Metrics to profile; empty means no profiling.
  std::vector<std::string> metrics;
  /// When set, the job only compiles `kernel` (CUDA C++) to PTX for this
  /// virtual architecture ("compute_90"), without a GPU ...
  std::optional<std::string> compileArch;
  /// ... with these NVRTC options (JSON `compile.options`; each one
  /// isAllowedCompileOption accepts).
  std::vector<std::string> compileOptions;
};

/// Why `param`'s value range cannot be generated (HostData.h's check), or
/// nothing when it can or there is none.
std::optional<llvm::StringLiteral> checkValueRange(const JobParam &param);

/// Gives each integer input buffer of `launch` without an index bound or a
/// value range the
/// default one: the length of the smallest buffer of more than one element,
/// where that fits the integer type (narrower integers are data, not
/// indices). Inputs used as indices then stay in bounds, for MLIR launches
/// and imported kernels alike.
void applyDefaultIndexBounds(JobLaunch &launch);

/// Whether `option` is an NVRTC option a compile job may pass: those that
/// choose how the kernel's code is optimized and what its floating-point
/// arithmetic may round (`--use_fast_math`, `--ftz=true`,
/// `--prec-div=false`, `--prec-sqrt=false`, `--fmad=false`, their opposite
/// values, `--extra-device-vectorization`, `--restrict`) and macro
/// definitions (`-DNAME`, `-DNAME=VALUE`, `--define-macro=...`). Options
/// that would read files, produce something other than PTX or change the
/// architecture are refused.
bool isAllowedCompileOption(llvm::StringRef option);

/// Why an option isAllowedCompileOption refuses is refused: the one wording
/// of every refusal (job schema, kernel specs, imported kernels).
constexpr llvm::StringLiteral kCompileOptionRefusal =
    "not an NVRTC option AutoProf passes (fast-math and optimization "
    "choices and -D macro definitions are)";

/// One collected metric; `collected == false` means missing, never 0.
struct MetricResult {
  std::string name;
  bool collected = false;
  double value = 0;
  std::string note;
};

/// Where a job's wall time went, in seconds.
struct JobSeconds {
  /// Session creation, kernel loads and launch checks.
  double setup = 0;
  /// Waiting for the GPU while another worker ran on it (GpuTurn.h).
  double gpuWait = 0;
  /// The whole verification, and its parts (autoprof_verify_result).
  double verify = 0;
  double verifyInputs = 0, verifyTransfers = 0, verifyKernels = 0,
         verifyOther = 0;
  /// The check after timing: the timed candidate on the timed inputs.
  double verifyTimed = 0;
  /// Timing, the measurement of the peak DRAM bandwidth that goes with it,
  /// and profiling (also in EvaluationResult::profileSeconds, measured by
  /// the profiler itself).
  double time = 0, bandwidth = 0, profile = 0;
};

/// Timing statistics of one kernel (microseconds) and the SM clock (kHz).
struct TimingStats {
  int samples = 0;
  double medianUs = 0, minUs = 0, maxUs = 0, madUs = 0, p10Us = 0, p90Us = 0;
  int smClockKhzBefore = 0, smClockKhzAfter = 0;
  /// The lowest reading during the run (0: unknown).
  int smClockKhzMin = 0;
  int inputSets = 0;
};

/// How a job ended.
enum class JobStatus {
  /// Everything asked for was done.
  Ok,
  /// The candidate (or the kernel) failed verification or faulted.
  Rejected,
  /// The job could not be run (no driver, bad job, spec that does not fit
  /// the device, ...).
  Error,
};

/// "ok", "rejected" or "error": the status as job results spell it.
llvm::StringRef getJobStatusName(JobStatus status);
/// The status a job result spells `name`, if any.
std::optional<JobStatus> parseJobStatus(llvm::StringRef name);

/// What the worker reports.
struct EvaluationResult {
  JobStatus status = JobStatus::Error;
  /// Why the status is not "ok": a complete sentence.
  std::string reason;
  /// Device facts.
  std::string gpuName;
  int smCount = 0;
  int64_t l2Bytes = 0;
  /// Measured peak DRAM bandwidth (bytes/s), when the job timed a kernel.
  double peakBandwidth = 0;
  int driverVersion = 0;
  /// Kernel attributes from the driver.
  int registersPerThread = 0;
  int staticSharedBytes = 0;
  int localBytesPerThread = 0;
  /// Resident blocks per SM for the measured launch (occupancy API).
  int blocksPerSm = 0;
  /// Verification, when a candidate was given.
  std::optional<bool> verified;
  /// Timing statistics in microseconds.
  std::optional<double> medianUs, minUs, maxUs, madUs, p10Us, p90Us;
  int samples = 0;
  int smClockKhzBefore = 0, smClockKhzAfter = 0, smClockKhzMin = 0;
  /// Input sets the timed launches rotated among.
  int inputSets = 0;
  /// The timing of the job's `interleavedWith` kernel, timed in the same
  /// run (JSON `interleaved_timing`).
  std::optional<TimingStats> interleavedTiming;
  /// Profiling.
  std::vector<MetricResult> metrics;
  int replayPasses = 0;
  double profileSeconds = 0;
  /// Where the job's time went (GPU jobs).
  JobSeconds seconds;
  /// The PTX of a compile-only job.
  std::string ptx;
};

/// JSON forms of the documents (llvm::json). fromJSON reports what is wrong
/// at `path`, e.g. "expected a positive size at job.kernel.launch.block[0]".
llvm::json::Value toJSON(const JobParam &param);
llvm::json::Value toJSON(const JobLaunch &launch);
llvm::json::Value toJSON(const JobKernel &kernel);
llvm::json::Value toJSON(const EvaluationJob &job);
llvm::json::Value toJSON(const MetricResult &metric);
llvm::json::Value toJSON(const JobSeconds &seconds);
llvm::json::Value toJSON(const TimingStats &timing);
llvm::json::Value toJSON(const EvaluationResult &result);

bool fromJSON(const llvm::json::Value &value, JobParam &param,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, JobLaunch &launch,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, JobKernel &kernel,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, EvaluationJob &job,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, MetricResult &metric,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, JobSeconds &seconds,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, TimingStats &timing,
              llvm::json::Path path);
bool fromJSON(const llvm::json::Value &value, EvaluationResult &result,
              llvm::json::Path path);

/// Parses a document of type T, or returns a message saying what is wrong
/// and where (e.g. "job.kernel.launch.params[2].dtype: expected string").
template <typename T>
llvm::Expected<T> parseDocument(llvm::StringRef text, llvm::StringRef what);

} // namespace autoprof::runtime

#endif // AUTOPROF_RUNTIME_JOB_H
