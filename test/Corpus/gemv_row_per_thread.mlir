// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: gemv
// y = A * x for a row-major 8192 x 8192 f32 matrix; one thread per row with a sequential dot product,
// grid 32 x block 256 (8192 threads).
// Slow as written: adjacent threads read A 32 KB apart (uncoalesced), only 32 blocks for 132 SMs, no ILP.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemv_row_per_thread(%A: memref<8192x8192xf32>, %x: memref<8192xf32>, %y: memref<8192xf32>, %m: index, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.000000e+00 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %row = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %row, %m : index
      scf.if %inb {
        %dot = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
          %a = memref.load %A[%row, %k] : memref<8192x8192xf32>
          %xv = memref.load %x[%k] : memref<8192xf32>
          %p = arith.mulf %a, %xv : f32
          %acc2 = arith.addf %acc, %p : f32
          scf.yield %acc2 : f32
        }
        memref.store %dot, %y[%row] : memref<8192xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 32 : index
    %bx = arith.constant 256 : index
    %m = arith.constant 8192 : index
    %n = arith.constant 8192 : index
    %A = memref.alloc() : memref<8192x8192xf32>
    %x = memref.alloc() : memref<8192xf32>
    %y = memref.alloc() : memref<8192xf32>
    gpu.launch_func @kernels::@gemv_row_per_thread blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%A : memref<8192x8192xf32>, %x : memref<8192xf32>, %y : memref<8192xf32>, %m : index, %n : index)
    return
  }
}

// CHECK-LABEL: gpu.func @gemv_row_per_thread
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 16384 : i64
// CHECK-SAME: global_bytes_per_thread = 65540 : i64
// CHECK-SAME: global_loads = 16384 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
