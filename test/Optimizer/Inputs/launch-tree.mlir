// One leaf that collects the launch statistics, the memory workload and the
// speed of light: the facts a tiled kernel's revision reads (waves, spills,
// occupancy, the L1 and shared path's throughput).
autoprof.tree @launch attributes {chip = "sm_90"} {
  autoprof.collect id(1) groups ["LaunchStats", "MemoryWorkloadAnalysis", "Occupancy", "SpeedOfLight"]
}
