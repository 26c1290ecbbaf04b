// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: gemm
// C += A * B for 1024 x 1024 f32 matrices (linalg.matmul semantics: C holds the initial value); one thread
// per C element, grid (64, 64) x block (16, 16), mapped like gpu-map-parallel-loops (row i -> x, col j -> y).
// Slow as written: C[i][j] is loaded/stored in global every k step, and thread x walks rows (uncoalesced A, C).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul_naive(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>, %m: index, %n: index, %kdim: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %i0 = arith.muli %bx, %dx : index
      %i = arith.addi %i0, %tx : index
      %j0 = arith.muli %by, %dy : index
      %j = arith.addi %j0, %ty : index
      %iok = arith.cmpi ult, %i, %m : index
      %jok = arith.cmpi ult, %j, %n : index
      %ok = arith.andi %iok, %jok : i1
      scf.if %ok {
        scf.for %k = %c0 to %kdim step %c1 {
          %a = memref.load %A[%i, %k] : memref<1024x1024xf32>
          %b = memref.load %B[%k, %j] : memref<1024x1024xf32>
          %c = memref.load %C[%i, %j] : memref<1024x1024xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          memref.store %s, %C[%i, %j] : memref<1024x1024xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%C: memref<1024x1024xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gx = arith.constant 64 : index
    %gy = arith.constant 64 : index
    %m = arith.constant 1024 : index
    %n = arith.constant 1024 : index
    %kdim = arith.constant 1024 : index
    %A = memref.alloc() : memref<1024x1024xf32>
    %B = memref.alloc() : memref<1024x1024xf32>
    gpu.launch_func @kernels::@matmul_naive blocks in (%gx, %gy, %c1) threads in (%c16, %c16, %c1) args(%A : memref<1024x1024xf32>, %B : memref<1024x1024xf32>, %C : memref<1024x1024xf32>, %m : index, %n : index, %kdim : index)
    return
  }
}

// CHECK-LABEL: gpu.func @matmul_naive
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 2048 : i64
// CHECK-SAME: global_bytes_per_thread = 16384 : i64
// CHECK-SAME: global_loads = 3072 : i64
// CHECK-SAME: global_stores = 1024 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
