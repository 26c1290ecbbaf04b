// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: gemm
// C += A * B for 1024 x 1024 f32 matrices, with the parallel loops mapped to blocks only: grid (1024, 1024)
// x block (1, 1), block x = row i, block y = column j, k loop accumulating into C in global memory.
// Slow as written: one-thread blocks (1/32 of every warp used, at most 32 threads resident per SM), C RMW per k.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul_block_per_element(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>, %kdim: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.block_id x
      %j = gpu.block_id y
      scf.for %k = %c0 to %kdim step %c1 {
        %a = memref.load %A[%i, %k] : memref<1024x1024xf32>
        %b = memref.load %B[%k, %j] : memref<1024x1024xf32>
        %c = memref.load %C[%i, %j] : memref<1024x1024xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        memref.store %s, %C[%i, %j] : memref<1024x1024xf32>
      }
      gpu.return
    }
  }
  func.func @main(%C: memref<1024x1024xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 1024 : index
    %gy = arith.constant 1024 : index
    %kdim = arith.constant 1024 : index
    %A = gpu.alloc () : memref<1024x1024xf32>
    %B = gpu.alloc () : memref<1024x1024xf32>
    gpu.launch_func @kernels::@matmul_block_per_element blocks in (%gx, %gy, %c1) threads in (%c1, %c1, %c1) args(%A : memref<1024x1024xf32>, %B : memref<1024x1024xf32>, %C : memref<1024x1024xf32>, %kdim : index)
    return
  }
}

// CHECK-LABEL: gpu.func @matmul_block_per_element
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 0 : i64
// CHECK-SAME: flops = 2048 : i64
// CHECK-SAME: global_bytes_per_thread = 16384 : i64
// CHECK-SAME: global_loads = 3072 : i64
// CHECK-SAME: global_stores = 1024 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
