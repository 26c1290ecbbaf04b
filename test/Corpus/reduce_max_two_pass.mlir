// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: reduction
// out[0] = max(x) over 32M f32 in two passes: @block_max_partials (grid 262144 x block 128, interleaved
// shared-memory tree, tid % 2s == 0) writes 262144 partials; @final_max (grid 1 x block 1024) folds them.
// Slow as written: divergent modulo-based tree, and the whole second pass runs on a single block.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_max_partials(%x: memref<33554432xf32>, %partials: memref<262144xf32>, %n: index)
        workgroup(%sh : memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %ninf = arith.constant 0xFF800000 : f32
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
        scf.yield %ninf : f32
      }
      memref.store %v, %sh[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c7 step %c1 {
        %s = arith.shli %c1, %k : index
        %s2 = arith.shli %s, %c1 : index
        %rem = arith.remui %tid, %s2 : index
        %active = arith.cmpi eq, %rem, %c0 : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %sh[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<128xf32, #gpu.address_space<workgroup>>
          %m = arith.maximumf %a, %b : f32
          memref.store %m, %sh[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %r = memref.load %sh[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %r, %partials[%bid] : memref<262144xf32>
      }
      gpu.return
    }

    gpu.func @final_max(%partials: memref<262144xf32>, %out: memref<1xf32>, %npart: index)
        workgroup(%sh : memref<1024xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %c512 = arith.constant 512 : index
      %ninf = arith.constant 0xFF800000 : f32
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %acc = scf.for %j = %tid to %npart step %bdim iter_args(%m = %ninf) -> (f32) {
        %p = memref.load %partials[%j] : memref<262144xf32>
        %m2 = arith.maximumf %m, %p : f32
        scf.yield %m2 : f32
      }
      memref.store %acc, %sh[%tid] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c10 step %c1 {
        %s = arith.shrui %c512, %k : index
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %sh[%tid] : memref<1024xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<1024xf32, #gpu.address_space<workgroup>>
          %m = arith.maximumf %a, %b : f32
          memref.store %m, %sh[%tid] : memref<1024xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %r = memref.load %sh[%c0] : memref<1024xf32, #gpu.address_space<workgroup>>
        memref.store %r, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %g1 = arith.constant 262144 : index
    %b1 = arith.constant 128 : index
    %b2 = arith.constant 1024 : index
    %n = arith.constant 33554432 : index
    %npart = arith.constant 262144 : index
    %x = memref.alloc() : memref<33554432xf32>
    %partials = memref.alloc() : memref<262144xf32>
    %out = memref.alloc() : memref<1xf32>
    gpu.launch_func @kernels::@block_max_partials blocks in (%g1, %c1, %c1) threads in (%b1, %c1, %c1) args(%x : memref<33554432xf32>, %partials : memref<262144xf32>, %n : index)
    gpu.launch_func @kernels::@final_max blocks in (%c1, %c1, %c1) threads in (%b2, %c1, %c1) args(%partials : memref<262144xf32>, %out : memref<1xf32>, %npart : index)
    return
  }
}

// CHECK-LABEL: gpu.func @block_max_partials
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 8 : i64
// CHECK-SAME: divergent_branches = 9 : i64
// CHECK-SAME: flops = 7 : i64
// CHECK-SAME: global_bytes_per_thread = 8 : i64
// CHECK-SAME: global_loads = 1 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
// CHECK-LABEL: gpu.func @final_max
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 11 : i64
// CHECK-SAME: divergent_branches = 12 : i64
// CHECK-SAME: flops = 11 : i64
// CHECK-SAME: global_bytes_per_thread = 8 : i64
// CHECK-SAME: global_loads = 1 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 1 : i64
