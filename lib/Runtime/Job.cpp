//===- Job.cpp - Evaluation jobs exchanged with autoprof-worker -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/Job.h"
#include "autoprof/Runtime/HostData.h"
#include "autoprof/Support/Json.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace autoprof::runtime;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

void autoprof::runtime::applyDefaultIndexBounds(JobLaunch &launch) {
  // One-element buffers are results (sums, counters), not what indices
  // index; bounding by them would make every index input zero.
  uint64_t smallest = UINT64_MAX;
  for (const JobParam &param : launch.params)
    if (!param.isScalar && param.count > 1)
      smallest = std::min<uint64_t>(smallest, param.count);
  if (smallest == UINT64_MAX)
    return;
  for (JobParam &param : launch.params) {
    if (param.isScalar || param.role != BufferRole::Input ||
        param.indexBound != 0 || param.range || isFloatType(param.dtype))
      continue;
    unsigned bits = dtypeSize(param.dtype) * 8;
    uint64_t typeLimit = isUnsignedType(param.dtype)
                             ? (bits >= 64 ? UINT64_MAX : (1ull << bits))
                             : (1ull << (bits - 1));
    if (smallest <= typeLimit)
      param.indexBound = static_cast<int64_t>(smallest);
  }
}

//===----------------------------------------------------------------------===//
// Serialization
//===----------------------------------------------------------------------===//

static Array toArray(const std::vector<std::string> &strings) {
  Array array;
  for (const std::string &string : strings)
    array.push_back(string);
  return array;
}

Value autoprof::runtime::toJSON(const JobParam &param) {
  if (param.isScalar) {
    bool isFloat = isFloatType(param.dtype);
    return Object{
        {"kind", "scalar"},
        {"dtype", dtypeName(param.dtype)},
        {"value", isFloat ? Value(param.value) : Value(param.intValue)}};
  }
  Object object{{"kind", "buffer"},
                {"dtype", dtypeName(param.dtype)},
                {"count", static_cast<int64_t>(param.count)},
                {"role", getBufferRoleName(param.role)}};
  if (param.indexBound > 0)
    object["index_bound"] = param.indexBound;
  if (param.sorted)
    object["sorted"] = true;
  if (param.range)
    object["range"] = Array{(*param.range)[0], (*param.range)[1]};
  return object;
}

Value autoprof::runtime::toJSON(const JobLaunch &launch) {
  Array params;
  for (const JobParam &param : launch.params)
    params.push_back(toJSON(param));
  Object object{
      {"grid", Array{launch.grid[0], launch.grid[1], launch.grid[2]}},
      {"block", Array{launch.block[0], launch.block[1], launch.block[2]}},
      {"dynamic_shared_bytes", launch.dynamicSharedBytes},
      {"params", std::move(params)}};
  if (launch.repeat)
    object["repeat"] =
        Object{{"param", static_cast<int64_t>(launch.repeat->param)},
               {"start", launch.repeat->start},
               {"step", launch.repeat->step},
               {"count", static_cast<int64_t>(launch.repeat->count)}};
  return object;
}

Value autoprof::runtime::toJSON(const JobKernel &kernel) {
  // A cubin's bytes are not text: JSON carries them in base64.
  Object object{{"code", kernel.format == CodeFormat::Cubin
                             ? llvm::encodeBase64(kernel.code)
                             : kernel.code},
                {"format", getCodeFormatName(kernel.format)},
                {"entry", kernel.entry},
                {"launch", toJSON(kernel.launch)}};
  if (kernel.referenceParams) {
    Array indices;
    for (unsigned index : *kernel.referenceParams)
      indices.push_back(static_cast<int64_t>(index));
    object["reference_params"] = std::move(indices);
  }
  return object;
}

