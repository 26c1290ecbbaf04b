//===- JobTest.cpp - Evaluation job documents -----------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/Job.h"
#include "autoprof/Runtime/HostData.h"

#include "gtest/gtest.h"

using namespace autoprof::runtime;

namespace {

EvaluationJob makeJob() {
  EvaluationJob job;
  job.device = 1;
  job.kernel.code = ".version 8.0\n.target sm_90\n";
  job.kernel.entry = "saxpy";
  job.kernel.launch.grid[0] = 4096;
  job.kernel.launch.block[0] = 256;
  job.kernel.launch.dynamicSharedBytes = 1024;
  JobParam x;
  x.dtype = AUTOPROF_F32;
  x.count = 1 << 20;
  x.role = BufferRole::Input;
  JobParam rows;
  rows.dtype = AUTOPROF_I32;
  rows.count = 64;
  rows.indexBound = 64;
  JobParam y;
  y.dtype = AUTOPROF_BF16;
  y.count = 1 << 20;
  y.role = BufferRole::InOut;
  JobParam a;
  a.isScalar = true;
  a.dtype = AUTOPROF_F32;
  a.value = 2.5;
  job.kernel.launch.params = {x, rows, y, a};
  job.candidate = job.kernel;
  job.candidate->format = CodeFormat::Cuda;
  job.candidate->launch.block[0] = 128;
  job.verifySeeds = {7, 8, 9};
  job.verifyDistributions = {AUTOPROF_DIST_LARGE};
  job.verifyReassociated = true;
  job.minRepetitions = 5;
  job.metrics = {"dram__bytes_read.sum", "launch__registers_per_thread"};
  return job;
}

TEST(Job, RoundTripsThroughJSON) {
  EvaluationJob job = makeJob();
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->device, 1);
  EXPECT_EQ(parsed->kernel.code, job.kernel.code);
  EXPECT_EQ(parsed->kernel.launch.grid[0], 4096u);
  EXPECT_EQ(parsed->kernel.launch.dynamicSharedBytes, 1024u);
  ASSERT_EQ(parsed->kernel.launch.params.size(), 4u);
  EXPECT_EQ(parsed->kernel.launch.params[1].indexBound, 64);
  EXPECT_EQ(parsed->kernel.launch.params[2].role, BufferRole::InOut);
  EXPECT_TRUE(parsed->kernel.launch.params[3].isScalar);
  EXPECT_EQ(parsed->kernel.launch.params[3].value, 2.5);
  ASSERT_TRUE(parsed->candidate.has_value());
  EXPECT_EQ(parsed->candidate->format, CodeFormat::Cuda);
  EXPECT_EQ(parsed->candidate->launch.block[0], 128u);
  EXPECT_EQ(parsed->verifySeeds, (std::vector<uint64_t>{7, 8, 9}));
  EXPECT_EQ(parsed->verifyDistributions,
            std::vector<autoprof_distribution>{AUTOPROF_DIST_LARGE});
  EXPECT_TRUE(parsed->verifyReassociated);
  EXPECT_TRUE(parsed->time);
  EXPECT_EQ(parsed->minRepetitions, 5);
  EXPECT_EQ(parsed->metrics, job.metrics);
}

// A cubin's bytes are not text: they travel in base64 and come back as
// they were, NUL and high bytes included; code that is not base64 is an
// error at the field.
TEST(Job, CubinBytesRoundTripInBase64) {
  EvaluationJob job = makeJob();
  job.kernel.format = CodeFormat::Cubin;
  job.kernel.code = std::string("\x7f"
                                "ELF\x02\x01\x00\xff\xfe",
                                9);
  job.candidate.reset();
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  EXPECT_NE(text.find("\"code\":\"f0VMRgIBAP/+\""), std::string::npos) << text;
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->kernel.code, job.kernel.code);
  EXPECT_EQ(parsed->kernel.format, CodeFormat::Cubin);

  llvm::Expected<EvaluationJob> broken = parseDocument<EvaluationJob>(
      R"({"kernel": {"code": "not base64!", "format": "cubin", "entry": "k",
          "launch": {"params": []}}})",
      "job");
  ASSERT_FALSE(static_cast<bool>(broken));
  EXPECT_EQ(llvm::toString(broken.takeError()),
            "a cubin's code must be base64 at job.kernel.code");
}

