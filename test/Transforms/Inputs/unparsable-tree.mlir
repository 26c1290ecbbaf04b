autoprof.tree @unparsable attributes {chip = "sm_90"} {
  autoprof.split id(1) "atomics" ~ 3.0 missing(else) {
