//===- SearchReport.cpp - What a kernel search found ----------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/SearchReport.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;
using llvm::json::Array;
using llvm::json::Object;

MeasuredTiming MeasuredTiming::of(const rt::EvaluationResult &result) {
  MeasuredTiming timing;
  timing.medianUs = result.medianUs.value_or(0);
  timing.madUs = result.madUs.value_or(0);
  timing.p10Us = result.p10Us.value_or(0);
  timing.p90Us = result.p90Us.value_or(0);
  timing.samples = result.samples;
  return timing;
}

static llvm::json::Value toJSON(const MeasuredTiming &timing) {
  return Object{{"median_us", timing.medianUs},
                {"mad_us", timing.madUs},
                {"p10_us", timing.p10Us},
                {"p90_us", timing.p90Us},
                {"samples", timing.samples}};
}

static Array toJSON(ArrayRef<rt::MetricResult> metrics) {
  Array array;
  for (const rt::MetricResult &metric : metrics)
    array.push_back(rt::toJSON(metric));
  return array;
}

static llvm::json::Value toJSON(const EvaluationSeconds &seconds) {
  llvm::json::Value job = rt::toJSON(seconds.job);
  Object object = std::move(*job.getAsObject());
  object["lower"] = seconds.lower;
  object["worker"] = seconds.worker;
  if (seconds.retime > 0)
    object["retime"] = seconds.retime;
  return object;
}

static llvm::json::Value toJSON(const CandidateRecord &record) {
  Object entry = record.details;
  entry["rewrite"] = record.label;
  entry["source"] = record.source;
  entry["status"] = getCandidateStatusName(record.status);
  if (!record.reason.empty())
    entry["reason"] = record.reason;
  if (record.timing) {
    entry["timing"] = toJSON(*record.timing);
    entry["accepted"] = record.accepted;
  }
  if (record.metrics) {
    entry["metrics"] = toJSON(*record.metrics);
    entry["replay_passes"] = record.replayPasses;
    entry["profile_seconds"] = record.profileSeconds;
  }
  if (record.retimed)
    entry["retimed"] =
        Object{{"candidate", toJSON(record.retimed->candidate)},
               {"incumbent", toJSON(record.retimed->incumbent)},
               {"sm_clock_khz_before", record.retimed->smClockKhzBefore},
               {"sm_clock_khz_min", record.retimed->smClockKhzMin},
               {"runs", record.retimed->runs},
               {"clock_dropped", record.retimed->clockDropped},
               {"confirmed", record.retimed->confirmed}};
  if (!record.retimeError.empty())
    entry["retime_error"] = record.retimeError;
  if (!record.sanitizer.empty())
    entry["sanitizer"] = record.sanitizer;
  if (!record.reprofileError.empty())
    entry["reprofile_error"] = record.reprofileError;
  if (record.seconds)
    entry["seconds"] = toJSON(*record.seconds);
  return entry;
}

double KernelSearchResult::getSpeedup() const {
  return bestMedianUs > 0 ? baseline.medianUs / bestMedianUs : 0;
}

unsigned KernelSearchResult::countVerified() const {
  return llvm::count_if(candidates, [](const CandidateRecord &record) {
    return record.status == CandidateStatus::Verified;
  });
}

unsigned KernelSearchResult::countRejected() const {
  return llvm::count_if(candidates, [](const CandidateRecord &record) {
    return record.status == CandidateStatus::Rejected;
  });
}

unsigned KernelSearchResult::countNotRun() const {
  return llvm::count_if(candidates, [](const CandidateRecord &record) {
    return record.status == CandidateStatus::Error;
  });
}

llvm::json::Value mlir::autoprof::toJSON(const KernelSearchResult &result) {
  Array candidates;
  for (const CandidateRecord &record : result.candidates)
    candidates.push_back(::toJSON(record));
  Array accepted;
  for (const std::string &label : result.accepted)
    accepted.push_back(label);
  Object object{
      {"kernel", result.kernel},
      {"gpu", result.gpuName},
      {"peak_dram_bytes_per_s", result.peakBandwidth},
      {"global_bytes_total", result.globalBytesTotal},
      {"compulsory_bytes", result.compulsoryBytes},
      {"flops_total", result.flopsTotal},
      {"baseline",
       Object{{"timing", ::toJSON(result.baseline)},
              {"metrics", ::toJSON(result.baselineMetrics)},
              {"replay_passes", result.baselineReplayPasses},
              {"profile_seconds", result.baselineProfileSeconds},
              {"seconds", ::toJSON(result.baselineSeconds)},
              {"profile_leaf", result.profileLeaf},
              {"profile_tree", result.profileTree},
              {"launches", static_cast<int64_t>(result.baselineLaunches)}}},
      {"candidates", std::move(candidates)},
      {"accepted", std::move(accepted)},
      {"best_median_us", result.bestMedianUs},
      {"speedup", result.getSpeedup()}};
  Object features;
  for (const auto &[name, value] : result.features)
    features[name] = value;
  object["features"] = std::move(features);
  Array elementTypes;
  for (const std::string &type : result.elementTypes)
    elementTypes.push_back(type);
  object["element_types"] = std::move(elementTypes);
  if (!result.failure.empty())
    object["failed"] = result.failure;
  if (!result.sanitizer.empty())
    object["sanitizer"] = result.sanitizer;
  auto math = [](const MathFormats &formats) {
    return Object{{"product_operands", formats.productOperands},
                  {"products", formats.products},
                  {"accumulations", formats.accumulations}};
  };
  Object precision{{"policy", result.precisionPolicy}};
  if (result.originalMath)
    precision["original"] = math(*result.originalMath);
  if (result.resultMath)
    precision["result"] = math(*result.resultMath);
  object["precision"] = std::move(precision);
  return object;
}

LogicalResult
mlir::autoprof::writeSearchReport(StringRef path,
                                  ArrayRef<KernelSearchResult> results,
                                  ArrayRef<FailedKernel> failed, Location loc) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(loc, "cannot write the report '")
           << path << "': " << ec.message();
  Array kernels;
  for (const KernelSearchResult &result : results)
    kernels.push_back(toJSON(result));
  Array failures;
  for (const FailedKernel &failure : failed)
    failures.push_back(
        Object{{"kernel", failure.kernel}, {"reason", failure.reason}});
  os << llvm::formatv("{0:2}", llvm::json::Value(Object{
                                   {"kernels", std::move(kernels)},
                                   {"failed_kernels", std::move(failures)}}))
     << "\n";
  return success();
}