TEST(Job, SectionsThatAreAbsentAreSkipped) {
  llvm::Expected<EvaluationJob> parsed = parseDocument<EvaluationJob>(
      R"({"kernel": {"code": "c", "entry": "k",
          "launch": {"grid": [1, 1, 1], "block": [32, 1, 1], "params": []}}})",
      "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_FALSE(parsed->time);
  EXPECT_TRUE(parsed->metrics.empty());
  EXPECT_FALSE(parsed->candidate.has_value());
  EXPECT_FALSE(parsed->verifyReassociated);
}

/// Parses `text` and returns the error message ("" if it parsed).
std::string errorOf(llvm::StringRef text) {
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  if (parsed)
    return "";
  return llvm::toString(parsed.takeError());
}

TEST(Job, ErrorsNameWhereTheyAre) {
  EXPECT_NE(errorOf("{").find("job is not valid JSON"), std::string::npos);
  EXPECT_EQ(errorOf(R"({"kernel": {"entry": "k"}})"),
            "missing value at job.kernel.code");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k", "launch":
      {"grid": [1, 1], "block": [1, 1, 1], "params": []}}})"),
            "expected an array of three sizes at job.kernel.launch.grid");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k", "launch":
      {"grid": [1, 1, 1], "block": [0, 1, 1], "params": []}}})"),
            "expected a positive size at job.kernel.launch.block[0]");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k", "launch":
      {"params": [{"kind": "buffer", "dtype": "f128", "count": 4}]}}})"),
            "unknown element type at job.kernel.launch.params[0].dtype");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k", "launch":
      {"params": [{"kind": "buffer", "dtype": "f32", "count": 4,
                   "role": "scratch"}]}}})"),
            "expected \"input\", \"output\" or \"inout\" at "
            "job.kernel.launch.params[0].role");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k", "format": "sass",
      "launch": {"params": []}}})"),
            "expected \"ptx\", \"cubin\" or \"cuda\" at job.kernel.format");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}}, "time": {"min_repetitions": 0}})"),
            "need 1 <= min_repetitions <= max_repetitions at job.time");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}}, "verify": {"reassociated": "yes"}})"),
            "expected boolean at job.verify.reassociated");
}

// A number too large for a double parses as infinity, which JSON cannot
// write back: the reader refuses it, wherever it is, and names where.
TEST(Job, NumbersOutOfRangeAreRefused) {
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k", "launch":
      {"params": [{"kind": "scalar", "dtype": "f32", "value": 1e999}]}}})"),
            "number out of range at job.kernel.launch.params[0].value");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}}, "time": {"time_budget_s": -1e400}})"),
            "number out of range at job.time.time_budget_s");
  llvm::Expected<EvaluationResult> result = parseDocument<EvaluationResult>(
      R"({"status": "ok", "timing": {"median_us": 1e309}})", "result");
  ASSERT_FALSE(static_cast<bool>(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "number out of range at result.timing.median_us");
}