Value autoprof::runtime::toJSON(const EvaluationJob &job) {
  Object object{{"device", job.device}, {"kernel", toJSON(job.kernel)}};
  if (job.candidate) {
    object["candidate"] = toJSON(*job.candidate);
    Array seeds;
    for (uint64_t seed : job.verifySeeds)
      seeds.push_back(static_cast<int64_t>(seed));
    Array names;
    for (autoprof_distribution distribution : job.verifyDistributions)
      names.push_back(distributionName(distribution));
    Object verify{{"seeds", std::move(seeds)},
                  {"distributions", std::move(names)}};
    if (job.verifyReassociated)
      verify["reassociated"] = true;
    object["verify"] = std::move(verify);
  }
  if (job.time) {
    Object time{{"warmup", job.warmup},
                {"min_repetitions", job.minRepetitions},
                {"max_repetitions", job.maxRepetitions},
                {"time_budget_s", job.timeBudgetSeconds},
                {"flush_l2", job.flushL2},
                {"seed", static_cast<int64_t>(job.seed)}};
    if (job.interleavedWith)
      time["interleaved_with"] = toJSON(*job.interleavedWith);
    object["time"] = std::move(time);
  }
  if (!job.metrics.empty())
    object["profile"] = Object{{"metrics", toArray(job.metrics)}};
  if (job.compileArch) {
    Object compile{{"arch", *job.compileArch}};
    if (!job.compileOptions.empty())
      compile["options"] = toArray(job.compileOptions);
    object["compile"] = std::move(compile);
  }
  return object;
}

Value autoprof::runtime::toJSON(const MetricResult &metric) {
  Object object{{"name", metric.name}, {"collected", metric.collected}};
  if (metric.collected)
    object["value"] = metric.value;
  if (!metric.note.empty())
    object["note"] = metric.note;
  return object;
}

Value autoprof::runtime::toJSON(const JobSeconds &seconds) {
  return Object{{"setup", seconds.setup},
                {"gpu_wait", seconds.gpuWait},
                {"verify", seconds.verify},
                {"verify_inputs", seconds.verifyInputs},
                {"verify_transfers", seconds.verifyTransfers},
                {"verify_kernels", seconds.verifyKernels},
                {"verify_other", seconds.verifyOther},
                {"verify_timed", seconds.verifyTimed},
                {"time", seconds.time},
                {"bandwidth", seconds.bandwidth},
                {"profile", seconds.profile}};
}

