// A tree that sends one-thread blocks (add.blocks) to MemoryWorkloadAnalysis
// and every other kernel (saxpy) to launch metrics alone.
autoprof.tree @two_leaves attributes {chip = "sm_90"} {
  autoprof.split id(1) "block_threads" < 32.0 missing(else) {
    autoprof.collect id(2) groups ["MemoryWorkloadAnalysis"]
  } else {
    autoprof.collect id(3) metrics ["launch__grid_size", "launch__block_size"]
  }
}
