// RUN: autoprof-opt %s --autoprof-diagnose | FileCheck %s

// A kernel imported from PTX (a Triton kernel's, say) carries its
// measurement on its gpu.binary; the facts go there too. A binary that was
// not imported gets none.
module attributes {gpu.container_module} {
  // CHECK-LABEL: gpu.binary @streamed
  // CHECK-SAME: autoprof.facts = {
  // CHECK-SAME: "dram-bound" = "true"
  // CHECK-SAME: "l2-bound" = "unknown"
  // CHECK-SAME: "too-few-waves" = "true"
  gpu.binary @streamed {autoprof.imported = {block_size_generic = false, entry = "streamed", format = "ptx", params = [{count = 1024 : i64, dtype = "f32", kind = "buffer", name = "a", role = "inout"}], source = "streamed.ptx"}, autoprof.measurement = {gpu = "NVIDIA H200", median_us = 10.0 : f64, metrics = {"dram__throughput.avg.pct_of_peak_sustained_elapsed" = 83.5 : f64, "launch__waves_per_multiprocessor" = 0.5 : f64}}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A.target sm_90\0A.address_size 64\0A.visible .entry streamed(.param .u64 a)\0A{\0Aret;\0A}\0A">]
  // CHECK-LABEL: gpu.binary @other
  // CHECK-NOT: autoprof.facts
  gpu.binary @other [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A">]
}
