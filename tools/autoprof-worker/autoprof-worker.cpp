//===- autoprof-worker.cpp - Run one GPU evaluation job -------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Runs one evaluation job (JSON, see autoprof/Runtime/Job.h) on the GPU:
// load the kernel, check its launch, verify a candidate against the
// reference, time it and profile it, and write the JSON result. It runs
// untrusted kernels, so the compiler starts it as a disposable child process
// with a deadline: a kernel that faults ends the job as "rejected" with the
// driver's reason, a hang is killed by the caller. Where AUTOPROF_GPU_LOCK
// names the GPU's lock file (the worker pool runs several workers per GPU),
// it prepares beside the other workers and runs on the GPU in its turn
// (autoprof/Runtime/GpuTurn.h).
//
// Exit status: 0 when a result was written (whatever its status), 1 when even
// the result could not be written.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/GpuTurn.h"
#include "autoprof/Runtime/Job.h"
#include "autoprof/Runtime/Runtime.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include <unistd.h>

using namespace autoprof::runtime;

/// The worker's own options: --help lists these, not the LLVM backend's
/// that the tool links.
static llvm::cl::OptionCategory workerCategory("autoprof-worker options");

static llvm::cl::opt<std::string>
    jobPath("job", llvm::cl::desc("Evaluation job (JSON); '-' for stdin"),
            llvm::cl::value_desc("file"), llvm::cl::init("-"),
            llvm::cl::cat(workerCategory));
static llvm::cl::opt<unsigned> watchdogSeconds(
    "watchdog",
    llvm::cl::desc("Give up on the job after this many seconds (a hanging "
                   "kernel; waiting for the GPU's turn not counted): write "
                   "a rejected result and exit (0: never)"),
    llvm::cl::value_desc("seconds"), llvm::cl::init(0),
    llvm::cl::cat(workerCategory));
static llvm::cl::opt<std::string>
    resultPath("result",
               llvm::cl::desc("Where to write the result; '-' for "
                              "stdout"),
               llvm::cl::value_desc("file"), llvm::cl::init("-"),
               llvm::cl::cat(workerCategory));

namespace {

/// Owns the C ABI objects of one job and releases them on every path.
struct Job {
  autoprof_session *session = nullptr;
  std::vector<autoprof_kernel *> kernels;
  ~Job() {
    for (autoprof_kernel *kernel : kernels)
      autoprof_kernel_unload(kernel);
    if (session)
      autoprof_session_destroy(session);
  }
};

/// The watchdog's clock: the job's time less what it spent waiting for its
/// turn on the GPU (a kernel that hangs there is another worker's).
struct JobClock {
  using Clock = std::chrono::steady_clock;
  std::mutex mutex;
  std::condition_variable changed;
  bool finished = false;
  bool waiting = false;
  Clock::duration waited{};
  Clock::time_point waitStart;

  void startWaiting() {
    std::lock_guard<std::mutex> lock(mutex);
    waiting = true;
    waitStart = Clock::now();
  }
  void stopWaiting() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      waiting = false;
      waited += Clock::now() - waitStart;
    }
    changed.notify_all();
  }
  void finish() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      finished = true;
    }
    changed.notify_all();
  }
};

/// A launch spec and the parameter storage it points to.
struct LaunchSpec {
  std::vector<autoprof_param> params;
  autoprof_launch_spec spec = {};
};

} // namespace

static std::unique_ptr<LaunchSpec> toLaunchSpec(const JobLaunch &launch) {
  auto result = std::make_unique<LaunchSpec>();
  for (const JobParam &param : launch.params) {
    autoprof_param p = {};
    p.is_scalar = param.isScalar;
    p.dtype = param.dtype;
    p.count = param.count;
    p.role = toRuntimeRole(param.role);
    p.index_bound = param.indexBound;
    p.sorted = param.sorted;
    if (param.range) {
      p.has_range = 1;
      p.range_low = (*param.range)[0];
      p.range_high = (*param.range)[1];
    }
    p.f = param.value;
    p.i = param.intValue;
    result->params.push_back(p);
  }
  for (unsigned d = 0; d < 3; ++d) {
    result->spec.grid[d] = launch.grid[d];
    result->spec.block[d] = launch.block[d];
  }
  result->spec.dynamic_shared_bytes = launch.dynamicSharedBytes;
  result->spec.params = result->params.data();
  result->spec.num_params = result->params.size();
  if (launch.repeat) {
    result->spec.repeat_count = launch.repeat->count;
    result->spec.repeat_param = launch.repeat->param;
    result->spec.repeat_start = launch.repeat->start;
    result->spec.repeat_step = launch.repeat->step;
  }
  return result;
}

