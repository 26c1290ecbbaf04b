//===- metric-names.cpp - The sm_90 catalog against CUPTI, without a GPU --===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Checks every metric of the sm_90 catalog that CUPTI collects against the
// metrics CUPTI's Profiler Host API knows for GH100 (the H100 and H200
// chip), one name at a time, as a collection configures them; then prints the
// replay passes each group of the catalog takes. The host API needs no GPU
// and no driver, so a catalog name CUPTI does not know is found on any
// machine with the CUDA toolkit.
//
// Prints one line per metric CUPTI does not know ("unknown NAME"), one line
// per group ("group NAME: N metrics, P passes"), and a final
// "N known, N unknown" line.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/MetricCatalog.h"

#include <cupti_profiler_host.h>
#include <cupti_result.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace mlir::autoprof;

namespace {

/// A host object of the range profiler for one chip, deinitialized on
/// destruction.
class Host {
public:
  explicit Host(const char *chip) {
    CUpti_Profiler_Host_Initialize_Params params = {
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    params.pChipName = chip;
    result = cuptiProfilerHostInitialize(&params);
    if (result == CUPTI_SUCCESS)
      object = params.pHostObject;
  }
  ~Host() {
    if (!object)
      return;
    CUpti_Profiler_Host_Deinitialize_Params params = {
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    params.pHostObject = object;
    cuptiProfilerHostDeinitialize(&params);
  }
  Host(const Host &) = delete;
  Host &operator=(const Host &) = delete;

  CUptiResult getResult() const { return result; }

  CUptiResult add(std::vector<const char *> &names) {
    CUpti_Profiler_Host_ConfigAddMetrics_Params params = {
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    params.pHostObject = object;
    params.ppMetricNames = names.data();
    params.numMetrics = names.size();
    return cuptiProfilerHostConfigAddMetrics(&params);
  }

  /// The replay passes of the metrics added so far, or 0 on an error.
  size_t passes() {
    CUpti_Profiler_Host_GetConfigImageSize_Params size = {
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = object;
    if (cuptiProfilerHostGetConfigImageSize(&size) != CUPTI_SUCCESS)
      return 0;
    std::vector<uint8_t> image(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params config = {
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    config.pHostObject = object;
    config.pConfigImage = image.data();
    config.configImageSize = image.size();
    if (cuptiProfilerHostGetConfigImage(&config) != CUPTI_SUCCESS)
      return 0;
    CUpti_Profiler_Host_GetNumOfPasses_Params passes = {
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.pConfigImage = image.data();
    passes.configImageSize = image.size();
    if (cuptiProfilerHostGetNumOfPasses(&passes) != CUPTI_SUCCESS)
      return 0;
    return passes.numOfPasses;
  }

private:
  CUpti_Profiler_Host_Object *object = nullptr;
  CUptiResult result = CUPTI_SUCCESS;
};

const char *describe(CUptiResult result) {
  const char *text = nullptr;
  cuptiGetResultString(result, &text);
  return text ? text : "unknown CUPTI error";
}

} // namespace

int main() {
  const char *chip = "GH100";
  const MetricCatalog *catalog = MetricCatalog::forChip("sm_90");
  {
    Host probe(chip);
    if (probe.getResult() != CUPTI_SUCCESS) {
      std::printf("error: CUPTI's profiler host does not initialize for %s: "
                  "%s\n",
                  chip, describe(probe.getResult()));
      return 1;
    }
  }
  auto fromCupti = [&](llvm::StringRef name) {
    const MetricInfo *info = catalog->lookupMetric(name);
    return info && info->source == MetricSource::Cupti;
  };
  size_t known = 0, unknown = 0;
  for (const MetricInfo &metric : catalog->metrics()) {
    if (metric.source != MetricSource::Cupti)
      continue;
    Host host(chip);
    std::string name = metric.name.str();
    std::vector<const char *> names = {name.c_str()};
    CUptiResult result = host.add(names);
    if (result == CUPTI_SUCCESS) {
      ++known;
      continue;
    }
    ++unknown;
    std::printf("unknown %s: %s\n", name.c_str(), describe(result));
  }
  for (const MetricGroupInfo &group : catalog->groups()) {
    std::vector<std::string> storage;
    for (llvm::StringRef name : group.metricNames)
      if (fromCupti(name))
        storage.push_back(name.str());
    std::vector<const char *> names;
    for (const std::string &name : storage)
      names.push_back(name.c_str());
    Host host(chip);
    size_t passes = 0;
    if (!names.empty() && host.add(names) == CUPTI_SUCCESS)
      passes = host.passes();
    std::printf("group %s: %zu metrics, %zu passes\n", group.name.str().c_str(),
                names.size(), passes);
  }
  std::printf("%zu known, %zu unknown\n", known, unknown);
  return unknown ? 1 : 0;
}
