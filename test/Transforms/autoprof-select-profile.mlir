// RUN: autoprof-opt %s --autoprof-select-profile | FileCheck %s --check-prefix=SHIPPED
// RUN: autoprof-opt %s --autoprof-select-profile="tree-file=%S/Inputs/two-trees.mlir tree=by_threads" | FileCheck %s --check-prefix=FILE
// RUN: autoprof-opt %s --autoprof-extract-features --autoprof-select-profile=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Memory bound (1 flop per 8 bytes), big grid: the shipped tree walks
    // grid_blocks -> tensor_core_ops -> arith_intensity -> atomics ->
    // static_shared_bytes and collects the memory roofline groups.
    gpu.func @scale(%x: memref<4194304xf32>, %y: memref<4194304xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4194304xf32>
      %r = arith.mulf %v, %v : f32
      memref.store %r, %y[%i] : memref<4194304xf32>
      gpu.return
    }
    // A single small block: launch-bound before anything else.
    gpu.func @tiny(%x: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<64xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %x[%tid] : memref<64xf32>
      gpu.return
    }
    // Never launched: no launch features, so grid_blocks is missing and the
    // root split takes its declared default (else).
    gpu.func @unlaunched(%x: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<4194304xf32>, %y: memref<4194304xf32>, %t: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c16384 = arith.constant 16384 : index
    gpu.launch_func @kernels::@scale blocks in (%c16384, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4194304xf32>, %y : memref<4194304xf32>)
    gpu.launch_func @kernels::@tiny blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%t : memref<64xf32>)
    return
  }
}

// SHIPPED-LABEL: gpu.func @scale
// SHIPPED-SAME: autoprof.profile = {decisions = ["grid_blocks = 16384: not < 132 -> else", "tensor_core_ops = 0: not > 0 -> else", "arith_intensity = 0.125: < 4 -> then", "atomics = 0: not > 0 -> else", "static_shared_bytes = 0: not > 0 -> else"]
// SHIPPED-SAME: groups = ["SpeedOfLight", "MemoryWorkloadAnalysis"], leaf = 10 : i64
// SHIPPED-SAME: metrics = ["gpu__time_duration.sum",
// SHIPPED-SAME: "dram__bytes_read.sum"
// SHIPPED-SAME: path = [1, 3, 5, 6, 8, 10], summary = "roofline", tree = "h200_start"
// SHIPPED-LABEL: gpu.func @tiny
// SHIPPED-SAME: decisions = ["grid_blocks = 1: < 132 -> then"]
// SHIPPED-SAME: groups = ["SpeedOfLight", "LaunchStats", "Occupancy"], leaf = 2 : i64
// SHIPPED-SAME: path = [1, 2], tree = "h200_start"
// SHIPPED-LABEL: gpu.func @unlaunched
// SHIPPED-SAME: decisions = ["grid_blocks missing -> else (declared default)",
// SHIPPED-SAME: path = [1, 3, 5,

// FILE-LABEL: gpu.func @scale
// FILE-SAME: autoprof.profile = {decisions = ["block_threads = 256: >= 128 -> then"], groups = [], leaf = 2 : i64, metrics = ["dram__bytes_read.sum", "launch__registers_per_thread"], path = [1, 2], tree = "by_threads"}
// FILE-LABEL: gpu.func @tiny
// FILE-SAME: decisions = ["block_threads = 64: not >= 128 -> else"]
// FILE-SAME: groups = ["Occupancy"], leaf = 3 : i64
// FILE-SAME: path = [1, 3], tree = "by_threads"

// REMARK: remark: leaf 10 of tree @h200_start: SpeedOfLight, MemoryWorkloadAnalysis (26 metrics); grid_blocks = 16384: not < 132 -> else;
// REMARK: remark: leaf 2 of tree @h200_start: SpeedOfLight, LaunchStats, Occupancy ({{[0-9]+}} metrics); grid_blocks = 1: < 132 -> then
// REMARK: remark: leaf {{[0-9]+}} of tree @h200_start