// A launch a host loop repeats carries which scalar varies and how; the
// reader checks that it is an integer scalar and that the last value fits.
TEST(Job, RepeatedLaunchesRoundTrip) {
  EvaluationJob job = makeJob();
  JobParam step;
  step.isScalar = true;
  step.dtype = AUTOPROF_I64;
  job.kernel.launch.params.push_back(step);
  job.kernel.launch.repeat = JobRepeat{4, 3, 2, 4096};
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  EXPECT_NE(
      text.find(R"("repeat":{"count":4096,"param":4,"start":3,"step":2})"),
      std::string::npos)
      << text;
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  ASSERT_TRUE(parsed->kernel.launch.repeat.has_value());
  EXPECT_EQ(parsed->kernel.launch.repeat->param, 4u);
  EXPECT_EQ(parsed->kernel.launch.repeat->start, 3);
  EXPECT_EQ(parsed->kernel.launch.repeat->step, 2);
  EXPECT_EQ(parsed->kernel.launch.repeat->count, 4096u);
  EXPECT_FALSE(parsed->candidate->launch.repeat.has_value());

  const char *prefix = R"({"kernel": {"code": "c", "entry": "k", "launch":
      {"params": [{"kind": "buffer", "dtype": "f32", "count": 4},
                  {"kind": "scalar", "dtype": "i32", "value": 0}],
       "repeat": )";
  auto repeatError = [&](const char *repeat) {
    return errorOf(std::string(prefix) + repeat + "}}}");
  };
  EXPECT_EQ(repeatError(R"({"param": 1, "start": 0, "step": 1, "count": 8})"),
            "");
  EXPECT_EQ(repeatError(R"({"param": 0, "start": 0, "step": 1, "count": 8})"),
            "the repeated parameter must be an integer scalar at "
            "job.kernel.launch.repeat.param");
  EXPECT_EQ(repeatError(R"({"param": 2, "start": 0, "step": 1, "count": 8})"),
            "expected the index of a parameter at "
            "job.kernel.launch.repeat.param");
  EXPECT_EQ(repeatError(R"({"param": 1, "start": 0, "step": 1, "count": 0})"),
            "expected a launch count from 1 to 1048576 at "
            "job.kernel.launch.repeat.count");
  EXPECT_EQ(repeatError(R"({"param": 1, "start": 9223372036854775000,
      "step": 1000, "count": 8})"),
            "start + (count - 1) * step overflows a 64-bit integer at "
            "job.kernel.launch.repeat");
  EXPECT_EQ(repeatError("[1]"),
            "expected an object at job.kernel.launch.repeat");
}

TEST(Job, IntegerScalarsTravelExactly) {
  EvaluationJob job = makeJob();
  JobParam big;
  big.isScalar = true;
  big.dtype = AUTOPROF_I64;
  big.intValue = (int64_t(1) << 60) + 1; // not representable as a double
  job.kernel.launch.params.push_back(big);
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->kernel.launch.params.back().intValue,
            (int64_t(1) << 60) + 1);
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k", "launch":
      {"params": [{"kind": "scalar", "dtype": "i32", "value": 1.5}]}}})"),
            "expected an integer at job.kernel.launch.params[0].value");
}

TEST(Job, RejectsNegativeCounts) {
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k", "launch":
      {"dynamic_shared_bytes": -1, "params": []}}})"),
            "expected a non-negative 32-bit integer at "
            "job.kernel.launch.dynamic_shared_bytes");
}

TEST(Job, AllowsOnlyOptimizationAndMacroCompileOptions) {
  for (const char *option :
       {"--use_fast_math", "--ftz=true", "--ftz=false", "--prec-div=false",
        "--prec-sqrt=true", "--fmad=false", "--extra-device-vectorization",
        "--restrict", "-DTILE", "-DTILE=32", "--define-macro=SCALE=(1.5f)"})
    EXPECT_TRUE(isAllowedCompileOption(option)) << option;
  for (const char *option :
       {"", "--ftz", "--ftz=yes", "-G", "--gpu-architecture=sm_80",
        "-arch=sm_80", "--include-path=/etc", "-I/etc", "--pre-include=x.h",
        "-D", "-D1X", "-DX=\"a b\"", "-DX=a;b", "--relocatable-device-code=true",
        "-dlto", "--optix-ir"})
    EXPECT_FALSE(isAllowedCompileOption(option)) << option;
}

