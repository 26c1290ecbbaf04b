// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: scan
// Block-level inclusive prefix sum (first phase of a multi-block scan): y = inclusive scan of each 256-element
// chunk of a 32M f32 array, block totals to sums[block]; Hillis-Steele in workgroup memory, grid 131072 x block 256.
// Slow as written: O(n log n) adds, 16 barriers per block, one element per thread (blockDim must be 256).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @block_scan_inclusive(%x: memref<33554432xf32>, %y: memref<33554432xf32>, %sums: memref<131072xf32>, %n: index)
        workgroup(%sh : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
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
      %res = scf.for %k = %c0 to %c8 step %c1 iter_args(%cur = %v) -> (f32) {
        %off = arith.shli %c1, %k : index
        %has = arith.cmpi uge, %tid, %off : index
        %new = scf.if %has -> (f32) {
          %src = arith.subi %tid, %off : index
          %o = memref.load %sh[%src] : memref<256xf32, #gpu.address_space<workgroup>>
          %s = arith.addf %cur, %o : f32
          scf.yield %s : f32
        } else {
          scf.yield %cur : f32
        }
        gpu.barrier
        memref.store %new, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        scf.yield %new : f32
      }
      scf.if %inb {
        memref.store %res, %y[%i] : memref<33554432xf32>
      }
      %lastt = arith.subi %bdim, %c1 : index
      %islast = arith.cmpi eq, %tid, %lastt : index
      scf.if %islast {
        memref.store %res, %sums[%bid] : memref<131072xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<33554432xf32>, %y: memref<33554432xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %sums = gpu.alloc () : memref<131072xf32>
    gpu.launch_func @kernels::@block_scan_inclusive blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<33554432xf32>, %y : memref<33554432xf32>, %sums : memref<131072xf32>, %n : index)
    return
  }
}

// CHECK-LABEL: gpu.func @block_scan_inclusive
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 17 : i64
// CHECK-SAME: divergent_branches = 11 : i64
// CHECK-SAME: flops = 8 : i64
// CHECK-SAME: global_bytes_per_thread = 12 : i64
// CHECK-SAME: global_loads = 1 : i64
// CHECK-SAME: global_stores = 2 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
