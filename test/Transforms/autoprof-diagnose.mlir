// RUN: autoprof-opt %s --autoprof-diagnose | FileCheck %s
// RUN: autoprof-opt %s --autoprof-diagnose=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A profiled streaming kernel: DRAM-bound, scattered loads, a tail; what
// was not collected is unknown.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @streamed
    // CHECK-SAME: autoprof.facts = {
    // CHECK-SAME: "compute-bound" = "false"
    // CHECK-SAME: "dram-bound" = "true"
    // CHECK-SAME: "low-occupancy" = "unknown"
    // CHECK-SAME: "tail-effect" = "true"
    // CHECK-SAME: "too-few-waves" = "false"
    // CHECK-SAME: "uncoalesced-loads" = "true"
    // REMARK: remark: @streamed: dram-bound is true (dram__throughput.avg.pct_of_peak_sustained_elapsed = 83.50 >= 60.00)
    // REMARK: remark: @streamed: l2-bound is unknown (not collected: lts__throughput.avg.pct_of_peak_sustained_elapsed)
    // REMARK: remark: @streamed: compute-bound is false (sm__throughput.avg.pct_of_peak_sustained_elapsed = 20.00 < 60.00, dram__throughput.avg.pct_of_peak_sustained_elapsed = 83.50 >= 60.00)
    // REMARK: remark: @streamed: uncoalesced-loads is true (32.00 sectors per request where the 128 bytes requested fill 4.00: 8.00x > 2)
    // REMARK: remark: @streamed: tail-effect is true (launch__waves_per_multiprocessor = 1.25)
    gpu.func @streamed(%a: memref<1024xf32>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 10.0 : f64, metrics = {"dram__throughput.avg.pct_of_peak_sustained_elapsed" = 83.5 : f64, "sm__throughput.avg.pct_of_peak_sustained_elapsed" = 20.0 : f64, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" = 3200.0 : f64, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum" = 100.0 : f64, "smsp__sass_data_bytes_mem_global_op_ld.sum" = 12800.0 : f64, "launch__waves_per_multiprocessor" = 1.25 : f64}}} {
      gpu.return
    }

    // Whole numbers written as integers count like any metric.
    // CHECK-LABEL: gpu.func @integer_metrics
    // CHECK-SAME: "dram-bound" = "true"
    // CHECK-SAME: "too-few-waves" = "unknown"
    // REMARK: remark: @integer_metrics: dram-bound is true (dram__throughput.avg.pct_of_peak_sustained_elapsed = 90.00 >= 60.00)
    gpu.func @integer_metrics(%a: memref<1024xf32>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 10 : i64, metrics = {"dram__throughput.avg.pct_of_peak_sustained_elapsed" = 90 : i64}}} {
      gpu.return
    }

    // Unsigned integers read as unsigned: 200 : ui8 is 200, not -56 (which
    // would make dram-bound false), and a median of 4294967295 : ui32 is
    // no negative time.
    // CHECK-LABEL: gpu.func @unsigned_metrics
    // CHECK-SAME: "dram-bound" = "true"
    // REMARK: remark: @unsigned_metrics: dram-bound is true (dram__throughput.avg.pct_of_peak_sustained_elapsed = 200.00 >= 60.00)
    gpu.func @unsigned_metrics(%a: memref<1024xf32>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 4294967295 : ui32, metrics = {"dram__throughput.avg.pct_of_peak_sustained_elapsed" = 200 : ui8}}} {
      gpu.return
    }

    // A kernel without a measurement: every fact unknown.
    // CHECK-LABEL: gpu.func @unprofiled
    // CHECK-SAME: "dram-bound" = "unknown"
    // CHECK-NOT: "true"
    // CHECK-NOT: "false"
    // REMARK: remark: @unprofiled has no measurement (run autoprof-profile first): every fact is unknown
    gpu.func @unprofiled(%a: memref<1024xf32>) kernel {
      gpu.return
    }
  }
}
