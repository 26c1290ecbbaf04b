// A starting tree whose leaves collect configurations of
// synthetic-outcomes.json, split on the wrong feature.
autoprof.tree @start attributes {chip = "sm_90"} {
  autoprof.split id(1) "grid_blocks" < 1000.0 missing(else) {
    autoprof.collect id(2) groups ["SpeedOfLight"]
  } else {
    autoprof.collect id(3) groups ["LaunchStats", "Occupancy"]
  }
}
