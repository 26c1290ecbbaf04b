// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: histogram
// bins[b] += count of x[i] with clamp(floor(x[i] * 256), 0, 255) == b over 32M f32 samples (33554432) into
// 256 i32 bins (caller zeroes bins); one sample per thread, grid 131072 x block 256.
// Slow as written: every sample does a global atomic add on one of only 256 addresses (heavy contention).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @histogram256(%x: memref<33554432xf32>, %bins: memref<256xi32>, %n: index, %nbins_f: f32) kernel {
      %zero = arith.constant 0.000000e+00 : f32
      %maxbin = arith.constant 2.550000e+02 : f32
      %one = arith.constant 1 : i32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %x[%i] : memref<33554432xf32>
        %s = arith.mulf %v, %nbins_f : f32
        %lo = arith.maxnumf %s, %zero : f32
        %cl = arith.minnumf %lo, %maxbin : f32
        %b32 = arith.fptosi %cl : f32 to i32
        %b = arith.index_cast %b32 : i32 to index
        %old = memref.atomic_rmw addi %one, %bins[%b] : (i32, memref<256xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<33554432xf32>, %bins: memref<256xi32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %nbins_f = arith.constant 2.560000e+02 : f32
    gpu.launch_func @kernels::@histogram256 blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<33554432xf32>, %bins : memref<256xi32>, %n : index, %nbins_f : f32)
    return
  }
}

// CHECK-LABEL: gpu.func @histogram256
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 1 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 3 : i64
// CHECK-SAME: global_bytes_per_thread = 8 : i64
// CHECK-SAME: global_loads = 1 : i64
// CHECK-SAME: global_stores = 0 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