/// Runs the job; fills `result` and returns when done or at the first
/// failure (whose status and reason are in `result`).
static void runJob(const EvaluationJob &job, EvaluationResult &result,
                   JobClock &clock) {
  // Held through the session's teardown (declared before it): freeing the
  // buffers and destroying the context do not overlap another worker's
  // measurement.
  GpuTurn turn = GpuTurn::fromEnvironment();
  Job owned;
  auto fail = [&](JobStatus status, const llvm::Twine &reason) {
    result.status = status;
    result.reason = reason.str();
  };
  // Everything from verification on runs on the GPU: it waits for the
  // worker's turn, which the watchdog does not count.
  auto takeTurn = [&]() -> bool {
    clock.startWaiting();
    llvm::Expected<double> waited = turn.take();
    clock.stopWaiting();
    if (!waited) {
      fail(JobStatus::Error, llvm::toString(waited.takeError()));
      return false;
    }
    result.seconds.gpuWait = *waited;
    return true;
  };

  // Compiling needs NVRTC only, not a GPU.
  if (job.compileArch) {
    char *ptx = nullptr, *error = nullptr;
    std::vector<const char *> options;
    for (const std::string &option : job.compileOptions)
      options.push_back(option.c_str());
    autoprof_status status = autoprof_compile_cuda_to_ptx(
        job.kernel.code.c_str(), job.kernel.entry.c_str(),
        job.compileArch->c_str(), options.data(), options.size(), &ptx,
        &error);
    if (status == AUTOPROF_OK) {
      result.status = JobStatus::Ok;
      result.ptx = ptx;
    } else {
      fail(status == AUTOPROF_ERROR_COMPILE ? JobStatus::Rejected
                                            : JobStatus::Error,
           llvm::Twine("the candidate does not compile: ") +
               (error ? error : "unknown error"));
    }
    std::free(ptx);
    std::free(error);
    return;
  }

  auto now = [] { return std::chrono::steady_clock::now(); };
  auto since = [&](std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(now() - start).count();
  };
  auto setupStart = now();
  if (autoprof_session_create(job.device, &owned.session) != AUTOPROF_OK)
    return fail(JobStatus::Error,
                llvm::Twine("no usable GPU: ") + autoprof_last_error(nullptr));
  autoprof_session *session = owned.session;
  autoprof_device_facts facts;
  if (autoprof_device_facts_get(session, &facts) == AUTOPROF_OK) {
    result.gpuName = facts.name;
    result.smCount = facts.sm_count;
    result.l2Bytes = facts.l2_bytes;
    result.driverVersion = facts.driver_version;
  }

  // Loads a kernel; a kernel that does not compile or load is the job's
  // fault when it is a candidate and an error otherwise.
  auto load = [&](const JobKernel &kernel, const char *what,
                  JobStatus status) -> autoprof_kernel * {
    autoprof_kernel *loaded = nullptr;
    autoprof_status s = autoprof_kernel_load(
        session, toRuntimeFormat(kernel.format), kernel.code.data(),
        kernel.code.size(), kernel.entry.c_str(), &loaded);
    if (s != AUTOPROF_OK) {
      fail(status, llvm::Twine("the ") + what + " does not " +
                       (s == AUTOPROF_ERROR_COMPILE ? "compile" : "load") +
                       ": " + autoprof_last_error(session));
      return nullptr;
    }
    owned.kernels.push_back(loaded);
    return loaded;
  };

  // Compiling and loading run before the turn, beside the other workers of
  // the GPU, in the order of the job's checks: the reference, its launch,
  // the candidate, its launch.
  bool turnTaken = false, turnFailed = false;
  double setupBeforeTurn = 0;
  auto ensureTurn = [&]() -> bool {
    if (!turnTaken) {
      setupBeforeTurn = since(setupStart);
      turnTaken = true;
      turnFailed = !takeTurn();
    }
    return !turnFailed;
  };
  // A launch check weighs the buffers against the GPU's free memory, which
  // other workers' buffers lessen outside the turn: a launch that does not
  // fit before the turn is checked again in it. False when it does not fit
  // or the turn could not be taken (the job's status says which).
  auto launchFits = [&](autoprof_kernel *kernel, LaunchSpec &spec,
                        JobStatus status, const llvm::Twine &what) {
    if (autoprof_launch_spec_check(session, kernel, &spec.spec) == AUTOPROF_OK)
      return true;
    if (!turnTaken) {
      if (!ensureTurn())
        return false;
      if (autoprof_launch_spec_check(session, kernel, &spec.spec) ==
          AUTOPROF_OK)
        return true;
    }
    fail(status, what + autoprof_last_error(session));
    return false;
  };

  autoprof_kernel *reference = load(job.kernel, "kernel", JobStatus::Error);
  if (!reference)
    return;
  std::unique_ptr<LaunchSpec> referenceSpec = toLaunchSpec(job.kernel.launch);
  if (!launchFits(reference, *referenceSpec, JobStatus::Error,
                  "the launch does not fit: "))
    return;
  autoprof_kernel *candidate = nullptr;
  autoprof_kernel *measured = reference;
  LaunchSpec *measuredSpec = referenceSpec.get();
  std::unique_ptr<LaunchSpec> candidateSpec;
  if (job.candidate) {
    candidate = load(*job.candidate, "candidate", JobStatus::Rejected);
    if (!candidate)
      return;
    candidateSpec = toLaunchSpec(job.candidate->launch);
    if (!launchFits(candidate, *candidateSpec, JobStatus::Rejected,
                    "the candidate's launch does not fit: "))
      return;
    measuredSpec = candidateSpec.get();
    // Timing and profiling run a load of the candidate of their own:
    // nothing its verification runs leave in device memory survives into
    // them. A job that only verifies needs none (its result's attributes
    // are the verified load's).
    measured = candidate;
    if (job.time || !job.metrics.empty()) {
      measured = load(*job.candidate, "candidate", JobStatus::Rejected);
      if (!measured)
        return;
    }
  }
  // The kernel timed alongside, when the job names one: loaded here, a
  // failure reported where the timing starts (a candidate that does not
  // verify is rejected first).
  autoprof_kernel *alongside = nullptr;
  std::string alongsideFailure;
  if (job.time && job.interleavedWith) {
    alongside =
        load(*job.interleavedWith, "interleaved kernel", JobStatus::Error);
    if (!alongside) {
      alongsideFailure = std::move(result.reason);
      result.reason.clear();
    }
  }
  if (!ensureTurn())
    return;
  result.seconds.setup = setupBeforeTurn;

  // Verification's options, kept for the check after timing.
  std::vector<autoprof_distribution> distributions;
  autoprof_verify_options options = {};
  std::vector<size_t> parameterMap;
  static const size_t noParameters = 0;
  if (job.candidate) {
    distributions = job.verifyDistributions;
    options.seeds = job.verifySeeds.data();
    options.num_seeds = job.verifySeeds.size();
    options.distributions = distributions.data();
    options.num_distributions = distributions.size();
    options.reassociated = job.verifyReassociated ? 1 : 0;
    if (job.candidate->referenceParams) {
      parameterMap.assign(job.candidate->referenceParams->begin(),
                          job.candidate->referenceParams->end());
      // A candidate with no parameters still has a map, just an empty one.
      options.candidate_param_map =
          parameterMap.empty() ? &noParameters : parameterMap.data();
      options.candidate_param_map_size = parameterMap.size();
    }
    autoprof_verify_result verdict = {};
    auto verifyStart = now();
    autoprof_status s =
        autoprof_verify(session, reference, &referenceSpec->spec, candidate,
                        &candidateSpec->spec, &options, &verdict);
    result.seconds.verify = since(verifyStart);
    result.seconds.verifyInputs = verdict.seconds_inputs;
    result.seconds.verifyTransfers = verdict.seconds_transfers;
    result.seconds.verifyKernels = verdict.seconds_kernels;
    result.seconds.verifyOther = verdict.seconds_other;
    // A candidate that faults is rejected with the verifier's account of
    // which kernel faulted on which inputs.
    if (s == AUTOPROF_ERROR_LAUNCH && verdict.reason[0])
      return fail(JobStatus::Rejected, verdict.reason);
    if (s != AUTOPROF_OK)
      return fail(s == AUTOPROF_ERROR_LAUNCH ? JobStatus::Rejected
                                             : JobStatus::Error,
                  llvm::Twine("verification failed to run: ") +
                      autoprof_last_error(session));
    result.verified = verdict.passed != 0;
    if (!verdict.passed)
      return fail(JobStatus::Rejected, verdict.reason);
  }

  autoprof_kernel_attributes attributes;
  if (autoprof_kernel_attributes_get(measured, &attributes) == AUTOPROF_OK) {
    result.registersPerThread = attributes.registers_per_thread;
    result.staticSharedBytes = attributes.static_shared_bytes;
    result.localBytesPerThread = attributes.local_bytes_per_thread;
  }
  const autoprof_launch_spec &launch = measuredSpec->spec;
  int blocksPerSm = 0;
  if (autoprof_kernel_occupancy(
          measured, launch.block[0] * launch.block[1] * launch.block[2],
          launch.dynamic_shared_bytes, &blocksPerSm) == AUTOPROF_OK)
    result.blocksPerSm = blocksPerSm;

  if (job.time) {
    autoprof_timing_options timingOptions = {};
    timingOptions.warmup = job.warmup;
    timingOptions.min_repetitions = job.minRepetitions;
    timingOptions.max_repetitions = job.maxRepetitions;
    timingOptions.time_budget_s = job.timeBudgetSeconds;
    timingOptions.flush_l2 = job.flushL2;
    timingOptions.seed = job.seed;
    timingOptions.distribution = AUTOPROF_DIST_NORMAL;
    if (!alongsideFailure.empty())
      return fail(JobStatus::Error, alongsideFailure);
    std::unique_ptr<LaunchSpec> alongsideSpec;
    if (alongside) {
      alongsideSpec = toLaunchSpec(job.interleavedWith->launch);
      if (autoprof_launch_spec_check(session, alongside,
                                     &alongsideSpec->spec) != AUTOPROF_OK)
        return fail(JobStatus::Error,
                    llvm::Twine("the interleaved kernel's launch "
                                "does not fit: ") +
                        autoprof_last_error(session));
    }
    autoprof_kernel *kernels[2] = {measured, alongside};
    const autoprof_launch_spec *specs[2] = {
        &measuredSpec->spec, alongside ? &alongsideSpec->spec : nullptr};
    autoprof_timing timings[2] = {};
    const autoprof_timing &timing = timings[0];
    auto timeStart = now();
    autoprof_status s = autoprof_time_interleaved(
        session, alongside ? 2 : 1, kernels, specs, &timingOptions, timings);
    result.seconds.time = since(timeStart);
    if (s != AUTOPROF_OK)
      return fail(
          s == AUTOPROF_ERROR_LAUNCH ? JobStatus::Rejected : JobStatus::Error,
          llvm::Twine("timing failed: ") + autoprof_last_error(session));
    result.samples = timing.samples;
    result.medianUs = timing.median_us;
    result.minUs = timing.min_us;
    result.maxUs = timing.max_us;
    result.madUs = timing.mad_us;
    result.p10Us = timing.p10_us;
    result.p90Us = timing.p90_us;
    result.smClockKhzBefore = timing.sm_clock_khz_before;
    result.smClockKhzAfter = timing.sm_clock_khz_after;
    result.smClockKhzMin = timing.sm_clock_khz_min;
    result.inputSets = timing.input_sets;
    if (job.interleavedWith) {
      const autoprof_timing &other = timings[1];
      result.interleavedTiming = TimingStats{
          other.samples,          other.median_us,
          other.min_us,           other.max_us,
          other.mad_us,           other.p10_us,
          other.p90_us,           other.sm_clock_khz_before,
          other.sm_clock_khz_after, other.sm_clock_khz_min,
          other.input_sets};
    }
    // The timed module, after all its timed launches, runs again on the
    // input sets they used and is compared with the reference: a candidate
    // that computes only until it has been launched often enough, or only
    // on inputs it has not seen, is rejected.
    if (job.candidate) {
      uint64_t timedSeeds[2] = {job.seed, job.seed + 1};
      autoprof_distribution timedDistribution = AUTOPROF_DIST_NORMAL;
      autoprof_verify_options again = options;
      again.seeds = timedSeeds;
      again.num_seeds = static_cast<size_t>(std::max(1, timing.input_sets));
      again.distributions = &timedDistribution;
      again.num_distributions = 1;
      autoprof_verify_result verdict = {};
      auto checkStart = now();
      autoprof_status v =
          autoprof_verify(session, reference, &referenceSpec->spec, measured,
                          &measuredSpec->spec, &again, &verdict);
      result.seconds.verifyTimed = since(checkStart);
      const char *after = "results depend on earlier launches (a run after "
                          "the timed launches, on their inputs): ";
      if (v == AUTOPROF_ERROR_LAUNCH && verdict.reason[0])
        return fail(JobStatus::Rejected, llvm::Twine(after) + verdict.reason);
      if (v != AUTOPROF_OK)
        return fail(v == AUTOPROF_ERROR_LAUNCH ? JobStatus::Rejected
                                               : JobStatus::Error,
                    llvm::Twine("verification after timing failed to run: ") +
                        autoprof_last_error(session));
      if (!verdict.passed) {
        result.verified = false;
        return fail(JobStatus::Rejected, llvm::Twine(after) + verdict.reason);
      }
    }
    // The roofline reference for the achieved bandwidth of this kernel.
    double peak = 0;
    auto bandwidthStart = now();
    if (autoprof_measure_peak_bandwidth(session, &peak) == AUTOPROF_OK)
      result.peakBandwidth = peak;
    result.seconds.bandwidth = since(bandwidthStart);
  }

  if (!job.metrics.empty()) {
    std::vector<const char *> names;
    for (const std::string &name : job.metrics)
      names.push_back(name.c_str());
    autoprof_profile *profile = nullptr;
    auto profileStart = now();
    autoprof_status s = autoprof_profile_collect(
        session, measured, &measuredSpec->spec, names.data(), names.size(),
        job.seed, &profile);
    result.seconds.profile = since(profileStart);
    if (s != AUTOPROF_OK)
      return fail(
          s == AUTOPROF_ERROR_LAUNCH ? JobStatus::Rejected : JobStatus::Error,
          llvm::Twine("profiling failed: ") + autoprof_last_error(session));
    for (size_t i = 0; i < profile->num_metrics; ++i) {
      const autoprof_metric_value &metric = profile->metrics[i];
      result.metrics.push_back({metric.name, metric.collected != 0,
                                metric.value, metric.note ? metric.note : ""});
    }
    result.replayPasses = profile->replay_passes;
    result.profileSeconds = profile->seconds;
    autoprof_profile_free(profile);
  }
  result.status = JobStatus::Ok;
}