TEST(Job, CompileOnlyJobsCarryTheirArchitectureAndPTX) {
  EvaluationJob job;
  job.kernel.code = "extern \"C\" __global__ void k(float *x) {}";
  job.kernel.format = CodeFormat::Cuda;
  job.kernel.entry = "k";
  job.time = false;
  job.compileArch = "compute_90";
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->compileArch, std::optional<std::string>("compute_90"));
  EXPECT_FALSE(parsed->time);
  EXPECT_TRUE(parsed->compileOptions.empty());

  // NVRTC options travel with the job; those that could read files or
  // change what is produced are refused, naming the option.
  job.compileOptions = {"--use_fast_math", "--prec-div=false", "-DTILE=32"};
  text.clear();
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  parsed = parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->compileOptions, job.compileOptions);
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "format": "cuda", "entry": "k",
      "launch": {"params": []}}, "compile": {"arch": "compute_90",
      "options": ["--ftz=true", "--include-path=/etc"]}})"),
            "not an NVRTC option AutoProf passes (fast-math and "
            "optimization choices and -D macro definitions are) at "
            "job.compile.options[1]");
  // Only CUDA C++ is compiled; PTX is already what a compile job returns.
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}}, "compile": {"arch": "compute_90"}})"),
            "only CUDA C++ kernels can be compiled at job.compile");

  EvaluationResult result;
  result.status = JobStatus::Ok;
  result.ptx = ".version 9.0\n.target sm_90\n";
  std::string resultText;
  llvm::raw_string_ostream(resultText) << llvm::json::Value(toJSON(result));
  llvm::Expected<EvaluationResult> parsedResult =
      parseDocument<EvaluationResult>(resultText, "result");
  ASSERT_TRUE(static_cast<bool>(parsedResult))
      << llvm::toString(parsedResult.takeError());
  EXPECT_EQ(parsedResult->ptx, result.ptx);
}

/// A job whose candidate leaves out the reference's scalars 1 and 3.
EvaluationJob makeMappedJob() {
  EvaluationJob job;
  job.kernel.code = "reference";
  job.kernel.entry = "k";
  JobParam buffer;
  buffer.dtype = AUTOPROF_F32;
  buffer.count = 256;
  JobParam output = buffer;
  output.role = BufferRole::Output;
  JobParam step;
  step.isScalar = true;
  step.dtype = AUTOPROF_I64;
  step.intValue = 1;
  JobParam scale;
  scale.isScalar = true;
  scale.dtype = AUTOPROF_F32;
  scale.value = 0.5;
  job.kernel.launch.params = {buffer, step, output, step, scale};
  job.candidate = job.kernel;
  job.candidate->code = "candidate";
  job.candidate->launch.params = {buffer, output, scale};
  job.candidate->referenceParams = std::vector<unsigned>{0, 2, 4};
  job.time = false;
  return job;
}

TEST(Job, CandidateParameterMapRoundTrips) {
  EvaluationJob job = makeMappedJob();
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  EXPECT_NE(text.find("\"reference_params\":[0,2,4]"), std::string::npos)
      << text;
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  ASSERT_TRUE(parsed->candidate.has_value());
  EXPECT_EQ(parsed->candidate->referenceParams,
            (std::optional<std::vector<unsigned>>({0, 2, 4})));
  EXPECT_FALSE(parsed->kernel.referenceParams.has_value());

  // Without a map nothing is written, and nothing is read back.
  job.candidate->launch.params = job.kernel.launch.params;
  job.candidate->referenceParams.reset();
  text.clear();
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  EXPECT_EQ(text.find("reference_params"), std::string::npos);
  parsed = parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_FALSE(parsed->candidate->referenceParams.has_value());
}

/// The error of parsing `job` with its candidate's map set to `map`.
std::string mapErrorOf(EvaluationJob job, std::vector<unsigned> map) {
  job.candidate->referenceParams = std::move(map);
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  return errorOf(text);
}

