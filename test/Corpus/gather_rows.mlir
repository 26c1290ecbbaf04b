// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: gather-scatter
// Embedding-style row gather: out[i][:] = table[idx[i] mod 262144][:] with a 262144 x 128 f32 table and
// 262144 i32 indices; one thread per looked-up row copying 128 floats, grid 1024 x block 256.
// Slow as written: adjacent threads touch different 512-byte rows (uncoalesced), scalar loads, 1024 blocks only.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather_rows(%table: memref<262144x128xf32>, %idx: memref<262144xi32>, %out: memref<262144x128xf32>, %nidx: index, %dim: index, %rowmask: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %nidx : index
      scf.if %inb {
        %raw = memref.load %idx[%i] : memref<262144xi32>
        %m = arith.andi %raw, %rowmask : i32
        %r = arith.index_castui %m : i32 to index
        scf.for %d = %c0 to %dim step %c1 {
          %v = memref.load %table[%r, %d] : memref<262144x128xf32>
          memref.store %v, %out[%i, %d] : memref<262144x128xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%table: memref<262144x128xf32>, %idx: memref<262144xi32>, %out: memref<262144x128xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 1024 : index
    %bx = arith.constant 256 : index
    %nidx = arith.constant 262144 : index
    %dim = arith.constant 128 : index
    %rowmask = arith.constant 262143 : i32
    gpu.launch_func @kernels::@gather_rows blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%table : memref<262144x128xf32>, %idx : memref<262144xi32>, %out : memref<262144x128xf32>, %nidx : index, %dim : index, %rowmask : i32)
    return
  }
}

// CHECK-LABEL: gpu.func @gather_rows
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 0 : i64
// CHECK-SAME: global_bytes_per_thread = 1028 : i64
// CHECK-SAME: global_loads = 129 : i64
// CHECK-SAME: global_stores = 128 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
