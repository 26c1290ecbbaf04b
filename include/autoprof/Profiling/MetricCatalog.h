//===- MetricCatalog.h - Profiling metrics known to AutoProf ----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The catalog of hardware metrics AutoProf can collect, grouped the way
// Nsight Compute names its report sections. Profiling trees name groups and
// metrics from this catalog; the verifier rejects anything else, and the
// runtime profiler uses it to decide which metrics go to CUPTI's Range
// Profiler and which are computed from driver queries instead.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_METRICCATALOG_H
#define AUTOPROF_PROFILING_METRICCATALOG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::autoprof {

/// Where the value of a metric comes from at profiling time.
enum class MetricSource {
  /// Collected by CUPTI's Range Profiler (costs replay passes).
  Cupti,
  /// Computed from CUDA driver queries (cuFuncGetAttribute, occupancy API,
  /// device attributes); free of replay passes.
  Driver,
};

/// One metric: its CUPTI (or driver-derived) name, the unit of its value and
/// a one-line meaning suitable for prompts and reports.
struct MetricInfo {
  /// The CUPTI metric name, e.g. "dram__bytes_read.sum".
  llvm::StringRef name;
  /// The unit of its value, e.g. "bytes" or "%".
  llvm::StringRef unit;
  /// What it measures and what a high or low value suggests.
  llvm::StringRef meaning;
  /// CUPTI or the driver.
  MetricSource source;
};

/// A named group of metrics mirroring an Nsight Compute section.
struct MetricGroupInfo {
  /// The Nsight Compute section name, e.g. "SpeedOfLight".
  llvm::StringRef name;
  /// One line on what the group answers.
  llvm::StringRef description;
  /// Names of the member metrics; each one is in the catalog's metric table.
  llvm::ArrayRef<llvm::StringRef> metricNames;
};

/// The metrics and groups available on one GPU architecture.
class MetricCatalog {
public:
  /// Returns the catalog for a chip such as "sm_90" or "sm_90a", or null when
  /// AutoProf has no catalog for it.
  static const MetricCatalog *forChip(llvm::StringRef chip);

  /// The chips that have a catalog, for diagnostics.
  static llvm::ArrayRef<llvm::StringRef> supportedChips();

  /// All groups, in a stable order.
  llvm::ArrayRef<MetricGroupInfo> groups() const { return groupTable; }
  /// All metrics, in a stable order; names are unique.
  llvm::ArrayRef<MetricInfo> metrics() const { return metricTable; }

  /// Looks up a group by its exact name; null when unknown.
  const MetricGroupInfo *lookupGroup(llvm::StringRef name) const;
  /// Looks up a metric by its exact name; null when unknown.
  const MetricInfo *lookupMetric(llvm::StringRef name) const;

  /// Expands groups and individual metric names into one de-duplicated list
  /// of metric names, in first-seen order. Unknown names are skipped; callers
  /// validate them first.
  std::vector<llvm::StringRef>
  expand(llvm::ArrayRef<llvm::StringRef> groupNames,
         llvm::ArrayRef<llvm::StringRef> metricNames) const;

  /// Returns the known name closest to `name` (group or metric) by edit
  /// distance, for "did you mean" hints; empty when nothing is close.
  std::string suggest(llvm::StringRef name) const;

  MetricCatalog(llvm::ArrayRef<MetricGroupInfo> groupTable,
                llvm::ArrayRef<MetricInfo> metricTable)
      : groupTable(groupTable), metricTable(metricTable) {}

private:
  llvm::ArrayRef<MetricGroupInfo> groupTable;
  llvm::ArrayRef<MetricInfo> metricTable;
};

} // namespace mlir::autoprof

#endif // AUTOPROF_PROFILING_METRICCATALOG_H
