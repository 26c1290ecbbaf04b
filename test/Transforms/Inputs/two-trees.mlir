// Two profiling trees in one file; select-profile needs `tree=` to pick one.
autoprof.tree @memory attributes {chip = "sm_90"} {
  autoprof.collect id(1) groups ["MemoryWorkloadAnalysis"]
}
autoprof.tree @by_threads attributes {chip = "sm_90"} {
  autoprof.split id(1) "block_threads" >= 128.0 missing(else) {
    autoprof.collect id(2) metrics ["dram__bytes_read.sum", "launch__registers_per_thread"]
  } else {
    autoprof.collect id(3) groups ["Occupancy"]
  }
}
