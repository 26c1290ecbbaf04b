// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: gather-scatter
// Scatter-add: out[idx[i] mod 4194304] += vals[i] for 32M (33554432) f32 values into a 4M-entry f32 array,
// using global atomic adds (duplicates allowed); one value per thread, grid 131072 x block 256.
// Slow as written: one random-address atomic per element (no sorting/aggregation), scalar loads.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scatter_add(%vals: memref<33554432xf32>, %idx: memref<33554432xi32>, %out: memref<4194304xf32>, %n: index, %mask: i32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %vals[%i] : memref<33554432xf32>
        %raw = memref.load %idx[%i] : memref<33554432xi32>
        %m = arith.andi %raw, %mask : i32
        %t = arith.index_castui %m : i32 to index
        %old = memref.atomic_rmw addf %v, %out[%t] : (f32, memref<4194304xf32>) -> f32
      }
      gpu.return
    }
  }
  func.func @main(%vals: memref<33554432xf32>, %idx: memref<33554432xi32>, %out: memref<4194304xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %mask = arith.constant 4194303 : i32
    gpu.launch_func @kernels::@scatter_add blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%vals : memref<33554432xf32>, %idx : memref<33554432xi32>, %out : memref<4194304xf32>, %n : index, %mask : i32)
    return
  }
}

// CHECK-LABEL: gpu.func @scatter_add
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 1 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 1 : i64
// CHECK-SAME: global_bytes_per_thread = 12 : i64
// CHECK-SAME: global_loads = 2 : i64
// CHECK-SAME: global_stores = 0 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
