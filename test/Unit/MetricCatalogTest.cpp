//===- MetricCatalogTest.cpp - Tests for the metric catalog ---------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/MetricCatalog.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir::autoprof;
using llvm::StringRef;

namespace {

const MetricCatalog &sm90() {
  const MetricCatalog *catalog = MetricCatalog::forChip("sm_90");
  EXPECT_NE(catalog, nullptr);
  return *catalog;
}

bool isDriverName(StringRef name) {
  return name.starts_with("launch__") || name.starts_with("device__attribute_");
}

TEST(MetricCatalogTest, ChipSelection) {
  EXPECT_EQ(MetricCatalog::forChip("sm_80"), nullptr);
  EXPECT_EQ(MetricCatalog::forChip("sm_100"), nullptr);
  EXPECT_EQ(MetricCatalog::forChip("sm_9"), nullptr);
  EXPECT_EQ(MetricCatalog::forChip("sm_90b"), nullptr);
  EXPECT_EQ(MetricCatalog::forChip("SM_90"), nullptr);
  EXPECT_EQ(MetricCatalog::forChip(""), nullptr);

  const MetricCatalog *sm90 = MetricCatalog::forChip("sm_90");
  const MetricCatalog *sm90a = MetricCatalog::forChip("sm_90a");
  ASSERT_NE(sm90, nullptr);
  ASSERT_NE(sm90a, nullptr);
  EXPECT_EQ(sm90, sm90a);
  // The catalog is a stable singleton.
  EXPECT_EQ(sm90, MetricCatalog::forChip("sm_90"));
}

TEST(MetricCatalogTest, SupportedChipsHaveCatalogs) {
  llvm::ArrayRef<StringRef> chips = MetricCatalog::supportedChips();
  EXPECT_TRUE(llvm::is_contained(chips, "sm_90"));
  EXPECT_TRUE(llvm::is_contained(chips, "sm_90a"));
  for (StringRef chip : chips)
    EXPECT_NE(MetricCatalog::forChip(chip), nullptr) << chip.str();
}

TEST(MetricCatalogTest, GroupsInDocumentedOrder) {
  const std::vector<StringRef> expected = {"SpeedOfLight",
                                           "MemoryWorkloadAnalysis",
                                           "Occupancy",
                                           "LaunchStats",
                                           "SchedulerStats",
                                           "WarpStateStats",
                                           "ComputeWorkloadAnalysis",
                                           "InstructionStats"};
  llvm::ArrayRef<MetricGroupInfo> groups = sm90().groups();
  ASSERT_EQ(groups.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(groups[i].name, expected[i]);
    EXPECT_EQ(sm90().lookupGroup(expected[i]), &groups[i]);
  }
}

TEST(MetricCatalogTest, GroupsAreWellFormed) {
  for (const MetricGroupInfo &group : sm90().groups()) {
    SCOPED_TRACE(group.name.str());
    EXPECT_FALSE(group.description.empty());
    EXPECT_GE(group.metricNames.size(), 6u);
    EXPECT_LE(group.metricNames.size(), 20u);
    llvm::StringSet<> members;
    for (StringRef name : group.metricNames) {
      EXPECT_NE(sm90().lookupMetric(name), nullptr) << name.str();
      EXPECT_TRUE(members.insert(name).second) << "duplicate " << name.str();
    }
  }
}

TEST(MetricCatalogTest, MetricsAreUniqueAndDescribed) {
  llvm::ArrayRef<MetricInfo> metrics = sm90().metrics();
  EXPECT_GE(metrics.size(), 60u);
  llvm::StringSet<> names;
  for (const MetricInfo &metric : metrics) {
    SCOPED_TRACE(metric.name.str());
    EXPECT_TRUE(names.insert(metric.name).second) << "duplicate metric";
    EXPECT_FALSE(metric.unit.empty());
    EXPECT_FALSE(metric.meaning.empty());
    // CUPTI and driver metric names are `unit__counter...`, never blank-padded.
    EXPECT_NE(metric.name.find("__"), StringRef::npos);
    EXPECT_EQ(metric.name.trim(), metric.name);
    EXPECT_EQ(metric.name.find(' '), StringRef::npos);
    EXPECT_EQ(sm90().lookupMetric(metric.name), &metric);
  }
}

TEST(MetricCatalogTest, EveryMetricBelongsToAGroup) {
  llvm::StringSet<> grouped;
  for (const MetricGroupInfo &group : sm90().groups())
    for (StringRef name : group.metricNames)
      grouped.insert(name);
  for (const MetricInfo &metric : sm90().metrics())
    EXPECT_TRUE(grouped.contains(metric.name)) << metric.name.str();
}

TEST(MetricCatalogTest, SourcesFollowNamePrefix) {
  unsigned driver = 0, cupti = 0;
  for (const MetricInfo &metric : sm90().metrics()) {
    if (isDriverName(metric.name)) {
      ++driver;
      EXPECT_EQ(metric.source, MetricSource::Driver) << metric.name.str();
    } else {
      ++cupti;
      EXPECT_EQ(metric.source, MetricSource::Cupti) << metric.name.str();
    }
  }
  EXPECT_GT(driver, 0u);
  EXPECT_GT(cupti, 0u);
  // Launch statistics are all driver-derived.
  for (StringRef name : sm90().lookupGroup("LaunchStats")->metricNames)
    EXPECT_EQ(sm90().lookupMetric(name)->source, MetricSource::Driver);
}

TEST(MetricCatalogTest, NoPcSamplingMetrics) {
  // PC sampling metrics are not Range Profiler metrics; CUPTI rejects them.
  for (const MetricInfo &metric : sm90().metrics())
    EXPECT_FALSE(metric.name.contains("pcsamp")) << metric.name.str();
}

TEST(MetricCatalogTest, KeyMetricsPresent) {
  for (StringRef name :
       {"gpu__time_duration.sum",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "dram__bytes_read.sum", "lts__t_sector_hit_rate.pct",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        "launch__registers_per_thread",
        "smsp__issue_active.avg.pct_of_peak_sustained_active",
        "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
        "ratio",
        "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum"})
    EXPECT_NE(sm90().lookupMetric(name), nullptr) << name.str();
  const MetricInfo *duration = sm90().lookupMetric("gpu__time_duration.sum");
  ASSERT_NE(duration, nullptr);
  EXPECT_EQ(duration->unit, "ns");
  EXPECT_EQ(duration->source, MetricSource::Cupti);
}

TEST(MetricCatalogTest, LookupsAreExactAndSeparate) {
  EXPECT_EQ(sm90().lookupGroup("speedoflight"), nullptr);
  EXPECT_EQ(sm90().lookupGroup("SpeedOfLight "), nullptr);
  EXPECT_EQ(sm90().lookupGroup("gpu__time_duration.sum"), nullptr);
  EXPECT_EQ(sm90().lookupMetric("SpeedOfLight"), nullptr);
  EXPECT_EQ(sm90().lookupMetric("gpu__time_duration"), nullptr);
  EXPECT_EQ(sm90().lookupMetric(""), nullptr);
  EXPECT_EQ(sm90().lookupGroup(""), nullptr);
}

TEST(MetricCatalogTest, ExpandGroupKeepsMemberOrder) {
  const MetricGroupInfo *group = sm90().lookupGroup("SchedulerStats");
  ASSERT_NE(group, nullptr);
  std::vector<StringRef> expanded = sm90().expand({"SchedulerStats"}, {});
  EXPECT_EQ(expanded, std::vector<StringRef>(group->metricNames.begin(),
                                             group->metricNames.end()));
}

TEST(MetricCatalogTest, ExpandDeduplicatesInFirstSeenOrder) {
  const MetricGroupInfo *sol = sm90().lookupGroup("SpeedOfLight");
  const MetricGroupInfo *mwa = sm90().lookupGroup("MemoryWorkloadAnalysis");
  ASSERT_NE(sol, nullptr);
  ASSERT_NE(mwa, nullptr);

  std::vector<StringRef> expected;
  llvm::StringSet<> seen;
  auto add = [&](StringRef name) {
    if (seen.insert(name).second)
      expected.push_back(name);
  };
  for (StringRef name : sol->metricNames)
    add(name);
  for (StringRef name : mwa->metricNames)
    add(name);
  add("launch__grid_size");
  // The two groups share metrics, so the union is smaller than the sum.
  ASSERT_LT(expected.size(),
            sol->metricNames.size() + mwa->metricNames.size() + 1);

  std::vector<StringRef> expanded =
      sm90().expand({"SpeedOfLight", "MemoryWorkloadAnalysis", "SpeedOfLight"},
                    {"gpu__time_duration.sum", "launch__grid_size",
                     "dram__bytes_read.sum", "launch__grid_size"});
  EXPECT_EQ(expanded, expected);
}

TEST(MetricCatalogTest, ExpandPutsGroupsBeforeMetrics) {
  std::vector<StringRef> expanded =
      sm90().expand({"SchedulerStats"}, {"gpu__time_duration.sum"});
  const MetricGroupInfo *group = sm90().lookupGroup("SchedulerStats");
  ASSERT_EQ(expanded.size(), group->metricNames.size() + 1);
  EXPECT_EQ(expanded.front(), group->metricNames.front());
  EXPECT_EQ(expanded.back(), "gpu__time_duration.sum");

  // Individual metrics keep their own order.
  expanded = sm90().expand(
      {}, {"launch__grid_size", "gpu__time_duration.sum", "launch__grid_size"});
  EXPECT_EQ(expanded, (std::vector<StringRef>{"launch__grid_size",
                                              "gpu__time_duration.sum"}));
}

TEST(MetricCatalogTest, ExpandSkipsUnknownNames) {
  std::vector<StringRef> expanded = sm90().expand(
      {"NoSuchSection", "gpu__time_duration.sum"},
      {"no__such_metric.sum", "SpeedOfLight", "gpu__time_duration.sum", ""});
  // A metric name in the group list and a group name in the metric list are
  // both unknown in that position.
  EXPECT_EQ(expanded, std::vector<StringRef>{"gpu__time_duration.sum"});
  EXPECT_TRUE(sm90().expand({"NoSuchSection"}, {"bogus"}).empty());
  EXPECT_TRUE(sm90().expand({}, {}).empty());
}

TEST(MetricCatalogTest, ExpandResultOutlivesArguments) {
  std::vector<StringRef> expanded;
  {
    std::string group = "LaunchStats";
    std::string metric = "gpu__time_duration.sum";
    expanded = sm90().expand({StringRef(group)}, {StringRef(metric)});
    group.assign(group.size(), 'x');
    metric.assign(metric.size(), 'x');
  }
  ASSERT_FALSE(expanded.empty());
  EXPECT_EQ(expanded.back(), "gpu__time_duration.sum");
  for (StringRef name : expanded)
    EXPECT_NE(sm90().lookupMetric(name), nullptr) << name.str();
}

TEST(MetricCatalogTest, SuggestCloseNames) {
  EXPECT_EQ(sm90().suggest("SpeedOfLite"), "SpeedOfLight");
  EXPECT_EQ(sm90().suggest("speedoflight"), "SpeedOfLight");
  EXPECT_EQ(sm90().suggest("Ocupancy"), "Occupancy");
  EXPECT_EQ(sm90().suggest("WarpStateStatistics"), "WarpStateStats");
  EXPECT_EQ(sm90().suggest("gpu__time_duration.avg"), "gpu__time_duration.sum");
  EXPECT_EQ(sm90().suggest("launch__registers_per_thred"),
            "launch__registers_per_thread");
}

TEST(MetricCatalogTest, SuggestNothingForGarbage) {
  EXPECT_EQ(sm90().suggest("qwertyuiopzxcvbnm"), "");
  EXPECT_EQ(sm90().suggest("xyz"), "");
  EXPECT_EQ(sm90().suggest(""), "");
  EXPECT_EQ(sm90().suggest("completely_unrelated_metric_name.sum"), "");
}

} // namespace
