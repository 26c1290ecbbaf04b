//===- BottleneckFactsTest.cpp - Bottleneck facts from metrics -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Diagnosis/BottleneckFacts.h"
#include "autoprof/Profiling/MetricCatalog.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir::autoprof;

namespace {

/// The state of fact `name` for `metrics`.
FactState stateOf(llvm::StringRef name,
                  const llvm::StringMap<double> &metrics) {
  for (const BottleneckFact &fact : diagnose(metrics))
    if (fact.definition->name == name)
      return fact.state;
  ADD_FAILURE() << "no fact " << name.str();
  return FactState::Unknown;
}

TEST(BottleneckFactsTest, EveryMetricIsInTheSm90Catalog) {
  const MetricCatalog *catalog = MetricCatalog::forChip("sm_90");
  ASSERT_NE(catalog, nullptr);
  std::set<std::string> names;
  for (const FactDefinition &definition : getFactDefinitions()) {
    EXPECT_TRUE(names.insert(definition.name.str()).second)
        << definition.name.str() << " is defined twice";
    EXPECT_FALSE(definition.metrics.empty());
    for (llvm::StringRef metric : definition.metrics)
      EXPECT_NE(catalog->lookupMetric(metric), nullptr)
          << definition.name.str() << " needs " << metric.str()
          << ", which the sm_90 catalog does not have";
  }
  EXPECT_GE(names.size(), 12u);
}

TEST(BottleneckFactsTest, MissingMetricsMakeFactsUnknownNeverFalse) {
  for (const BottleneckFact &fact : diagnose({})) {
    EXPECT_EQ(fact.state, FactState::Unknown) << fact.definition->name.str();
    EXPECT_EQ(llvm::StringRef(fact.evidence).starts_with("not collected: "),
              true);
  }
  // One of three metrics is not enough.
  EXPECT_EQ(stateOf("uncoalesced-loads",
                    {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 64}}),
            FactState::Unknown);
}

TEST(BottleneckFactsTest, Thresholds) {
  const char *dram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
  EXPECT_EQ(stateOf("dram-bound", {{dram, 60}}), FactState::True);
  EXPECT_EQ(stateOf("dram-bound", {{dram, 59.9}}), FactState::False);
  const char *sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
  const char *requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
  const char *bytes = "smsp__sass_data_bytes_mem_global_op_ld.sum";
  // 100 warp requests of 4-byte lanes ask for 12800 bytes (400 sectors'
  // worth): 800 sectors use half of each, 3200 an eighth.
  EXPECT_EQ(stateOf("uncoalesced-loads",
                    {{sectors, 800}, {requests, 100}, {bytes, 12800}}),
            FactState::False);
  EXPECT_EQ(stateOf("uncoalesced-loads",
                    {{sectors, 3200}, {requests, 100}, {bytes, 12800}}),
            FactState::True);
  // 128-bit lanes: 16 sectors per request is every byte used, 32 half.
  EXPECT_EQ(stateOf("uncoalesced-loads",
                    {{sectors, 1600}, {requests, 100}, {bytes, 51200}}),
            FactState::False);
  EXPECT_EQ(stateOf("uncoalesced-loads",
                    {{sectors, 3200}, {requests, 100}, {bytes, 51200}}),
            FactState::False);
  // 2-byte lanes hitting a sector each: 32 sectors for 2 sectors' worth.
  EXPECT_EQ(stateOf("uncoalesced-loads",
                    {{sectors, 3200}, {requests, 100}, {bytes, 6400}}),
            FactState::True);
  EXPECT_EQ(stateOf("uncoalesced-loads",
                    {{sectors, 0}, {requests, 0}, {bytes, 0}}),
            FactState::False);
  // The sectors and requests alone do not tell how wide the lanes are.
  EXPECT_EQ(stateOf("uncoalesced-loads", {{sectors, 3200}, {requests, 100}}),
            FactState::Unknown);
  EXPECT_EQ(stateOf("uncoalesced-stores",
                    {{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 1600},
                     {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 100},
                     {"smsp__sass_data_bytes_mem_global_op_st.sum", 12800}}),
            FactState::True);
  const char *waves = "launch__waves_per_multiprocessor";
  EXPECT_EQ(stateOf("too-few-waves", {{waves, 0.5}}), FactState::True);
  EXPECT_EQ(stateOf("tail-effect", {{waves, 1.25}}), FactState::True);
  EXPECT_EQ(stateOf("tail-effect", {{waves, 2.75}}), FactState::False);
  EXPECT_EQ(stateOf("tail-effect", {{waves, 12.25}}), FactState::False);
  EXPECT_EQ(stateOf("compute-bound",
                    {{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 75},
                     {dram, 70}}),
            FactState::False);
  // Atomic updates that queue at one L2 slice: its atomic unit busy half
  // of the elapsed cycles or more.
  const char *atomicUnit =
      "lts__d_atomic_input_cycles_active.max.pct_of_peak_sustained_elapsed";
  EXPECT_EQ(stateOf("atomic-contention", {{atomicUnit, 50}}), FactState::True);
  EXPECT_EQ(stateOf("atomic-contention", {{atomicUnit, 12.5}}),
            FactState::False);
  EXPECT_EQ(stateOf("atomic-contention", {{dram, 70}}), FactState::Unknown);
}

} // namespace
