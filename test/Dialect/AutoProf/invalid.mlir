// RUN: autoprof-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// expected-error @below {{tree body has no node: every evaluation path must end in an 'autoprof.collect' leaf}}
autoprof.tree @empty attributes {chip = "sm_90"} {
}

// -----

// expected-error @below {{has no metric catalog for chip 'sm_50'; supported chips: sm_90, sm_90a}}
autoprof.tree @old_chip attributes {chip = "sm_50"} {
  autoprof.collect id(1) groups ["SpeedOfLight"]
}

// -----

// expected-error @below {{tree body must hold exactly one node, found 2}}
autoprof.tree @two_roots attributes {chip = "sm_90"} {
  autoprof.collect id(1) groups ["SpeedOfLight"]
  autoprof.collect id(2) groups ["Occupancy"]
}

// -----

autoprof.tree @stray_op attributes {chip = "sm_90"} {
  // expected-error @below {{is not a profiling-tree node; tree body may only hold 'autoprof.split' or 'autoprof.collect'}}
  "test.node"() : () -> ()
}

// -----

autoprof.tree @unknown_feature attributes {chip = "sm_90"} {
  // expected-error @below {{tests unknown feature 'arith_intensty' (did you mean 'arith_intensity'?)}}
  autoprof.split id(1) "arith_intensty" < 4.0 missing(then) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
    autoprof.collect id(3) groups ["Occupancy"]
  }
}

// -----

autoprof.tree @unknown_group attributes {chip = "sm_90"} {
  // expected-error @below {{names unknown metric group 'SpeedOfLite' (did you mean 'SpeedOfLight'?)}}
  autoprof.collect id(1) groups ["SpeedOfLite"]
}

// -----

autoprof.tree @unknown_metric attributes {chip = "sm_90"} {
  // expected-error @below {{names unknown metric 'dram__bytes_red.sum' (did you mean 'dram__bytes_read.sum'?)}}
  autoprof.collect id(1) metrics ["dram__bytes_red.sum"]
}

// -----

autoprof.tree @pc_sampling_is_not_a_metric attributes {chip = "sm_90"} {
  // expected-error @below {{names unknown metric 'smsp__pcsamp_warps_issue_stalled_barrier'}}
  autoprof.collect id(1) metrics ["smsp__pcsamp_warps_issue_stalled_barrier"]
}

// -----

autoprof.tree @duplicate_group attributes {chip = "sm_90"} {
  // expected-error @below {{metric group 'Occupancy' is listed twice}}
  autoprof.collect id(1) groups ["Occupancy", "Occupancy"]
}

// -----

autoprof.tree @empty_leaf attributes {chip = "sm_90"} {
  // expected-error @below {{collects nothing: a leaf must name at least one metric group or metric}}
  autoprof.collect id(1)
}

// -----

autoprof.tree @unknown_summary attributes {chip = "sm_90"} {
  // expected-error @below {{requests unknown summary 'vibes'; known summaries: roofline, occupancy, stalls}}
  autoprof.collect id(1) groups ["SpeedOfLight"] summary "vibes"
}

// -----

autoprof.tree @negative_cost attributes {chip = "sm_90"} {
  // expected-error @below {{cost_passes must not be negative}}
  autoprof.collect id(1) groups ["SpeedOfLight"] {cost_passes = -1 : i64}
}

// -----

autoprof.tree @bad_seconds attributes {chip = "sm_90"} {
  // expected-error @below {{cost_seconds must be a finite non-negative number}}
  autoprof.collect id(1) groups ["SpeedOfLight"] {cost_seconds = -0.5 : f64}
}

// -----

autoprof.tree @path_without_leaf attributes {chip = "sm_90"} {
  // expected-error @below {{else branch of split 1 has no node: every evaluation path must end in an 'autoprof.collect' leaf}}
  autoprof.split id(1) "atomics" > 0.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
  }
}

// -----

autoprof.tree @two_children attributes {chip = "sm_90"} {
  // expected-error @below {{then branch of split 1 must hold exactly one node, found 2}}
  autoprof.split id(1) "atomics" > 0.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
    autoprof.collect id(3) groups ["Occupancy"]
  } else {
    autoprof.collect id(4) groups ["Occupancy"]
  }
}

// -----