TEST(Job, BadParameterMapsAreRejected) {
  EvaluationJob job = makeMappedJob();
  EXPECT_EQ(mapErrorOf(job, {0, 2, 4}), "");
  EXPECT_EQ(mapErrorOf(job, {0, 2}),
            "expected one entry per candidate parameter at "
            "job.candidate.reference_params");
  EXPECT_EQ(mapErrorOf(job, {0, 2, 5}),
            "the reference has no such parameter at "
            "job.candidate.reference_params[2]");
  EXPECT_EQ(mapErrorOf(job, {0, 0, 4}),
            "an earlier candidate parameter already receives this reference "
            "parameter at job.candidate.reference_params[1]");
  EXPECT_EQ(mapErrorOf(job, {0, 2, 3}),
            "the candidate parameter and the reference parameter differ in "
            "kind or element type at job.candidate.reference_params[2]");
  // Leaving out a buffer would run the candidate on other data.
  job.candidate->launch.params.erase(job.candidate->launch.params.begin() + 1);
  EXPECT_EQ(mapErrorOf(job, {0, 4}),
            "no candidate parameter receives this buffer (a candidate can "
            "only leave out scalar parameters) at job.kernel.launch.params[2]");
  // Only a candidate has a map; indices are non-negative.
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}, "reference_params": []}})"),
            "only a candidate receives the reference's parameters at "
            "job.kernel.reference_params");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}}, "candidate": {"code": "c", "entry": "k",
      "launch": {"params": []}, "reference_params": [-1]}})"),
            "expected the index of a reference parameter at "
            "job.candidate.reference_params[0]");
}

TEST(Result, MissingMetricsStayMissing) {
  EvaluationResult result;
  result.status = JobStatus::Ok;
  result.gpuName = "NVIDIA H200";
  result.medianUs = 12.5;
  result.samples = 10;
  result.metrics = {{"dram__bytes_read.sum", true, 4096, ""},
                    {"sm__bogus.sum", false, 0, "unknown metric"}};
  result.replayPasses = 3;
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(result));
  // A missing metric has no value at all, so nobody can read it as 0.
  EXPECT_EQ(text.find("\"value\":0"), std::string::npos);
  llvm::Expected<EvaluationResult> parsed =
      parseDocument<EvaluationResult>(text, "result");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->medianUs, std::optional<double>(12.5));
  ASSERT_EQ(parsed->metrics.size(), 2u);
  EXPECT_TRUE(parsed->metrics[0].collected);
  EXPECT_EQ(parsed->metrics[0].value, 4096);
  EXPECT_FALSE(parsed->metrics[1].collected);
  EXPECT_EQ(parsed->metrics[1].note, "unknown metric");
  EXPECT_EQ(parsed->replayPasses, 3);
}

TEST(Result, WhereTheTimeWentRoundTrips) {
  EvaluationResult result;
  result.status = JobStatus::Ok;
  result.gpuName = "NVIDIA H200";
  result.seconds.setup = 0.25;
  result.seconds.gpuWait = 2.5;
  result.seconds.verify = 3.5;
  result.seconds.verifyInputs = 1.25;
  result.seconds.verifyTransfers = 1.5;
  result.seconds.verifyKernels = 0.5;
  result.seconds.verifyOther = 0.25;
  result.seconds.verifyTimed = 0.125;
  result.seconds.time = 0.75;
  result.seconds.bandwidth = 0.125;
  result.seconds.profile = 1.0;
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(result));
  llvm::Expected<EvaluationResult> parsed =
      parseDocument<EvaluationResult>(text, "result");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->seconds.setup, 0.25);
  EXPECT_EQ(parsed->seconds.gpuWait, 2.5);
  EXPECT_EQ(parsed->seconds.verify, 3.5);
  EXPECT_EQ(parsed->seconds.verifyInputs, 1.25);
  EXPECT_EQ(parsed->seconds.verifyTransfers, 1.5);
  EXPECT_EQ(parsed->seconds.verifyKernels, 0.5);
  EXPECT_EQ(parsed->seconds.verifyOther, 0.25);
  EXPECT_EQ(parsed->seconds.verifyTimed, 0.125);
  EXPECT_EQ(parsed->seconds.time, 0.75);
  EXPECT_EQ(parsed->seconds.bandwidth, 0.125);
  EXPECT_EQ(parsed->seconds.profile, 1.0);

  // A result without them (an older worker, a stand-in) still parses.
  llvm::Expected<EvaluationResult> bare = parseDocument<EvaluationResult>(
      R"({"status": "ok", "device": {"name": "NVIDIA H200"}})", "result");
  ASSERT_TRUE(static_cast<bool>(bare)) << llvm::toString(bare.takeError());
  EXPECT_EQ(bare->seconds.verify, 0);
}

} // namespace

