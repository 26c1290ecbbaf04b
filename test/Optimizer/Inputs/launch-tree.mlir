// One leaf that collects the launch statistics and the memory workload: the
// facts a tiled kernel's revision reads (waves, spills, occupancy).
autoprof.tree @launch attributes {chip = "sm_90"} {
  autoprof.collect id(1) groups ["LaunchStats", "MemoryWorkloadAnalysis", "Occupancy"]
}