autoprof.tree @threshold_below_range attributes {chip = "sm_90"} {
  // expected-error @below {{threshold -1 is outside the range [0, inf] of feature 'atomics': the then branch can never be taken}}
  autoprof.split id(1) "atomics" < -1.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
    autoprof.collect id(3) groups ["Occupancy"]
  }
}

// -----

autoprof.tree @threshold_above_range attributes {chip = "sm_90"} {
  // expected-error @below {{threshold 1024 is outside the range [1, 1024] of feature 'block_threads': the then branch can never be taken}}
  autoprof.split id(1) "block_threads" > 1024.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
    autoprof.collect id(3) groups ["Occupancy"]
  }
}

// -----

autoprof.tree @threshold_not_finite attributes {chip = "sm_90"} {
  // expected-error @below {{threshold must be a finite number, got inf}}
  "autoprof.split"() <{id = 1 : i64, feature = "atomics", comparison = 0 : i32, threshold = 0x7FF0000000000000 : f64, missing = 1 : i32}> ({
    autoprof.collect id(2) groups ["SpeedOfLight"]
  }, {
    autoprof.collect id(3) groups ["Occupancy"]
  }) : () -> ()
}

// -----

autoprof.tree @duplicate_id attributes {chip = "sm_90"} {
  // expected-note @below {{first use of the id is here}}
  autoprof.split id(1) "atomics" > 0.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
    // expected-error @below {{reuses node id 1 of tree @duplicate_id}}
    autoprof.collect id(1) groups ["Occupancy"]
  }
}

// -----

autoprof.tree @negative_id attributes {chip = "sm_90"} {
  // expected-error @below {{has node id -1; a node id is a whole number from 0 to 9007199254740991}}
  autoprof.collect id(-1) groups ["SpeedOfLight"]
}

// -----

autoprof.tree @huge_id attributes {chip = "sm_90"} {
  // expected-error @below {{has node id 9007199254740992; a node id is a whole number from 0 to 9007199254740991}}
  autoprof.split id(9007199254740992) "atomics" > 0.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
    autoprof.collect id(3) groups ["Occupancy"]
  }
}

// -----

// expected-error @below {{'autoprof.collect' op expects parent op to be one of 'autoprof.tree, autoprof.split'}}
autoprof.collect id(1) groups ["SpeedOfLight"]

// -----

autoprof.tree @bad_comparison attributes {chip = "sm_90"} {
  // expected-error @below {{expected a comparison: '<', '<=', '>' or '>='}}
  autoprof.split id(1) "atomics" == 0.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
    autoprof.collect id(3) groups ["Occupancy"]
  }
}

// -----

autoprof.tree @bad_missing attributes {chip = "sm_90"} {
  // expected-error @below {{expected 'then' or 'else', got 'left'}}
  autoprof.split id(1) "atomics" > 0.0 missing(left) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
    autoprof.collect id(3) groups ["Occupancy"]
  }
}

// -----

// A measurement's metrics are finite numbers: a NaN would decide nothing.
// expected-error @below {{autoprof.measurement's metric 'dram__throughput.avg.pct_of_peak_sustained_elapsed' must be a finite number (a metric that was not collected is left out, never given a placeholder)}}
func.func @nan_metric() attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 1.0 : f64, metrics = {"dram__throughput.avg.pct_of_peak_sustained_elapsed" = 0x7FF8000000000000 : f64}}} {
  return
}

// -----

// expected-error @below {{autoprof.measurement's metric 'sm__throughput.avg.pct_of_peak_sustained_elapsed' must be a finite number}}
func.func @string_metric() attributes {autoprof.measurement = {metrics = {"sm__throughput.avg.pct_of_peak_sustained_elapsed" = "high"}}} {
  return
}

// -----

// expected-error @below {{autoprof.measurement's median_us must be a finite, non-negative number of microseconds}}
func.func @negative_time() attributes {autoprof.measurement = {median_us = -3.0 : f64}} {
  return
}

// -----

// expected-error @below {{autoprof.measurement's metrics must be a dictionary of metric name to value}}
func.func @metrics_list() attributes {autoprof.measurement = {metrics = [1.0]}} {
  return
}

// -----

// expected-error @below {{autoprof.measurement must be a dictionary}}
func.func @not_a_dictionary() attributes {autoprof.measurement = 3 : i64} {
  return
}
