// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: elementwise
// out = x * y + z over 32M f32 (33554432) using 16-byte-aligned vector.load/vector.store of vector<4xf32>;
// one vector (4 elements) per thread, grid 32768 x block 256.
// Already bandwidth-friendly; what is left: one vector per short-lived thread, separate mul+add, 64-bit indexing.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fma_vec4(%x: memref<33554432xf32>, %y: memref<33554432xf32>, %z: memref<33554432xf32>, %out: memref<33554432xf32>, %n: index) kernel {
      %c4 = arith.constant 4 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %i = arith.muli %t, %c4 : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %xv = vector.load %x[%i] {alignment = 16 : i64} : memref<33554432xf32>, vector<4xf32>
        %yv = vector.load %y[%i] {alignment = 16 : i64} : memref<33554432xf32>, vector<4xf32>
        %zv = vector.load %z[%i] {alignment = 16 : i64} : memref<33554432xf32>, vector<4xf32>
        %m = arith.mulf %xv, %yv : vector<4xf32>
        %r = arith.addf %m, %zv : vector<4xf32>
        vector.store %r, %out[%i] {alignment = 16 : i64} : memref<33554432xf32>, vector<4xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 32768 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 33554432 : index
    %x = gpu.alloc () : memref<33554432xf32>
    %y = gpu.alloc () : memref<33554432xf32>
    %z = gpu.alloc () : memref<33554432xf32>
    %out = gpu.alloc () : memref<33554432xf32>
    gpu.launch_func @kernels::@fma_vec4 blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<33554432xf32>, %y : memref<33554432xf32>, %z : memref<33554432xf32>, %out : memref<33554432xf32>, %n : index)
    return
  }
}

// CHECK-LABEL: gpu.func @fma_vec4
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 8 : i64
// CHECK-SAME: global_bytes_per_thread = 64 : i64
// CHECK-SAME: global_loads = 3 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
