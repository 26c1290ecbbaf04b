// block-size under too-few-waves (a sum of exponentials per row, which
// keeps the reductions' rewrites out): a grid of 64 blocks leaves most of an
// H200's 132 SMs idle whatever each block holds, so smaller blocks come
// first, the largest that gives every SM a block (64 threads: 256 blocks)
// before the smaller and then the larger ones; the remark says how many
// blocks each makes. Without the measurement, the sizes keep their usual
// places.
// RUN: autoprof-opt %s --autoprof-propose-rewrites | FileCheck %s
// RUN: autoprof-opt %s --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: gpu.func @rows_measured
// CHECK-SAME: autoprof.proposals = ["block-size=64", "block-size=32", "block-size=128", "unroll=4", "unroll=8", "block-size=512", "coarsen=4", "coarsen=2", "min-blocks=2", "launch-bounds=1"]
// REMARK: remark: @rows_measured: proposal 1: block-size=64 (score 9.50); 256 blocks for 132 SMs; addresses low-occupancy: unknown
// REMARK: remark: @rows_measured: proposal 3: block-size=128 (score 9.30); 128 blocks for 132 SMs;

// CHECK-LABEL: gpu.func @rows_unmeasured
// CHECK-SAME: autoprof.proposals = ["unroll=4", "unroll=8", "block-size=128", "block-size=512", "coarsen=4", "coarsen=2", "min-blocks=2", "launch-bounds=1"]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows_measured(%x: memref<16384x1024xf32>, %y: memref<16384xf32>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 500.0 : f64, metrics = {"launch__waves_per_multiprocessor" = 0.06 : f64}}} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c1024 = arith.constant 1024 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %row = arith.addi %base, %tid : index
      %sum = scf.for %c = %c0 to %c1024 step %c1 iter_args(%s = %zero) -> (f32) {
        %v = memref.load %x[%row, %c] : memref<16384x1024xf32>
        %e = math.exp %v : f32
        %s2 = arith.addf %s, %e : f32
        scf.yield %s2 : f32
      }
      memref.store %sum, %y[%row] : memref<16384xf32>
      gpu.return
    }
    gpu.func @rows_unmeasured(%x: memref<16384x1024xf32>, %y: memref<16384xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c1024 = arith.constant 1024 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %row = arith.addi %base, %tid : index
      %sum = scf.for %c = %c0 to %c1024 step %c1 iter_args(%s = %zero) -> (f32) {
        %v = memref.load %x[%row, %c] : memref<16384x1024xf32>
        %e = math.exp %v : f32
        %s2 = arith.addf %s, %e : f32
        scf.yield %s2 : f32
      }
      memref.store %sum, %y[%row] : memref<16384xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<16384x1024xf32>, %y: memref<16384xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@rows_measured blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384x1024xf32>, %y : memref<16384xf32>)
    gpu.launch_func @kernels::@rows_unmeasured blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384x1024xf32>, %y : memref<16384xf32>)
    return
  }
}
