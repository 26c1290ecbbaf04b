// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: gemm
// C = A * B for 2048 x 2048 f32 matrices with 16x16 workgroup-memory tiles of A and B (gpu.barrier between
// load and compute); grid (128, 128) x block (16, 16), one C element per thread (blockDim must be 16x16).
// Slow as written: 1 output per thread (2 shared loads per FMA), small tiles, no register blocking or vectors.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul_tiled16(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>, %kdim: index)
        workgroup(%As : memref<16x16xf32, #gpu.address_space<workgroup>>, %Bs : memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.000000e+00 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %r0 = arith.muli %by, %c16 : index
      %row = arith.addi %r0, %ty : index
      %q0 = arith.muli %bx, %c16 : index
      %col = arith.addi %q0, %tx : index
      %acc = scf.for %t = %c0 to %kdim step %c16 iter_args(%sum = %zero) -> (f32) {
        %acol = arith.addi %t, %tx : index
        %a = memref.load %A[%row, %acol] : memref<2048x2048xf32>
        memref.store %a, %As[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %brow = arith.addi %t, %ty : index
        %b = memref.load %B[%brow, %col] : memref<2048x2048xf32>
        memref.store %b, %Bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %kk = %c0 to %c16 step %c1 iter_args(%s = %sum) -> (f32) {
          %av = memref.load %As[%ty, %kk] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %bv = memref.load %Bs[%kk, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %av, %bv : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %acc, %C[%row, %col] : memref<2048x2048xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 128 : index
    %kdim = arith.constant 2048 : index
    %A = gpu.alloc () : memref<2048x2048xf32>
    %B = gpu.alloc () : memref<2048x2048xf32>
    %C = gpu.alloc () : memref<2048x2048xf32>
    gpu.launch_func @kernels::@matmul_tiled16 blocks in (%gx, %gy, %c1) threads in (%c16, %c16, %c1) args(%A : memref<2048x2048xf32>, %B : memref<2048x2048xf32>, %C : memref<2048x2048xf32>, %kdim : index)
    return
  }
}

// CHECK-LABEL: gpu.func @matmul_tiled16
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 256 : i64
// CHECK-SAME: divergent_branches = 0 : i64
// CHECK-SAME: flops = 4096 : i64
// CHECK-SAME: global_bytes_per_thread = 1028 : i64
// CHECK-SAME: global_loads = 256 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 2 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
