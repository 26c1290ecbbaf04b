// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: conversion
// Group-wise int8 dequantization out[i] = f32(q[i]) * scale[i / 128] for 32M i8 values (33554432, 262144 groups
// of 128), f32 out; one element per thread, grid 131072 x block 256.
// Slow as written: 1-byte loads per thread (no char4 / vector loads), runtime group size -> 64-bit division.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dequant_i8_group(%q: memref<33554432xi8>, %scale: memref<262144xf32>, %out: memref<33554432xf32>, %n: index, %group: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %qv = memref.load %q[%i] : memref<33554432xi8>
        %g = arith.divui %i, %group : index
        %s = memref.load %scale[%g] : memref<262144xf32>
        %f = arith.sitofp %qv : i8 to f32
        %r = arith.mulf %f, %s : f32
        memref.store %r, %out[%i] : memref<33554432xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %group = arith.constant 128 : index
    %q = memref.alloc() : memref<33554432xi8>
    %scale = memref.alloc() : memref<262144xf32>
    %out = memref.alloc() : memref<33554432xf32>
    gpu.launch_func @kernels::@dequant_i8_group blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%q : memref<33554432xi8>, %scale : memref<262144xf32>, %out : memref<33554432xf32>, %n : index, %group : index)
    return
  }
}

// CHECK-LABEL: gpu.func @dequant_i8_group
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 1 : i64
// CHECK-SAME: global_bytes_per_thread = 9 : i64
// CHECK-SAME: global_loads = 2 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