TEST(Job, InterleavedTimingRoundTrips) {
  EvaluationJob job = makeJob();
  job.candidate.reset();
  job.interleavedWith = job.kernel;
  job.interleavedWith->entry = "incumbent";
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  ASSERT_TRUE(parsed->interleavedWith.has_value());
  EXPECT_EQ(parsed->interleavedWith->entry, "incumbent");
  EXPECT_EQ(parsed->interleavedWith->launch.params.size(), 4u);

  // The kernel timed alongside is timed on its own parameters.
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}}, "time": {"interleaved_with": {"code": "c",
      "entry": "k", "launch": {"params": []}, "reference_params": []}}})"),
            "only a candidate receives the reference's parameters at "
            "job.time.interleaved_with.reference_params");
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}}, "time": {"interleaved_with": {"code": "c",
      "launch": {"params": []}}}})"),
            "missing value at job.time.interleaved_with.entry");

  EvaluationResult result;
  result.status = JobStatus::Ok;
  result.medianUs = 50;
  result.madUs = 0.5;
  result.smClockKhzBefore = 1980000;
  result.smClockKhzMin = 1755000;
  result.interleavedTiming = TimingStats{};
  result.interleavedTiming->medianUs = 100;
  result.interleavedTiming->samples = 20;
  result.interleavedTiming->smClockKhzMin = 1755000;
  text.clear();
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(result));
  llvm::Expected<EvaluationResult> back =
      parseDocument<EvaluationResult>(text, "result");
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->medianUs, std::optional<double>(50));
  EXPECT_EQ(back->madUs, std::optional<double>(0.5));
  EXPECT_EQ(back->smClockKhzMin, 1755000);
  ASSERT_TRUE(back->interleavedTiming.has_value());
  EXPECT_EQ(back->interleavedTiming->medianUs, 100);
  EXPECT_EQ(back->interleavedTiming->samples, 20);
  EXPECT_EQ(back->interleavedTiming->smClockKhzMin, 1755000);
}

TEST(Job, EveryDistributionIsKnown) {
  EvaluationJob job = makeJob();
  job.verifyDistributions = {AUTOPROF_DIST_NORMAL,    AUTOPROF_DIST_SPECIAL,
                             AUTOPROF_DIST_SKEWED,    AUTOPROF_DIST_NEAR_RANGE,
                             AUTOPROF_DIST_SUBNORMAL, AUTOPROF_DIST_SMALL_INT};
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  EXPECT_NE(text.find(R"("distributions":["normal","special","skewed",)"
                      R"("near_range","subnormal","small_int"])"),
            std::string::npos)
      << text;
  llvm::Expected<EvaluationJob> parsed =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->verifyDistributions, job.verifyDistributions);
  EXPECT_EQ(errorOf(R"({"kernel": {"code": "c", "entry": "k",
      "launch": {"params": []}}, "verify": {"distributions": ["normal",
      "odd"]}})"),
            "expected \"normal\", \"uniform\", \"large\", \"small_int\", "
            "\"special\", \"skewed\", \"near_range\" or \"subnormal\" at "
            "job.verify.distributions[1]");
  // The small-integer distribution is spelled as jobs spell it.
  EXPECT_STREQ(distributionName(AUTOPROF_DIST_SMALL_INT), "small_int");
}

