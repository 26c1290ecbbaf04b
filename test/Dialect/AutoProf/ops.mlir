// RUN: autoprof-opt %s | autoprof-opt | FileCheck %s
// RUN: autoprof-opt %s --mlir-print-op-generic | autoprof-opt | FileCheck %s

// CHECK-LABEL: autoprof.tree @single_leaf
// CHECK-SAME: attributes {chip = "sm_90"}
// CHECK-NEXT: autoprof.collect id(1) groups ["SpeedOfLight"]
autoprof.tree @single_leaf attributes {chip = "sm_90"} {
  autoprof.collect id(1) groups ["SpeedOfLight"]
}

// CHECK-LABEL: autoprof.tree @all_comparisons
// CHECK-SAME: note = "hand-written"
// CHECK: autoprof.split id(1) "arith_intensity" < 4 missing(then) {
// CHECK: autoprof.split id(2) "atomics" >= 1 missing(else) {
// CHECK: autoprof.collect id(3) groups ["SpeedOfLight", "WarpStateStats"] metrics ["dram__bytes_read.sum"] summary "stalls"
// CHECK: } else {
// CHECK: autoprof.collect id(4) metrics ["dram__bytes_read.sum", "dram__bytes_write.sum"]
// CHECK: } else {
// CHECK: autoprof.split id(5) "duration_us" <= 20 missing(else) {
// CHECK: autoprof.split id(6) "block_threads" > 64 missing(then) attributes {origin = "edit 3"} {
autoprof.tree @all_comparisons attributes {chip = "sm_90", note = "hand-written"} {
  autoprof.split id(1) "arith_intensity" < 4.0 missing(then) {
    autoprof.split id(2) "atomics" >= 1 missing(else) {
      autoprof.collect id(3) groups ["SpeedOfLight", "WarpStateStats"]
          metrics ["dram__bytes_read.sum"] summary "stalls"
    } else {
      autoprof.collect id(4) metrics ["dram__bytes_read.sum", "dram__bytes_write.sum"]
    }
  } else {
    autoprof.split id(5) "duration_us" <= 20.0 missing(else) {
      autoprof.split id(6) "block_threads" > 64.0 missing(then) attributes {origin = "edit 3"} {
        autoprof.collect id(7) groups ["LaunchStats", "Occupancy"]
      } else {
        autoprof.collect id(8) groups ["Occupancy"]
      }
    } else {
      autoprof.collect id(9) groups ["ComputeWorkloadAnalysis"]
    }
  }
}

// Leaves record their cost and the edit that created them.
// CHECK-LABEL: autoprof.tree @costed
// CHECK: autoprof.collect id(1) groups ["SchedulerStats", "InstructionStats"] summary "roofline" {cost_passes = 8 : i64, cost_seconds = 2.400000e-01 : f64, provenance = "split of leaf 2"}
autoprof.tree @costed attributes {chip = "sm_90a"} {
  autoprof.collect id(1) groups ["SchedulerStats", "InstructionStats"] summary "roofline"
      {cost_passes = 8 : i64, cost_seconds = 0.24 : f64, provenance = "split of leaf 2"}
}

// A threshold prints as the shortest decimal that reads back as the same
// double, and the printed tree parses to the same thresholds (the RUN lines
// print it twice): a learned threshold of nine digits stays exact, and a
// hexadecimal literal is a double's bits (0x41C5800000000000 is 721420288).
// CHECK-LABEL: autoprof.tree @exact_thresholds
// CHECK: autoprof.split id(1) "flops_total" < 721420288 missing(else) {
// CHECK: autoprof.split id(2) "arith_intensity" >= 0.1 missing(else) {
// CHECK: autoprof.split id(3) "global_bytes_total" > 1.5e+20 missing(else) {
// CHECK: autoprof.split id(4) "flops_total" <= 721420288 missing(else) {
// CHECK: autoprof.split id(5) "arith_intensity" < 0.3333333333333333 missing(else) {
autoprof.tree @exact_thresholds attributes {chip = "sm_90"} {
  autoprof.split id(1) "flops_total" < 721420288.0 missing(else) {
    autoprof.collect id(6) groups ["SpeedOfLight"]
  } else {
    autoprof.split id(2) "arith_intensity" >= 0.1 missing(else) {
      autoprof.collect id(7) groups ["SpeedOfLight"]
    } else {
      autoprof.split id(3) "global_bytes_total" > 1.5e20 missing(else) {
        autoprof.collect id(8) groups ["SpeedOfLight"]
      } else {
        autoprof.split id(4) "flops_total" <= 0x41C5800000000000 missing(else) {
          autoprof.collect id(9) groups ["SpeedOfLight"]
        } else {
          autoprof.split id(5) "arith_intensity" < 0.33333333333333331 missing(else) {
            autoprof.collect id(10) groups ["SpeedOfLight"]
          } else {
            autoprof.collect id(11) groups ["Occupancy"]
          }
        }
      }
    }
  }
}
