// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: spmv
// y = A * x, CSR with 4194304 rows/cols and 33554432 nonzeros (i32 row_ptr/col_idx, f32 values; caller supplies a
// valid CSR: row_ptr[0] = 0, nondecreasing, row_ptr[n] = nnz, col_idx < n); one thread per row, grid 16384 x block 256.
// The argument attributes tell AutoProf's runtime how to generate valid inputs: sorted row pointers below nnz and
// column indices below n.
// Slow as written: data-dependent row loops walk col_idx/vals uncoalesced, random x gathers, warp load imbalance.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spmv_csr_scalar(%row_ptr: memref<4194305xi32> {autoprof.index_bound = 33554432 : i64, autoprof.sorted}, %col_idx: memref<33554432xi32> {autoprof.index_bound = 4194304 : i64}, %vals: memref<33554432xf32>, %x: memref<4194304xf32>, %y: memref<4194304xf32>, %nrows: index) kernel {
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.000000e+00 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %row = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %row, %nrows : index
      scf.if %inb {
        %rp1 = arith.addi %row, %c1 : index
        %s32 = memref.load %row_ptr[%row] : memref<4194305xi32>
        %e32 = memref.load %row_ptr[%rp1] : memref<4194305xi32>
        %start = arith.index_castui %s32 : i32 to index
        %end = arith.index_castui %e32 : i32 to index
        %dot = scf.for %jj = %start to %end step %c1 iter_args(%acc = %zero) -> (f32) {
          %c32 = memref.load %col_idx[%jj] : memref<33554432xi32>
          %col = arith.index_castui %c32 : i32 to index
          %a = memref.load %vals[%jj] : memref<33554432xf32>
          %xv = memref.load %x[%col] : memref<4194304xf32>
          %p = arith.mulf %a, %xv : f32
          %acc2 = arith.addf %acc, %p : f32
          scf.yield %acc2 : f32
        }
        memref.store %dot, %y[%row] : memref<4194304xf32>
      }
      gpu.return
    }
  }
  func.func @main(%row_ptr: memref<4194305xi32>, %col_idx: memref<33554432xi32>, %vals: memref<33554432xf32>, %x: memref<4194304xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 16384 : index
    %bx = arith.constant 256 : index
    %nrows = arith.constant 4194304 : index
    %y = memref.alloc() : memref<4194304xf32>
    gpu.launch_func @kernels::@spmv_csr_scalar blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%row_ptr : memref<4194305xi32>, %col_idx : memref<33554432xi32>, %vals : memref<33554432xf32>, %x : memref<4194304xf32>, %y : memref<4194304xf32>, %nrows : index)
    return
  }
}

// CHECK-LABEL: gpu.func @spmv_csr_scalar
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 2 : i64
// CHECK-SAME: flops = 2 : i64
// CHECK-SAME: global_bytes_per_thread = 24 : i64
// CHECK-SAME: global_loads = 5 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 1 : i64
