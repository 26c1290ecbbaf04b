// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: elementwise
// Integer hashing: bucket[i] = fmix32(key[i] ^ seed) mod nbuckets (murmur3 finalizer, unsigned i32 math,
// nbuckets = 1000003) over 32M i32 keys (33554432); grid 131072 x block 256.
// Slow as written: the modulus is a runtime kernel argument, so urem is a full 32-bit division sequence.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hash_bucket(%keys: memref<33554432xi32>, %out: memref<33554432xi32>, %n: index, %seed: i32, %nbuckets: i32) kernel {
      %s16 = arith.constant 16 : i32
      %s13 = arith.constant 13 : i32
      %m1 = arith.constant -2048144789 : i32
      %m2 = arith.constant -1028477387 : i32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %k = memref.load %keys[%i] : memref<33554432xi32>
        %h0 = arith.xori %k, %seed : i32
        %a0 = arith.shrui %h0, %s16 : i32
        %h1 = arith.xori %h0, %a0 : i32
        %h2 = arith.muli %h1, %m1 : i32
        %a1 = arith.shrui %h2, %s13 : i32
        %h3 = arith.xori %h2, %a1 : i32
        %h4 = arith.muli %h3, %m2 : i32
        %a2 = arith.shrui %h4, %s16 : i32
        %h5 = arith.xori %h4, %a2 : i32
        %b = arith.remui %h5, %nbuckets : i32
        memref.store %b, %out[%i] : memref<33554432xi32>
      }
      gpu.return
    }
  }
  func.func @main(%keys: memref<33554432xi32>, %out: memref<33554432xi32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %seed = arith.constant 305419896 : i32
    %nbuckets = arith.constant 1000003 : i32
    gpu.launch_func @kernels::@hash_bucket blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%keys : memref<33554432xi32>, %out : memref<33554432xi32>, %n : index, %seed : i32, %nbuckets : i32)
    return
  }
}

// CHECK-LABEL: gpu.func @hash_bucket
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
