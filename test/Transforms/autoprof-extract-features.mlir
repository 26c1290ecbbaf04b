// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: autoprof-opt %s --autoprof-extract-features --autoprof-extract-features | FileCheck %s

// The pass attaches `autoprof.features` to kernels only, leaves the body and
// the host code unchanged, and is idempotent.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @add_one
    // CHECK-SAME: kernel attributes {autoprof.features = {arg_bytes = 8 : i64, arith_intensity = 1.250000e-01 : f64
    // CHECK-SAME: block_threads = 128 : i64
    // CHECK-SAME: flops_f32 = 1 : i64
    // CHECK-SAME: global_bytes_per_thread = 8 : i64, global_bytes_total = 8192 : i64
    // CHECK-SAME: grid_blocks = 8 : i64
    // CHECK-SAME: total_threads = 1024 : i64
    // CHECK-NEXT: %[[BID:.*]] = gpu.block_id x
    gpu.func @add_one(%x: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<1024xf32>
      %one = arith.constant 1.0 : f32
      %r = arith.addf %v, %one : f32
      memref.store %r, %x[%i] : memref<1024xf32>
      gpu.return
    }
    // Device functions that are not kernels get no features.
    // CHECK-LABEL: gpu.func @helper
    // CHECK-NOT: autoprof.features
    // CHECK: gpu.return
    gpu.func @helper(%v: f32) -> f32 {
      gpu.return %v : f32
    }
  }
  // CHECK-LABEL: func.func @main
  // CHECK-NOT: autoprof.features
  // CHECK: gpu.launch_func @kernels::@add_one
  func.func @main(%x: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@add_one blocks in (%c8, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<1024xf32>)
    return
  }
}
