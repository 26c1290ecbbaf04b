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
// machine with the CUDA toolkit. Asks through the runtime's
// autoprof_metrics_host_passes, which loads CUPTI as collections do.
//
// Prints one line per metric CUPTI does not know ("unknown NAME"), one line
// per group ("group NAME: N metrics, P passes"), what a name CUPTI does not
// know gives, and a final "N known, N unknown" line.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/MetricCatalog.h"
#include "autoprof/Runtime/Runtime.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace mlir::autoprof;

int main() {
  const char *chip = "GH100";
  const MetricCatalog *catalog = MetricCatalog::forChip("sm_90");
  size_t passes = 0;
  if (autoprof_metrics_host_passes(chip, nullptr, 0, &passes) != AUTOPROF_OK) {
    std::printf("error: %s\n", autoprof_last_error(nullptr));
    return 1;
  }
  auto fromCupti = [&](llvm::StringRef name) {
    const MetricInfo *info = catalog->lookupMetric(name);
    return info && info->source == MetricSource::Cupti;
  };
  size_t known = 0, unknown = 0;
  for (const MetricInfo &metric : catalog->metrics()) {
    if (metric.source != MetricSource::Cupti)
      continue;
    std::string name = metric.name.str();
    const char *names[] = {name.c_str()};
    if (autoprof_metrics_host_passes(chip, names, 1, &passes) == AUTOPROF_OK) {
      ++known;
      continue;
    }
    ++unknown;
    std::printf("unknown %s: %s\n", name.c_str(), autoprof_last_error(nullptr));
  }
  for (const MetricGroupInfo &group : catalog->groups()) {
    std::vector<std::string> storage;
    for (llvm::StringRef name : group.metricNames)
      if (fromCupti(name))
        storage.push_back(name.str());
    std::vector<const char *> names;
    for (const std::string &name : storage)
      names.push_back(name.c_str());
    passes = 0;
    if (!names.empty() &&
        autoprof_metrics_host_passes(chip, names.data(), names.size(),
                                     &passes) != AUTOPROF_OK)
      passes = 0;
    std::printf("group %s: %zu metrics, %zu passes\n", group.name.str().c_str(),
                names.size(), passes);
  }
  // A name the host does not take is a bad argument, said with the name.
  const char *bogus[] = {"not_a_metric__x.sum"};
  autoprof_status status =
      autoprof_metrics_host_passes(chip, bogus, 1, &passes);
  std::printf("a name CUPTI does not know: %s: %s\n",
              status == AUTOPROF_ERROR_INVALID_ARGUMENT ? "invalid argument"
                                                        : "another status",
              autoprof_last_error(nullptr));
  std::printf("%zu known, %zu unknown\n", known, unknown);
  return unknown ? 1 : 0;
}
