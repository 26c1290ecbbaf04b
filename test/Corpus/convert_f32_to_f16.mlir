// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: conversion
// out[i] = f16(in[i]) (round-to-nearest truncation) over 32M elements (33554432); grid 131072 x block 256.
// Slow as written: one 4-byte load and one 2-byte store per thread (sub-word stores, no half2
// packing, no vector loads), so store transactions are half-utilized.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @convert_f32_to_f16(%in: memref<33554432xf32>, %out: memref<33554432xf16>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %in[%i] : memref<33554432xf32>
        %h = arith.truncf %v : f32 to f16
        memref.store %h, %out[%i] : memref<33554432xf16>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %in = gpu.alloc () : memref<33554432xf32>
    %out = gpu.alloc () : memref<33554432xf16>
    gpu.launch_func @kernels::@convert_f32_to_f16 blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%in : memref<33554432xf32>, %out : memref<33554432xf16>, %n : index)
    return
  }
}

// CHECK-LABEL: gpu.func @convert_f32_to_f16
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 0 : i64
// CHECK-SAME: global_bytes_per_thread = 6 : i64
// CHECK-SAME: global_loads = 1 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
