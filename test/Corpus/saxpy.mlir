// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: elementwise
// y[i] = a * x[i] + y[i] over 32M f32 (33554432); one element per thread, grid 131072 x block 256.
// Slow as written: scalar 4-byte loads/stores, 64-bit index math and a bounds check per element,
// no vectorization and no grid-stride loop (short-lived threads).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%x: memref<33554432xf32>, %y: memref<33554432xf32>, %a: f32, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %xv = memref.load %x[%i] : memref<33554432xf32>
        %yv = memref.load %y[%i] : memref<33554432xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<33554432xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<33554432xf32>, %y: memref<33554432xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %a = arith.constant 2.500000e+00 : f32
    gpu.launch_func @kernels::@saxpy blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<33554432xf32>, %y : memref<33554432xf32>, %a : f32, %n : index)
    return
  }
}

// CHECK-LABEL: gpu.func @saxpy
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 2 : i64
// CHECK-SAME: global_bytes_per_thread = 12 : i64
// CHECK-SAME: global_loads = 2 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