/// Guards the single write of the result: the job's or the watchdog's.
static std::mutex resultMutex;
static bool resultWritten = false;

static bool writeResultOnce(const EvaluationResult &result);

/// Waits for the job; if it is not done in time (a kernel that never ends
/// blocks the driver call that waits for it), writes a rejected result and
/// ends the process, which releases the GPU context and the GPU's turn. The
/// time spent waiting for the turn does not count.
static void watchdog(unsigned seconds, JobClock &clock) {
  JobClock::Clock::time_point start = JobClock::Clock::now();
  std::unique_lock<std::mutex> lock(clock.mutex);
  for (;;) {
    if (clock.finished)
      return;
    if (clock.waiting) {
      clock.changed.wait(lock);
      continue;
    }
    JobClock::Clock::time_point deadline =
        start + std::chrono::seconds(seconds) + clock.waited;
    if (JobClock::Clock::now() >= deadline)
      break;
    clock.changed.wait_until(lock, deadline);
  }
  EvaluationResult result;
  result.status = JobStatus::Rejected;
  result.reason = "the job did not finish within the watchdog's " +
                  std::to_string(seconds) +
                  " s (a kernel that does not terminate?)";
  if (writeResultOnce(result))
    _exit(0);
}

static bool writeResult(const EvaluationResult &result) {
  std::error_code ec;
  llvm::raw_fd_ostream os(resultPath, ec);
  if (ec) {
    llvm::errs() << "autoprof-worker: cannot write " << resultPath << ": "
                 << ec.message() << "\n";
    return false;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(toJSON(result))) << "\n";
  return true;
}

static bool writeResultOnce(const EvaluationResult &result) {
  std::lock_guard<std::mutex> lock(resultMutex);
  if (resultWritten)
    return false;
  resultWritten = true;
  return writeResult(result);
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::HideUnrelatedOptions(workerCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "AutoProf worker: runs one GPU evaluation job\n");

  EvaluationResult result;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFileOrSTDIN(jobPath);
  if (!text) {
    result.reason =
        "cannot read the job " + jobPath + ": " + text.getError().message();
    return writeResultOnce(result) ? 0 : 1;
  }
  llvm::Expected<EvaluationJob> job =
      parseDocument<EvaluationJob>((*text)->getBuffer(), "job");
  if (!job) {
    result.reason = "bad job: " + llvm::toString(job.takeError());
    return writeResultOnce(result) ? 0 : 1;
  }

  JobClock clock;
  std::thread guard;
  if (watchdogSeconds > 0)
    guard = std::thread(watchdog, static_cast<unsigned>(watchdogSeconds),
                        std::ref(clock));
  runJob(*job, result, clock);
  clock.finish();
  if (guard.joinable())
    guard.join();
  return writeResultOnce(result) ? 0 : 1;
}
