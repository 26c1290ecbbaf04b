// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: transpose
// out[j][i] = in[i][j] for an 8192 x 2048 f32 matrix (out is 2048 x 8192); one element per thread,
// grid (128, 512) x block (16, 16), thread x walks columns j.
// Slow as written: reads are coalesced but writes stride 32 KB between adjacent threads (uncoalesced).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose_naive(%in: memref<8192x2048xf32>, %out: memref<2048x8192xf32>, %nrows: index, %ncols: index) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %j0 = arith.muli %bx, %dx : index
      %j = arith.addi %j0, %tx : index
      %i0 = arith.muli %by, %dy : index
      %i = arith.addi %i0, %ty : index
      %iok = arith.cmpi ult, %i, %nrows : index
      %jok = arith.cmpi ult, %j, %ncols : index
      %ok = arith.andi %iok, %jok : i1
      scf.if %ok {
        %v = memref.load %in[%i, %j] : memref<8192x2048xf32>
        memref.store %v, %out[%j, %i] : memref<2048x8192xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 512 : index
    %nrows = arith.constant 8192 : index
    %ncols = arith.constant 2048 : index
    %in = gpu.alloc () : memref<8192x2048xf32>
    %out = gpu.alloc () : memref<2048x8192xf32>
    gpu.launch_func @kernels::@transpose_naive blocks in (%gx, %gy, %c1) threads in (%c16, %c16, %c1) args(%in : memref<8192x2048xf32>, %out : memref<2048x8192xf32>, %nrows : index, %ncols : index)
    return
  }
}

// CHECK-LABEL: gpu.func @transpose_naive
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 0 : i64
// CHECK-SAME: global_bytes_per_thread = 8 : i64
// CHECK-SAME: global_loads = 1 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