bool autoprof::runtime::isAllowedCompileOption(llvm::StringRef option) {
  if (llvm::is_contained({"--use_fast_math", "--extra-device-vectorization",
                          "--restrict"},
                         option))
    return true;
  for (llvm::StringRef flag : {"--ftz=", "--prec-div=", "--prec-sqrt=",
                               "--fmad="})
    if (option.consume_front(flag))
      return option == "true" || option == "false";
  // A macro: an identifier, optionally `=` and a value of word characters,
  // dots, signs and parentheses (no quotes, blanks or paths).
  if (!option.consume_front("--define-macro=") && !option.consume_front("-D"))
    return false;
  auto [name, value] = option.split('=');
  if (name.empty() || llvm::isDigit(name.front()) ||
      !llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return false;
  return llvm::all_of(value, [](char c) {
    return llvm::isAlnum(c) || llvm::is_contained(llvm::StringRef("_.+-()"), c);
  });
}

bool autoprof::runtime::fromJSON(const Value &value, JobSeconds &seconds,
                                 llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  return mapper && mapper.mapOptional("setup", seconds.setup) &&
         mapper.mapOptional("gpu_wait", seconds.gpuWait) &&
         mapper.mapOptional("verify", seconds.verify) &&
         mapper.mapOptional("verify_inputs", seconds.verifyInputs) &&
         mapper.mapOptional("verify_transfers", seconds.verifyTransfers) &&
         mapper.mapOptional("verify_kernels", seconds.verifyKernels) &&
         mapper.mapOptional("verify_other", seconds.verifyOther) &&
         mapper.mapOptional("verify_timed", seconds.verifyTimed) &&
         mapper.mapOptional("time", seconds.time) &&
         mapper.mapOptional("bandwidth", seconds.bandwidth) &&
         mapper.mapOptional("profile", seconds.profile);
}

Value autoprof::runtime::toJSON(const TimingStats &timing) {
  return Object{{"samples", timing.samples},
                {"median_us", timing.medianUs},
                {"min_us", timing.minUs},
                {"max_us", timing.maxUs},
                {"mad_us", timing.madUs},
                {"p10_us", timing.p10Us},
                {"p90_us", timing.p90Us},
                {"sm_clock_khz_before", timing.smClockKhzBefore},
                {"sm_clock_khz_after", timing.smClockKhzAfter},
                {"sm_clock_khz_min", timing.smClockKhzMin},
                {"input_sets", timing.inputSets}};
}

bool autoprof::runtime::fromJSON(const Value &value, TimingStats &timing,
                                 llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  return mapper && mapper.map("median_us", timing.medianUs) &&
         mapper.mapOptional("samples", timing.samples) &&
         mapper.mapOptional("min_us", timing.minUs) &&
         mapper.mapOptional("max_us", timing.maxUs) &&
         mapper.mapOptional("mad_us", timing.madUs) &&
         mapper.mapOptional("p10_us", timing.p10Us) &&
         mapper.mapOptional("p90_us", timing.p90Us) &&
         mapper.mapOptional("sm_clock_khz_before", timing.smClockKhzBefore) &&
         mapper.mapOptional("sm_clock_khz_after", timing.smClockKhzAfter) &&
         mapper.mapOptional("sm_clock_khz_min", timing.smClockKhzMin) &&
         mapper.mapOptional("input_sets", timing.inputSets);
}

/// The value of `values` that `nameOf` spells `name`, if any: the reading
/// of a closed vocabulary from its JSON spelling.
template <typename Enum>
static std::optional<Enum> findByName(llvm::StringRef name,
                                      std::initializer_list<Enum> values,
                                      llvm::StringRef (*nameOf)(Enum)) {
  for (Enum value : values)
    if (name == nameOf(value))
      return value;
  return std::nullopt;
}

llvm::StringRef autoprof::runtime::getBufferRoleName(BufferRole role) {
  return roleName(toRuntimeRole(role));
}

std::optional<BufferRole>
autoprof::runtime::parseBufferRole(llvm::StringRef name) {
  return findByName(name,
                    {BufferRole::Input, BufferRole::Output, BufferRole::InOut},
                    getBufferRoleName);
}

autoprof_role autoprof::runtime::toRuntimeRole(BufferRole role) {
  switch (role) {
  case BufferRole::Input:
    return AUTOPROF_ROLE_INPUT;
  case BufferRole::Output:
    return AUTOPROF_ROLE_OUTPUT;
  case BufferRole::InOut:
    return AUTOPROF_ROLE_INOUT;
  }
  llvm_unreachable("unknown buffer role");
}

llvm::StringRef autoprof::runtime::getCodeFormatName(CodeFormat format) {
  switch (format) {
  case CodeFormat::Ptx:
    return "ptx";
  case CodeFormat::Cubin:
    return "cubin";
  case CodeFormat::Cuda:
    return "cuda";
  }
  llvm_unreachable("unknown code format");
}

std::optional<CodeFormat>
autoprof::runtime::parseCodeFormat(llvm::StringRef name) {
  return findByName(name, {CodeFormat::Ptx, CodeFormat::Cubin, CodeFormat::Cuda},
                    getCodeFormatName);
}

autoprof_code_format autoprof::runtime::toRuntimeFormat(CodeFormat format) {
  switch (format) {
  case CodeFormat::Ptx:
    return AUTOPROF_CODE_PTX;
  case CodeFormat::Cubin:
    return AUTOPROF_CODE_CUBIN;
  case CodeFormat::Cuda:
    return AUTOPROF_CODE_CUDA;
  }
  llvm_unreachable("unknown code format");
}

llvm::StringRef autoprof::runtime::getJobStatusName(JobStatus status) {
  switch (status) {
  case JobStatus::Ok:
    return "ok";
  case JobStatus::Rejected:
    return "rejected";
  case JobStatus::Error:
    return "error";
  }
  llvm_unreachable("unknown job status");
}

std::optional<JobStatus>
autoprof::runtime::parseJobStatus(llvm::StringRef name) {
  return findByName(name, {JobStatus::Ok, JobStatus::Rejected, JobStatus::Error},
                    getJobStatusName);
}

Value autoprof::runtime::toJSON(const EvaluationResult &result) {
  Object object{{"status", getJobStatusName(result.status)}};
  if (!result.reason.empty())
    object["reason"] = result.reason;
  if (!result.gpuName.empty())
    object["device"] = Object{{"name", result.gpuName},
                              {"sm_count", result.smCount},
                              {"l2_bytes", result.l2Bytes},
                              {"driver_version", result.driverVersion},
                              {"peak_bandwidth", result.peakBandwidth}};
  if (result.registersPerThread)
    object["kernel_attributes"] =
        Object{{"registers_per_thread", result.registersPerThread},
               {"static_shared_bytes", result.staticSharedBytes},
               {"local_bytes_per_thread", result.localBytesPerThread},
               {"blocks_per_sm", result.blocksPerSm}};
  if (result.verified)
    object["verified"] = *result.verified;
  if (result.medianUs) {
    TimingStats timing;
    timing.samples = result.samples;
    timing.medianUs = *result.medianUs;
    timing.minUs = result.minUs.value_or(0);
    timing.maxUs = result.maxUs.value_or(0);
    timing.madUs = result.madUs.value_or(0);
    timing.p10Us = result.p10Us.value_or(0);
    timing.p90Us = result.p90Us.value_or(0);
    timing.smClockKhzBefore = result.smClockKhzBefore;
    timing.smClockKhzAfter = result.smClockKhzAfter;
    timing.smClockKhzMin = result.smClockKhzMin;
    timing.inputSets = result.inputSets;
    object["timing"] = toJSON(timing);
  }
  if (result.interleavedTiming)
    object["interleaved_timing"] = toJSON(*result.interleavedTiming);
  if (!result.metrics.empty() || result.replayPasses) {
    Array metrics;
    for (const MetricResult &metric : result.metrics)
      metrics.push_back(toJSON(metric));
    object["profile"] = Object{{"metrics", std::move(metrics)},
                               {"replay_passes", result.replayPasses},
                               {"seconds", result.profileSeconds}};
  }
  if (!result.gpuName.empty())
    object["seconds"] = toJSON(result.seconds);
  if (!result.ptx.empty())
    object["ptx"] = result.ptx;
  return object;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// Reads a [x, y, z] array of positive sizes.
static bool readDim3(const Object &object, llvm::StringRef key,
                     unsigned (&dims)[3], llvm::json::Path path) {
  const Value *value = object.get(key);
  if (!value)
    return true;
  const Array *array = value->getAsArray();
  if (!array || array->size() != 3) {
    path.field(key).report("expected an array of three sizes");
    return false;
  }
  for (unsigned i = 0; i < 3; ++i) {
    std::optional<int64_t> size = (*array)[i].getAsInteger();
    if (!size || *size < 1 || *size > UINT32_MAX) {
      path.field(key).index(i).report("expected a positive size");
      return false;
    }
    dims[i] = static_cast<unsigned>(*size);
  }
  return true;
}

/// Reads an optional non-negative 32-bit count (llvm::json's own unsigned
/// mapping would wrap negative values).
static bool readUnsigned(const Object &object, llvm::StringRef key,
                         unsigned &result, llvm::json::Path path) {
  const Value *value = object.get(key);
  if (!value)
    return true;
  std::optional<int64_t> number = value->getAsInteger();
  if (!number || *number < 0 || *number > UINT32_MAX) {
    path.field(key).report("expected a non-negative 32-bit integer");
    return false;
  }
  result = static_cast<unsigned>(*number);
  return true;
}

bool autoprof::runtime::fromJSON(const Value &value, JobParam &param,
                                 llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  std::string kind, dtype;
  if (!mapper || !mapper.map("kind", kind) || !mapper.map("dtype", dtype))
    return false;
  if (!dtypeFromName(dtype, param.dtype)) {
    path.field("dtype").report("unknown element type");
    return false;
  }
  if (kind == "scalar") {
    param.isScalar = true;
    const Value *scalar = value.getAsObject()->get("value");
    if (!scalar) {
      path.field("value").report("missing value");
      return false;
    }
    if (isFloatType(param.dtype)) {
      std::optional<double> number = scalar->getAsNumber();
      if (!number) {
        path.field("value").report("expected a number");
        return false;
      }
      param.value = *number;
      return true;
    }
    std::optional<int64_t> integer = scalar->getAsInteger();
    if (!integer) {
      path.field("value").report("expected an integer");
      return false;
    }
    param.intValue = *integer;
    param.value = static_cast<double>(*integer);
    return true;
  }
  if (kind != "buffer") {
    path.field("kind").report("expected \"buffer\" or \"scalar\"");
    return false;
  }
  int64_t count = 0;
  std::string role = "input";
  if (!mapper.map("count", count) || !mapper.mapOptional("role", role) ||
      !mapper.mapOptional("index_bound", param.indexBound) ||
      !mapper.mapOptional("sorted", param.sorted))
    return false;
  if (count < 1) {
    path.field("count").report("a buffer needs at least one element");
    return false;
  }
  // 1 TiB: more than any GPU's memory, and far from where a byte count
  // overflows.
  constexpr int64_t kMaxBufferBytes = int64_t(1) << 40;
  if (count > int64_t(kMaxBufferBytes / dtypeSize(param.dtype))) {
    path.field("count").report("a buffer of more than 1 TiB, more than a "
                               "GPU holds");
    return false;
  }
  if (param.indexBound < 0) {
    path.field("index_bound").report(
        "expected a positive bound (or none: 0)");
    return false;
  }
  param.count = static_cast<uint64_t>(count);
  std::optional<BufferRole> parsedRole = parseBufferRole(role);
  if (!parsedRole) {
    path.field("role").report("expected \"input\", \"output\" or \"inout\"");
    return false;
  }
  param.role = *parsedRole;
  if (const Value *range = value.getAsObject()->get("range")) {
    const Array *bounds = range->getAsArray();
    std::optional<double> low, high;
    if (bounds && bounds->size() == 2) {
      low = (*bounds)[0].getAsNumber();
      high = (*bounds)[1].getAsNumber();
    }
    if (!low || !high) {
      path.field("range").report("expected [low, high]: two numbers");
      return false;
    }
    param.range = std::array<double, 2>{*low, *high};
    if (std::optional<llvm::StringLiteral> why = checkValueRange(param)) {
      path.field("range").report(*why);
      return false;
    }
  }
  return true;
}

std::optional<llvm::StringLiteral>
autoprof::runtime::checkValueRange(const JobParam &param) {
  if (!param.range)
    return std::nullopt;
  // The generator's own check, on the C form it is given.
  autoprof_param generated = {};
  generated.is_scalar = param.isScalar;
  generated.dtype = param.dtype;
  generated.role = toRuntimeRole(param.role);
  generated.index_bound = param.indexBound;
  generated.has_range = 1;
  generated.range_low = (*param.range)[0];
  generated.range_high = (*param.range)[1];
  switch (checkValueRange(generated)) {
  case ValueRangeError::None:
    return std::nullopt;
  case ValueRangeError::Bounds:
    return llvm::StringLiteral("a value range needs two finite bounds, the "
                               "first below the second");
  case ValueRangeError::Role:
    return llvm::StringLiteral("only input buffers take a value range");
  case ValueRangeError::IndexBound:
    return llvm::StringLiteral(
        "a value range and an index bound cannot both be given");
  case ValueRangeError::FloatType:
    return llvm::StringLiteral(
        "the value range exceeds the finite values of the element type");
  case ValueRangeError::IntegerType:
    return llvm::StringLiteral("an integer element type needs integer "
                               "bounds that it holds (within 2^62)");
  }
  return std::nullopt;
}

bool autoprof::runtime::fromJSON(const Value &value, JobLaunch &launch,
                                 llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  const Object *object = value.getAsObject();
  if (!mapper || !readDim3(*object, "grid", launch.grid, path) ||
      !readDim3(*object, "block", launch.block, path) ||
      !readUnsigned(*object, "dynamic_shared_bytes", launch.dynamicSharedBytes,
                    path) ||
      !mapper.map("params", launch.params))
    return false;
  const Value *repeatValue = object->get("repeat");
  if (!repeatValue)
    return true;
  llvm::json::Path repeatPath = path.field("repeat");
  const Object *repeat = repeatValue->getAsObject();
  if (!repeat) {
    repeatPath.report("expected an object");
    return false;
  }
  auto readInteger = [&](llvm::StringRef key, int64_t low, int64_t high,
                         llvm::StringLiteral expected, int64_t &out) {
    std::optional<int64_t> number =
        repeat->get(key) ? repeat->get(key)->getAsInteger() : std::nullopt;
    if (!number || *number < low || *number > high) {
      repeatPath.field(key).report(expected);
      return false;
    }
    out = *number;
    return true;
  };
  int64_t param = 0, count = 0;
  JobRepeat &result = launch.repeat.emplace();
  if (!readInteger("param", 0, static_cast<int64_t>(launch.params.size()) - 1,
                   "expected the index of a parameter", param) ||
      !readInteger("start", INT64_MIN, INT64_MAX, "expected an integer",
                   result.start) ||
      !readInteger("step", INT64_MIN, INT64_MAX, "expected an integer",
                   result.step) ||
      !readInteger("count", 1, int64_t(1) << 20,
                   "expected a launch count from 1 to 1048576", count))
    return false;
  result.param = static_cast<unsigned>(param);
  result.count = static_cast<uint64_t>(count);
  const JobParam &varying = launch.params[result.param];
  if (!varying.isScalar || isFloatType(varying.dtype)) {
    repeatPath.field("param").report(
        "the repeated parameter must be an integer scalar");
    return false;
  }
  // The last value must be representable.
  int64_t span = 0, last = 0;
  if (llvm::MulOverflow(result.step, count - 1, span) ||
      llvm::AddOverflow(result.start, span, last)) {
    repeatPath.report("start + (count - 1) * step overflows a 64-bit integer");
    return false;
  }
  return true;
}

bool autoprof::runtime::fromJSON(const Value &value, JobKernel &kernel,
                                 llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  std::string format = "ptx";
  if (!mapper || !mapper.map("code", kernel.code) ||
      !mapper.mapOptional("format", format) ||
      !mapper.map("entry", kernel.entry) ||
      !mapper.map("launch", kernel.launch))
    return false;
  std::optional<CodeFormat> parsedFormat = parseCodeFormat(format);
  if (!parsedFormat) {
    path.field("format").report("expected \"ptx\", \"cubin\" or \"cuda\"");
    return false;
  }
  kernel.format = *parsedFormat;
  if (kernel.format == CodeFormat::Cubin) {
    std::vector<char> bytes;
    if (llvm::Error error = llvm::decodeBase64(kernel.code, bytes)) {
      llvm::consumeError(std::move(error));
      path.field("code").report("a cubin's code must be base64");
      return false;
    }
    kernel.code.assign(bytes.begin(), bytes.end());
  }
  if (kernel.entry.empty()) {
    path.field("entry").report("the entry name must not be empty");
    return false;
  }
  const Value *map = value.getAsObject()->get("reference_params");
  if (!map)
    return true;
  const Array *indices = map->getAsArray();
  if (!indices) {
    path.field("reference_params").report("expected an array of indices");
    return false;
  }
  kernel.referenceParams.emplace();
  for (auto [i, entry] : llvm::enumerate(*indices)) {
    std::optional<int64_t> index = entry.getAsInteger();
    if (!index || *index < 0 || *index > UINT32_MAX) {
      path.field("reference_params")
          .index(i)
          .report("expected the index of a reference parameter");
      return false;
    }
    kernel.referenceParams->push_back(static_cast<unsigned>(*index));
  }
  return true;
}

/// Checks a candidate's `reference_params` against both parameter lists:
/// one entry per candidate parameter, each naming a distinct reference
/// parameter of the same kind and element type, and every reference buffer
/// received. Counts, roles and scalar values are the runtime's to compare.
static bool checkReferenceParams(const JobLaunch &reference,
                                 const JobKernel &candidate,
                                 llvm::json::Path path,
                                 llvm::json::Path referencePath) {
  const std::vector<unsigned> &map = *candidate.referenceParams;
  const std::vector<JobParam> &params = candidate.launch.params;
  if (map.size() != params.size()) {
    path.report("expected one entry per candidate parameter");
    return false;
  }
  std::vector<bool> received(reference.params.size(), false);
  for (auto [i, index] : llvm::enumerate(map)) {
    if (index >= reference.params.size()) {
      path.index(i).report("the reference has no such parameter");
      return false;
    }
    if (received[index]) {
      path.index(i).report(
          "an earlier candidate parameter already receives this reference "
          "parameter");
      return false;
    }
    received[index] = true;
    const JobParam &ours = params[i];
    const JobParam &theirs = reference.params[index];
    if (ours.isScalar != theirs.isScalar || ours.dtype != theirs.dtype) {
      path.index(i).report("the candidate parameter and the reference "
                           "parameter differ in kind or element type");
      return false;
    }
  }
  for (auto [index, param] : llvm::enumerate(reference.params))
    if (!received[index] && !param.isScalar) {
      referencePath.index(index).report(
          "no candidate parameter receives this buffer (a candidate can only "
          "leave out scalar parameters)");
      return false;
    }
  return true;
}

bool autoprof::runtime::fromJSON(const Value &value, EvaluationJob &job,
                                 llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  if (!mapper || !mapper.mapOptional("device", job.device) || job.device < 0 ||
      !mapper.map("kernel", job.kernel) ||
      !mapper.mapOptional("candidate", job.candidate))
    return false;
  if (job.kernel.referenceParams) {
    path.field("kernel")
        .field("reference_params")
        .report("only a candidate receives the reference's parameters");
    return false;
  }
  if (job.candidate && job.candidate->referenceParams &&
      !checkReferenceParams(
          job.kernel.launch, *job.candidate,
          path.field("candidate").field("reference_params"),
          path.field("kernel").field("launch").field("params")))
    return false;
  const Object *object = value.getAsObject();
  if (const Value *verify = object->get("verify")) {
    llvm::json::ObjectMapper verifyMapper(*verify, path.field("verify"));
    std::vector<int64_t> seeds;
    std::optional<std::vector<std::string>> distributions;
    if (!verifyMapper || !verifyMapper.mapOptional("seeds", seeds) ||
        !verifyMapper.mapOptional("distributions", distributions) ||
        !verifyMapper.mapOptional("reassociated", job.verifyReassociated))
      return false;
    if (!seeds.empty())
      job.verifySeeds.assign(seeds.begin(), seeds.end());
    if (distributions) {
      job.verifyDistributions.clear();
      for (auto [i, name] : llvm::enumerate(*distributions)) {
        autoprof_distribution distribution;
        if (!distributionFromName(name, distribution)) {
          path.field("verify")
              .field("distributions")
              .index(i)
              .report("expected \"normal\", \"uniform\", \"large\", "
                      "\"small_int\", \"special\", \"skewed\", "
                      "\"near_range\" or \"subnormal\"");
          return false;
        }
        job.verifyDistributions.push_back(distribution);
      }
    }
  }
  job.time = false;
  if (const Value *time = object->get("time")) {
    llvm::json::ObjectMapper timeMapper(*time, path.field("time"));
    int64_t seed = static_cast<int64_t>(job.seed);
    if (!timeMapper || !timeMapper.mapOptional("warmup", job.warmup) ||
        !timeMapper.mapOptional("min_repetitions", job.minRepetitions) ||
        !timeMapper.mapOptional("max_repetitions", job.maxRepetitions) ||
        !timeMapper.mapOptional("time_budget_s", job.timeBudgetSeconds) ||
        !timeMapper.mapOptional("flush_l2", job.flushL2) ||
        !timeMapper.mapOptional("seed", seed))
      return false;
    job.seed = static_cast<uint64_t>(seed);
    job.time = true;
    if (!timeMapper.mapOptional("interleaved_with", job.interleavedWith))
      return false;
    if (job.interleavedWith && job.interleavedWith->referenceParams) {
      path.field("time")
          .field("interleaved_with")
          .field("reference_params")
          .report("only a candidate receives the reference's parameters");
      return false;
    }
    if (job.minRepetitions < 1 || job.maxRepetitions < job.minRepetitions) {
      path.field("time").report("need 1 <= min_repetitions <= max_repetitions");
      return false;
    }
  }
  if (const Value *profile = object->get("profile")) {
    llvm::json::ObjectMapper profileMapper(*profile, path.field("profile"));
    if (!profileMapper || !profileMapper.map("metrics", job.metrics))
      return false;
  }
  if (const Value *compile = object->get("compile")) {
    llvm::json::ObjectMapper compileMapper(*compile, path.field("compile"));
    std::string arch;
    if (!compileMapper || !compileMapper.map("arch", arch) ||
        !compileMapper.mapOptional("options", job.compileOptions))
      return false;
    if (job.kernel.format != CodeFormat::Cuda) {
      path.field("compile").report("only CUDA C++ kernels can be compiled");
      return false;
    }
    for (auto [index, option] : llvm::enumerate(job.compileOptions))
      if (!isAllowedCompileOption(option)) {
        path.field("compile").field("options").index(index).report(
            kCompileOptionRefusal);
        return false;
      }
    job.compileArch = arch;
  }
  return true;
}

bool autoprof::runtime::fromJSON(const Value &value, MetricResult &metric,
                                 llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  return mapper && mapper.map("name", metric.name) &&
         mapper.map("collected", metric.collected) &&
         mapper.mapOptional("value", metric.value) &&
         mapper.mapOptional("note", metric.note);
}

bool autoprof::runtime::fromJSON(const Value &value, EvaluationResult &result,
                                 llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  std::string status;
  if (!mapper || !mapper.map("status", status) ||
      !mapper.mapOptional("reason", result.reason) ||
      !mapper.mapOptional("verified", result.verified))
    return false;
  std::optional<JobStatus> parsed = parseJobStatus(status);
  if (!parsed) {
    path.field("status").report("expected \"ok\", \"rejected\" or \"error\"");
    return false;
  }
  result.status = *parsed;
  const Object *object = value.getAsObject();
  if (const Value *device = object->get("device")) {
    llvm::json::ObjectMapper deviceMapper(*device, path.field("device"));
    if (!deviceMapper || !deviceMapper.map("name", result.gpuName) ||
        !deviceMapper.mapOptional("sm_count", result.smCount) ||
        !deviceMapper.mapOptional("l2_bytes", result.l2Bytes) ||
        !deviceMapper.mapOptional("peak_bandwidth", result.peakBandwidth) ||
        !deviceMapper.mapOptional("driver_version", result.driverVersion))
      return false;
  }
  if (const Value *attributes = object->get("kernel_attributes")) {
    llvm::json::ObjectMapper attributeMapper(*attributes,
                                             path.field("kernel_attributes"));
    if (!attributeMapper ||
        !attributeMapper.mapOptional("registers_per_thread",
                                     result.registersPerThread) ||
        !attributeMapper.mapOptional("static_shared_bytes",
                                     result.staticSharedBytes) ||
        !attributeMapper.mapOptional("local_bytes_per_thread",
                                     result.localBytesPerThread) ||
        !attributeMapper.mapOptional("blocks_per_sm", result.blocksPerSm))
      return false;
  }
  if (const Value *timing = object->get("timing")) {
    TimingStats stats;
    if (!fromJSON(*timing, stats, path.field("timing")))
      return false;
    const Object *fields = timing->getAsObject();
    result.samples = stats.samples;
    result.medianUs = stats.medianUs;
    // Statistics the worker did not give stay unknown.
    auto given = [&](llvm::StringRef key, double value) {
      return fields->get(key) ? std::optional<double>(value) : std::nullopt;
    };
    result.minUs = given("min_us", stats.minUs);
    result.maxUs = given("max_us", stats.maxUs);
    result.madUs = given("mad_us", stats.madUs);
    result.p10Us = given("p10_us", stats.p10Us);
    result.p90Us = given("p90_us", stats.p90Us);
    result.smClockKhzBefore = stats.smClockKhzBefore;
    result.smClockKhzAfter = stats.smClockKhzAfter;
    result.smClockKhzMin = stats.smClockKhzMin;
    result.inputSets = stats.inputSets;
  }
  if (!mapper.mapOptional("interleaved_timing", result.interleavedTiming))
    return false;
  if (const Value *profile = object->get("profile")) {
    llvm::json::ObjectMapper profileMapper(*profile, path.field("profile"));
    if (!profileMapper || !profileMapper.map("metrics", result.metrics) ||
        !profileMapper.mapOptional("replay_passes", result.replayPasses) ||
        !profileMapper.mapOptional("seconds", result.profileSeconds))
      return false;
  }
  return mapper.mapOptional("seconds", result.seconds) &&
         mapper.mapOptional("ptx", result.ptx);
}

/// Reports the first number of `value` that does not fit a double (a
/// literal such as 1e999 parses as infinity, which JSON cannot write back),
/// or returns true when there is none.
static bool checkFiniteNumbers(const Value &value, llvm::json::Path path) {
  if (const llvm::json::Object *object = value.getAsObject()) {
    for (const auto &[key, member] : *object)
      if (!checkFiniteNumbers(member, path.field(key)))
        return false;
    return true;
  }
  if (const llvm::json::Array *array = value.getAsArray()) {
    for (auto [index, element] : llvm::enumerate(*array))
      if (!checkFiniteNumbers(element, path.index(index)))
        return false;
    return true;
  }
  if (value.kind() == Value::Number) {
    std::optional<double> number = value.getAsNumber();
    if (number && !std::isfinite(*number)) {
      path.report("number out of range");
      return false;
    }
  }
  return true;
}

template <typename T>
llvm::Expected<T> autoprof::runtime::parseDocument(llvm::StringRef text,
                                                   llvm::StringRef what) {
  llvm::Expected<Value> value = ::autoprof::parseJson(text);
  if (!value)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "%s is not valid JSON: %s",
        what.str().c_str(), llvm::toString(value.takeError()).c_str());
  T document;
  llvm::json::Path::Root root(what);
  if (!checkFiniteNumbers(*value, root))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::toString(root.getError()));
  if (!fromJSON(*value, document, root)) {
    std::string message;
    llvm::raw_string_ostream os(message);
    os << llvm::toString(root.getError());
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  }
  return document;
}

template llvm::Expected<EvaluationJob>
    autoprof::runtime::parseDocument<EvaluationJob>(llvm::StringRef,
                                                    llvm::StringRef);
template llvm::Expected<EvaluationResult>
    autoprof::runtime::parseDocument<EvaluationResult>(llvm::StringRef,
                                                       llvm::StringRef);
