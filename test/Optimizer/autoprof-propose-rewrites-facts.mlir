// autoprof-propose-rewrites on one kernel under three profiles: what the
// counters establish (docs/diagnosis.md) changes the ranking, and with
// remarks each proposal names its score and the state of the facts its
// family addresses, with the values that decided them.
// RUN: autoprof-opt %s --autoprof-propose-rewrites | FileCheck %s
// RUN: autoprof-opt %s --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Without a profile every fact is unknown; the static estimate says the
// loads are coalesced, and widening them comes first.
// CHECK-LABEL: gpu.func @unprofiled
// CHECK-SAME: autoprof.proposals = ["vectorize=4", "restrict=1", "vectorize=2", "block-size=256", "block-size=128", "block-size=512", "min-blocks=2", "launch-bounds=1"]
// REMARK: remark: @unprofiled: proposal 1: vectorize=4 (score 9.50); addresses issue-bound: unknown (not collected: smsp__issue_active.avg.pct_of_peak_sustained_active), dram-bound: unknown (not collected: dram__throughput.avg.pct_of_peak_sustained_elapsed)

// Measured scattered loads (32 sectors per request where the 128 bytes the
// lanes ask for fill 4) overrule the estimate:
// wider loads of scattered addresses lose, so vectorize drops below
// restrict and the block sizes.
// CHECK-LABEL: gpu.func @scattered
// CHECK-SAME: autoprof.proposals = ["restrict=1", "block-size=256", "block-size=128", "block-size=512", "vectorize=4", "vectorize=2", "min-blocks=2", "launch-bounds=1"]
// REMARK: remark: @scattered: proposal 1: restrict=1 (score 9.00); addresses dram-bound: true (dram__throughput.avg.pct_of_peak_sustained_elapsed = 83.50 >= 60.00), latency-bound: unknown
// REMARK: remark: @scattered: proposal 5: vectorize=4 (score 6.50); addresses issue-bound: unknown ({{.*}}), dram-bound: true

// 16 sectors per request where the lanes ask for 512 bytes (128-bit
// vectors) use every byte they fetch: coalesced, as without a profile.
// CHECK-LABEL: gpu.func @vectors
// CHECK-SAME: autoprof.proposals = ["vectorize=4", "restrict=1", "vectorize=2", "block-size=256", "block-size=128", "block-size=512", "min-blocks=2", "launch-bounds=1"]

// Low achieved occupancy: a register cap is proposed and more resident
// blocks rank higher.
// CHECK-LABEL: gpu.func @occupancy
// CHECK-SAME: autoprof.proposals = ["vectorize=4", "restrict=1", "vectorize=2", "block-size=256", "block-size=128", "block-size=512", "max-registers=32", "min-blocks=2", "launch-bounds=1"]
// REMARK: remark: @occupancy: proposal 4: block-size=256 (score 8.00); addresses low-occupancy: true (sm__warps_active.avg.pct_of_peak_sustained_active = 20.00 < 40.00), too-few-waves: unknown
// REMARK: remark: @occupancy: proposal 7: max-registers=32 (score 7.00); addresses low-occupancy: true (sm__warps_active.avg.pct_of_peak_sustained_active = 20.00 < 40.00)
// REMARK: remark: @occupancy: proposal 8: min-blocks=2 (score 6.00); addresses low-occupancy: true
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @unprofiled(%x: memref<1048576xf32>, %y: memref<1048576xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = arith.constant 64 : index
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<1048576xf32>
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      memref.store %w, %y[%i] : memref<1048576xf32>
      gpu.return
    }

    gpu.func @scattered(%x: memref<1048576xf32>, %y: memref<1048576xf32>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 10.0 : f64, metrics = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" = 3200.0 : f64, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum" = 100.0 : f64, "smsp__sass_data_bytes_mem_global_op_ld.sum" = 12800.0 : f64, "dram__throughput.avg.pct_of_peak_sustained_elapsed" = 83.5 : f64}}} {
      %bid = gpu.block_id x
      %bdim = arith.constant 64 : index
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<1048576xf32>
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      memref.store %w, %y[%i] : memref<1048576xf32>
      gpu.return
    }

    gpu.func @vectors(%x: memref<1048576xf32>, %y: memref<1048576xf32>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 10.0 : f64, metrics = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" = 1600.0 : f64, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum" = 100.0 : f64, "smsp__sass_data_bytes_mem_global_op_ld.sum" = 51200.0 : f64, "dram__throughput.avg.pct_of_peak_sustained_elapsed" = 83.5 : f64}}} {
      %bid = gpu.block_id x
      %bdim = arith.constant 64 : index
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<1048576xf32>
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      memref.store %w, %y[%i] : memref<1048576xf32>
      gpu.return
    }

    gpu.func @occupancy(%x: memref<1048576xf32>, %y: memref<1048576xf32>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 10.0 : f64, metrics = {"sm__warps_active.avg.pct_of_peak_sustained_active" = 20.0 : f64, "launch__registers_per_thread" = 40.0 : f64}}} {
      %bid = gpu.block_id x
      %bdim = arith.constant 64 : index
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<1048576xf32>
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      memref.store %w, %y[%i] : memref<1048576xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c16384 = arith.constant 16384 : index
    %x = memref.alloc() : memref<1048576xf32>
    %y = memref.alloc() : memref<1048576xf32>
    gpu.launch_func @kernels::@unprofiled blocks in (%c16384, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<1048576xf32>, %y : memref<1048576xf32>)
    gpu.launch_func @kernels::@scattered blocks in (%c16384, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<1048576xf32>, %y : memref<1048576xf32>)
    gpu.launch_func @kernels::@vectors blocks in (%c16384, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<1048576xf32>, %y : memref<1048576xf32>)
    gpu.launch_func @kernels::@occupancy blocks in (%c16384, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<1048576xf32>, %y : memref<1048576xf32>)
    return
  }
}
