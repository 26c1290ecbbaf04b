autoprof.tree @broken attributes {chip = "sm_90"} {
  autoprof.collect id(1) groups ["NoSuchSection"]
}
