// The profiling tree AutoProf uses when no tree is given.
//
// NOT LEARNED YET: this is a hand-written starting point that encodes common
// GPU performance practice (launch-bound kernels first, then the roofline
// side, then what typically limits each side). autoprof-learn refines it from
// optimization feedback; until then, treat its choices as a reasonable
// default, not as measured truth.
autoprof.tree @h200_start attributes {
    chip = "sm_90", note = "hand-written starting tree, not learned yet"} {
  // Launches smaller than one wave on 132 SMs are limited by the launch
  // configuration before anything else.
  autoprof.split id(1) "grid_blocks" < 132.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight", "LaunchStats", "Occupancy"]
  } else {
    autoprof.split id(3) "tensor_core_ops" > 0.0 missing(else) {
      autoprof.collect id(4)
          groups ["SpeedOfLight", "ComputeWorkloadAnalysis", "WarpStateStats"]
          summary "roofline"
    } else {
      // Below about 4 flop/byte a kernel is memory bound on an H200
      // (roughly 60 TFLOP/s f32 against 4.3 TB/s).
      autoprof.split id(5) "arith_intensity" < 4.0 missing(then) {
        autoprof.split id(6) "atomics" > 0.0 missing(else) {
          autoprof.collect id(7)
              groups ["SpeedOfLight", "MemoryWorkloadAnalysis", "WarpStateStats"]
        } else {
          autoprof.split id(8) "static_shared_bytes" > 0.0 missing(else) {
            autoprof.collect id(9)
                groups ["SpeedOfLight", "MemoryWorkloadAnalysis", "Occupancy"]
          } else {
            autoprof.collect id(10)
                groups ["SpeedOfLight", "MemoryWorkloadAnalysis"]
                summary "roofline"
          }
        }
      } else {
        autoprof.split id(11) "divergent_branches" > 0.0 missing(else) {
          autoprof.collect id(12)
              groups ["SpeedOfLight", "WarpStateStats", "InstructionStats"]
              summary "stalls"
        } else {
          autoprof.split id(13) "special_functions" >= 8.0 missing(else) {
            autoprof.collect id(14)
                groups ["SpeedOfLight", "ComputeWorkloadAnalysis",
                        "InstructionStats"]
          } else {
            autoprof.collect id(15)
                groups ["SpeedOfLight", "ComputeWorkloadAnalysis", "Occupancy",
                        "LaunchStats"]
                summary "occupancy"
          }
        }
      }
    }
  }
}
