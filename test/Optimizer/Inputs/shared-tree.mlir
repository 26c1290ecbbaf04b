// One leaf that collects the memory workload and the instruction counts:
// together they give the bank conflicts per shared-memory instruction (the
// fact shared-bank-conflicts, docs/diagnosis.md).
autoprof.tree @shared attributes {chip = "sm_90"} {
  autoprof.collect id(1) groups ["InstructionStats", "MemoryWorkloadAnalysis", "SpeedOfLight"]
}
