// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: reduction
// out[0] += sum(x) over 32M f32 (33554432): one element per thread, shared-memory tree per 256-thread
// block (blockDim must be 256), then thread 0 does a global atomic add; grid 131072 x block 256.
// Slow as written: 131072 same-address atomics, 8 barrier rounds with idle threads, 1 element/thread.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce_sum_atomic(%x: memref<33554432xf32>, %out: memref<1xf32>, %n: index)
        workgroup(%sh : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %zero = arith.constant 0.000000e+00 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      %v = scf.if %inb -> (f32) {
        %xv = memref.load %x[%i] : memref<33554432xf32>
        scf.yield %xv : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %v, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c8 step %c1 {
        %s = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %ab = arith.addf %a, %b : f32
          memref.store %ab, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %tot = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        %old = memref.atomic_rmw addf %tot, %out[%c0] : (f32, memref<1xf32>) -> f32
      }
      gpu.return
    }
  }
  func.func @main(%out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %x = memref.alloc() : memref<33554432xf32>
    gpu.launch_func @kernels::@reduce_sum_atomic blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<33554432xf32>, %out : memref<1xf32>, %n : index)
    return
  }
}

// CHECK-LABEL: gpu.func @reduce_sum_atomic
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 1 : i64
// CHECK-SAME: barriers = 9 : i64
// CHECK-SAME: divergent_branches = 10 : i64
// CHECK-SAME: flops = 9 : i64
// CHECK-SAME: global_bytes_per_thread = 8 : i64
// CHECK-SAME: global_loads = 1 : i64
// CHECK-SAME: global_stores = 0 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