namespace {

// A buffer's value range travels as [low, high]; the reader checks it as
// the input generator will (HostData.h) and names where it is wrong.
TEST(Job, ValueRangesRoundTripAndAreChecked) {
  EvaluationJob job = makeJob();
  job.kernel.launch.params[0].range = std::array<double, 2>{0.0, 1.5};
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(toJSON(job));
  llvm::Expected<EvaluationJob> back =
      parseDocument<EvaluationJob>(text, "job");
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  ASSERT_TRUE(back->kernel.launch.params[0].range);
  EXPECT_EQ((*back->kernel.launch.params[0].range)[0], 0.0);
  EXPECT_EQ((*back->kernel.launch.params[0].range)[1], 1.5);
  EXPECT_FALSE(back->kernel.launch.params[2].range);

  auto withRange = [](const char *param) {
    return std::string(R"({"kernel": {"code": "c", "entry": "k", "launch":
        {"params": [)") +
           param + "]}}}";
  };
  EXPECT_EQ(errorOf(withRange(R"({"kind": "buffer", "dtype": "f32",
      "count": 4, "range": [2, 1]})")),
            "a value range needs two finite bounds, the first below the "
            "second at job.kernel.launch.params[0].range");
  EXPECT_EQ(errorOf(withRange(R"({"kind": "buffer", "dtype": "f32",
      "count": 4, "range": [0]})")),
            "expected [low, high]: two numbers at "
            "job.kernel.launch.params[0].range");
  EXPECT_EQ(errorOf(withRange(R"({"kind": "buffer", "dtype": "i8",
      "count": 4, "range": [0, 300]})")),
            "an integer element type needs integer bounds that it holds "
            "(within 2^62) at job.kernel.launch.params[0].range");
  EXPECT_EQ(errorOf(withRange(R"({"kind": "buffer", "dtype": "f32",
      "count": 4, "role": "output", "range": [0, 1]})")),
            "only input buffers take a value range at "
            "job.kernel.launch.params[0].range");
}

// An integer input with a range keeps it: no default index bound is added.
TEST(Job, ValueRangesTakeThePlaceOfTheDefaultIndexBound) {
  JobLaunch launch;
  JobParam table;
  table.dtype = AUTOPROF_F32;
  table.count = 100;
  JobParam offsets;
  offsets.dtype = AUTOPROF_I32;
  offsets.count = 100;
  offsets.range = std::array<double, 2>{-5.0, 5.0};
  JobParam indices = offsets;
  indices.range.reset();
  launch.params = {table, offsets, indices};
  applyDefaultIndexBounds(launch);
  EXPECT_EQ(launch.params[1].indexBound, 0);
  EXPECT_EQ(launch.params[2].indexBound, 100);
}

} // namespace

TEST(JobTest, RolesAndFormatsAreSpelledOnce) {
  // Each name reads back to its value, and nothing else reads.
  for (BufferRole role :
       {BufferRole::Input, BufferRole::Output, BufferRole::InOut})
    EXPECT_EQ(parseBufferRole(getBufferRoleName(role)), role);
  for (CodeFormat format :
       {CodeFormat::Ptx, CodeFormat::Cubin, CodeFormat::Cuda})
    EXPECT_EQ(parseCodeFormat(getCodeFormatName(format)), format);
  EXPECT_EQ(parseBufferRole("Input"), std::nullopt);
  EXPECT_EQ(parseBufferRole("scratch"), std::nullopt);
  EXPECT_EQ(parseCodeFormat("sass"), std::nullopt);
  EXPECT_EQ(parseCodeFormat(""), std::nullopt);
  // The runtime's C enumerations are what the worker passes on.
  EXPECT_EQ(toRuntimeRole(BufferRole::InOut), AUTOPROF_ROLE_INOUT);
  EXPECT_EQ(toRuntimeFormat(CodeFormat::Cubin), AUTOPROF_CODE_CUBIN);
}
