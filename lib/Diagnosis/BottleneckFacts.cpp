//===- BottleneckFacts.cpp - Bottleneck facts from collected metrics ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Diagnosis/BottleneckFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>
#include <optional>

using namespace mlir::autoprof;

llvm::StringRef mlir::autoprof::getFactStateName(FactState state) {
  switch (state) {
  case FactState::True:
    return "true";
  case FactState::False:
    return "false";
  case FactState::Unknown:
    return "unknown";
  }
  return "unknown";
}

namespace {
// Metric names, once.
constexpr llvm::StringLiteral kDram =
    "dram__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr llvm::StringLiteral kL2 =
    "lts__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr llvm::StringLiteral kL1 =
    "l1tex__throughput.avg.pct_of_peak_sustained_active";
constexpr llvm::StringLiteral kSm =
    "sm__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr llvm::StringLiteral kLoadSectors =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr llvm::StringLiteral kLoadRequests =
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr llvm::StringLiteral kLoadBytes =
    "smsp__sass_data_bytes_mem_global_op_ld.sum";
constexpr llvm::StringLiteral kStoreSectors =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr llvm::StringLiteral kStoreRequests =
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr llvm::StringLiteral kStoreBytes =
    "smsp__sass_data_bytes_mem_global_op_st.sum";
constexpr llvm::StringLiteral kBankLoad =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr llvm::StringLiteral kBankStore =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
constexpr llvm::StringLiteral kSharedLoads =
    "smsp__sass_inst_executed_op_shared_ld.sum";
constexpr llvm::StringLiteral kSharedStores =
    "smsp__sass_inst_executed_op_shared_st.sum";
constexpr llvm::StringLiteral kOccupancy =
    "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr llvm::StringLiteral kLocalLoads =
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum";
constexpr llvm::StringLiteral kThreadsPerInst =
    "smsp__thread_inst_executed_per_inst_executed.ratio";
constexpr llvm::StringLiteral kWaves = "launch__waves_per_multiprocessor";
constexpr llvm::StringLiteral kLongScoreboard =
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio";
constexpr llvm::StringLiteral kIssueActive =
    "smsp__issue_active.avg.pct_of_peak_sustained_active";
constexpr llvm::StringLiteral kXu =
    "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active";
constexpr llvm::StringLiteral kAtomicUnit =
    "lts__d_atomic_input_cycles_active.max.pct_of_peak_sustained_elapsed";
constexpr llvm::StringLiteral kBarrier =
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio";

/// A fact's test over its metrics' values (in the definition's order):
/// whether it holds, and the evidence.
using FactTest =
    std::function<std::pair<bool, std::string>(llvm::ArrayRef<double> values)>;

struct Fact {
  FactDefinition definition;
  FactTest test;
};

std::string atLeast(llvm::StringRef metric, double value, double threshold) {
  return llvm::formatv("{0} = {1:F2} {2} {3}", metric, value,
                       value >= threshold ? ">=" : "<", threshold);
}

std::string below(llvm::StringRef metric, double value, double threshold) {
  return llvm::formatv("{0} = {1:F2} {2} {3}", metric, value,
                       value < threshold ? "<" : ">=", threshold);
}

/// More than twice the sectors the requested bytes fill: less than half of
/// each 32-byte sector a warp's accesses fetch is used. Values: sectors,
/// requests, bytes requested. A warp's contiguous 4-byte accesses request
/// 128 bytes and fetch 4 sectors, its contiguous 128-bit accesses 512 bytes
/// and 16 sectors: both use every byte; 4-byte accesses that each hit their
/// own sector fetch 32 sectors for 4 sectors' worth of bytes.
std::pair<bool, std::string> scattered(llvm::ArrayRef<double> values) {
  double sectors = values[0], requests = values[1], bytes = values[2];
  if (requests <= 0 || bytes <= 0)
    return {false, "no requests"};
  double needed = bytes / 32;
  double excess = sectors / needed;
  return {excess > 2,
          llvm::formatv("{0:F2} sectors per request where the {1:F0} bytes "
                        "requested fill {2:F2}: {3:F2}x {4} 2",
                        sectors / requests, bytes / requests,
                        needed / requests, excess, excess > 2 ? ">" : "<=")};
}

const std::vector<Fact> &getFacts() {
  static const std::vector<Fact> facts = {
      {{"dram-bound",
        "DRAM bandwidth is near its peak",
        {kDram},
        "dram throughput >= 60% of peak"},
       [](auto v) {
         return std::make_pair(v[0] >= 60, atLeast(kDram, v[0], 60));
       }},
      {{"l2-bound",
        "L2 bandwidth is near its peak",
        {kL2},
        "L2 throughput >= 60% of peak"},
       [](auto v) {
         return std::make_pair(v[0] >= 60, atLeast(kL2, v[0], 60));
       }},
      {{"l1-bound",
        "L1/texture bandwidth is near its peak",
        {kL1},
        "L1 throughput >= 60% of peak"},
       [](auto v) {
         return std::make_pair(v[0] >= 60, atLeast(kL1, v[0], 60));
       }},
      {{"compute-bound",
        "the SMs are busy while DRAM is not",
        {kSm, kDram},
        "SM throughput >= 60% and DRAM throughput < 60%"},
       [](auto v) {
         return std::make_pair(v[0] >= 60 && v[1] < 60,
                               atLeast(kSm, v[0], 60) + ", " +
                                   below(kDram, v[1], 60));
       }},
      {{"uncoalesced-loads",
        "a warp's global loads touch many more sectors than they need",
        {kLoadSectors, kLoadRequests, kLoadBytes},
        "global load sectors > 2 x the sectors their requested bytes fill"},
       [](auto v) { return scattered(v); }},
      {{"uncoalesced-stores",
        "a warp's global stores touch many more sectors than they need",
        {kStoreSectors, kStoreRequests, kStoreBytes},
        "global store sectors > 2 x the sectors their requested bytes fill"},
       [](auto v) { return scattered(v); }},
      {{"shared-bank-conflicts",
        "shared-memory accesses replay on bank conflicts",
        {kBankLoad, kBankStore, kSharedLoads, kSharedStores},
        "bank conflicts > 10% of shared-memory instructions"},
       [](auto v) {
         double conflicts = v[0] + v[1], accesses = v[2] + v[3];
         if (accesses <= 0)
           return std::make_pair(false,
                                 std::string("no shared-memory accesses"));
         double ratio = conflicts / accesses;
         return std::make_pair(
             ratio > 0.1,
             std::string(llvm::formatv(
                 "{0:F2} conflicts per shared-memory instruction {1} 0.1",
                 ratio, ratio > 0.1 ? ">" : "<=")));
       }},
      {{"low-occupancy",
        "fewer than 40% of the warp slots are active",
        {kOccupancy},
        "achieved occupancy < 40%"},
       [](auto v) {
         return std::make_pair(v[0] < 40, below(kOccupancy, v[0], 40));
       }},
      {{"register-spills",
        "the kernel reads spilled registers from local "
        "memory",
        {kLocalLoads},
        "local-memory load sectors > 0"},
       [](auto v) {
         return std::make_pair(
             v[0] > 0,
             std::string(llvm::formatv("{0} = {1:F0}", kLocalLoads, v[0])));
       }},
      {{"warp-divergence",
        "warps run with fewer than 24 of 32 lanes active",
        {kThreadsPerInst},
        "threads per instruction < 24"},
       [](auto v) {
         return std::make_pair(v[0] < 24, below(kThreadsPerInst, v[0], 24));
       }},
      {{"too-few-waves",
        "the grid does not fill the GPU once",
        {kWaves},
        "waves per SM < 1"},
       [](auto v) { return std::make_pair(v[0] < 1, below(kWaves, v[0], 1)); }},
      {{"tail-effect",
        "the last wave leaves most SMs idle",
        {kWaves},
        "1 <= waves per SM < 4 and the last wave under half full"},
       [](auto v) {
         double last = v[0] - std::floor(v[0]);
         bool holds = v[0] >= 1 && v[0] < 4 && last > 0 && last < 0.5;
         return std::make_pair(
             holds, std::string(llvm::formatv("{0} = {1:F2}", kWaves, v[0])));
       }},
      {{"latency-bound",
        "warps wait on dependent global loads and issue little",
        {kLongScoreboard, kIssueActive},
        "long-scoreboard stalls >= 1 per issue and issue active < 50%"},
       [](auto v) {
         return std::make_pair(v[0] >= 1 && v[1] < 50,
                               atLeast(kLongScoreboard, v[0], 1) + ", " +
                                   below(kIssueActive, v[1], 50));
       }},
      {{"issue-bound",
        "the schedulers issue nearly every cycle",
        {kIssueActive},
        "issue active >= 80%"},
       [](auto v) {
         return std::make_pair(v[0] >= 80, atLeast(kIssueActive, v[0], 80));
       }},
      {{"special-function-bound",
        "the special-function (XU) pipe is near its peak",
        {kXu},
        "XU pipe >= 60% of peak"},
       [](auto v) {
         return std::make_pair(v[0] >= 60, atLeast(kXu, v[0], 60));
       }},
      {{"atomic-contention",
        "atomic updates queue at an L2 slice's atomic unit",
        {kAtomicUnit},
        "the busiest L2 slice's atomic unit takes input >= 50% of the "
        "elapsed cycles"},
       [](auto v) {
         return std::make_pair(v[0] >= 50, atLeast(kAtomicUnit, v[0], 50));
       }},
      {{"barrier-stalls",
        "warps wait at barriers",
        {kBarrier},
        "barrier stalls >= 1 per issue"},
       [](auto v) {
         return std::make_pair(v[0] >= 1, atLeast(kBarrier, v[0], 1));
       }},
  };
  return facts;
}

} // namespace

