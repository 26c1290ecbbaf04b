// A leaf that collects a configuration the outcome table does not measure.
autoprof.tree @unknown attributes {chip = "sm_90"} {
  autoprof.collect id(1) groups ["WarpStateStats"]
}
