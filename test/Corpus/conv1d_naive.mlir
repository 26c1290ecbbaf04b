// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: convolution
// Valid 1D convolution (correlation) out[i] += sum_{k<31} in[i+k] * w[k], 32M outputs (33554432) from a
// 33554462-element f32 signal (linalg.conv_1d semantics, out holds the init); grid 131072 x block 256.
// Slow as written: out[i] is loaded/stored in global for every tap, taps and the input window re-read from global.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @conv1d_31tap(%in: memref<33554462xf32>, %w: memref<31xf32>, %out: memref<33554432xf32>, %n: index, %taps: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        scf.for %k = %c0 to %taps step %c1 {
          %ik = arith.addi %i, %k : index
          %xv = memref.load %in[%ik] : memref<33554462xf32>
          %wv = memref.load %w[%k] : memref<31xf32>
          %o = memref.load %out[%i] : memref<33554432xf32>
          %p = arith.mulf %xv, %wv : f32
          %s = arith.addf %o, %p : f32
          memref.store %s, %out[%i] : memref<33554432xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%out: memref<33554432xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %taps = arith.constant 31 : index
    %in = memref.alloc() : memref<33554462xf32>
    %w = memref.alloc() : memref<31xf32>
    gpu.launch_func @kernels::@conv1d_31tap blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%in : memref<33554462xf32>, %w : memref<31xf32>, %out : memref<33554432xf32>, %n : index, %taps : index)
    return
  }
}

// CHECK-LABEL: gpu.func @conv1d_31tap
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 62 : i64
// CHECK-SAME: global_bytes_per_thread = 496 : i64
// CHECK-SAME: global_loads = 93 : i64
// CHECK-SAME: global_stores = 31 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