llvm::ArrayRef<FactDefinition> mlir::autoprof::getFactDefinitions() {
  static const std::vector<FactDefinition> definitions = [] {
    std::vector<FactDefinition> result;
    for (const Fact &fact : getFacts())
      result.push_back(fact.definition);
    return result;
  }();
  return definitions;
}

std::vector<BottleneckFact>
mlir::autoprof::diagnose(const llvm::StringMap<double> &metrics) {
  std::vector<BottleneckFact> result;
  llvm::ArrayRef<FactDefinition> definitions = getFactDefinitions();
  for (auto [fact, definition] : llvm::zip(getFacts(), definitions)) {
    BottleneckFact entry;
    entry.definition = &definition;
    std::vector<double> values;
    std::vector<std::string> missing;
    for (llvm::StringRef metric : definition.metrics) {
      auto it = metrics.find(metric);
      if (it == metrics.end())
        missing.push_back(metric.str());
      else
        values.push_back(it->second);
    }
    if (!missing.empty()) {
      entry.evidence = "not collected: " + llvm::join(missing, ", ");
      result.push_back(std::move(entry));
      continue;
    }
    auto [holds, evidence] = fact.test(values);
    entry.state = holds ? FactState::True : FactState::False;
    entry.evidence = std::move(evidence);
    result.push_back(std::move(entry));
  }
  return result;
}
