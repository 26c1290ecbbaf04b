// The profiling tree autoprof-optimize uses with its built-in proposer when
// no tree is given.
//
// LEARNED by autoprof-learn from an outcome table measured on an H100 host
// (docs/results/outcomes-h100-e815de3.json: the 38 kernels of the upstream
// corpus's 16x16-tile mapping, the 13 default configurations, searches of
// five candidates with the built-in proposer), with a weight of 0.0001 per
// replay pass and seed 1:
//   autoprof-learn --outcomes docs/results/outcomes-h100-e815de3.json \
//       --lambda 0.0001 --seed 1 -o tree.mlir
// docs/results/learn-h100.md has the evaluation: on 20 seeded splits a tree
// learned this way reaches the best fixed configuration's held-out outcome
// at a seventh of its profiling cost. What the counters change is a search's
// fourth and fifth candidates on the matrix multiplications, which this
// tree profiles; every other kernel gets its launch metrics, which need no
// replay pass. It was learned for the built-in proposer: with proposer=llm,
// autoprof-optimize keeps the hand-written starting tree
// (lib/Transforms/StartingTree.mlir), whose metrics the model's prompt
// carries. docs/profiling-tree.md says how to learn one for another GPU.
autoprof.tree @sm90_learned attributes {
    chip = "sm_90",
    note = "learned by autoprof-learn from docs/results/outcomes-h100-e815de3.json (lambda 0.0001, seed 1)"} {
  autoprof.split id(2) "flops_total" < 721420288 missing(else) attributes {provenance = "SPLIT leaf 1 on flops_total < 721420288.00 into launch-only / cudaforge-24"} {
    autoprof.collect id(3) metrics ["launch__grid_size", "launch__block_size", "launch__registers_per_thread"] {cost_passes = 0 : i64, cost_seconds = 1.184220e-04 : f64, provenance = "SPLIT leaf 1 on flops_total < 721420288.00 into launch-only / cudaforge-24"}
  } else {
    autoprof.collect id(4) metrics ["sm__cycles_active.avg", "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__occupancy_limit_blocks", "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem", "launch__registers_per_thread", "smsp__inst_executed.sum", "sm__inst_executed_pipe_tensor.avg.pct_of_peak_sustained_active", "dram__bytes_read.sum", "dram__bytes_write.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes.sum.per_second", "l1tex__t_sector_hit_rate.pct", "l1tex__throughput.avg.pct_of_peak_sustained_active", "lts__t_sector_hit_rate.pct", "lts__throughput.avg.pct_of_peak_sustained_elapsed", "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio", "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio"] {cost_passes = 15 : i64, cost_seconds = 2.4968489109999998 : f64, provenance = "SPLIT leaf 1 on flops_total < 721420288.00 into launch-only / cudaforge-24"}
  }
}
