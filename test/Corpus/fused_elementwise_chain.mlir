// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: elementwise
// out[i] = max((x[i] * y[i] + z[i]) * scale, 0) over 16M f32 (16777216); grid 131072 x block 128.
// Slow as written: the fused chain still round-trips every intermediate through out[i] in global
// memory (store, reload, store ... as an unfused-by-buffer lowering would), 4 stores per element.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fused_mul_add_scale_relu(%x: memref<16777216xf32>, %y: memref<16777216xf32>, %z: memref<16777216xf32>, %out: memref<16777216xf32>, %scale: f32, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %zero = arith.constant 0.000000e+00 : f32
        // stage 1: out = x * y
        %xv = memref.load %x[%i] : memref<16777216xf32>
        %yv = memref.load %y[%i] : memref<16777216xf32>
        %m = arith.mulf %xv, %yv : f32
        memref.store %m, %out[%i] : memref<16777216xf32>
        // stage 2: out = out + z
        %t1 = memref.load %out[%i] : memref<16777216xf32>
        %zv = memref.load %z[%i] : memref<16777216xf32>
        %s = arith.addf %t1, %zv : f32
        memref.store %s, %out[%i] : memref<16777216xf32>
        // stage 3: out = out * scale
        %t2 = memref.load %out[%i] : memref<16777216xf32>
        %sc = arith.mulf %t2, %scale : f32
        memref.store %sc, %out[%i] : memref<16777216xf32>
        // stage 4: out = relu(out)
        %t3 = memref.load %out[%i] : memref<16777216xf32>
        %r = arith.maximumf %t3, %zero : f32
        memref.store %r, %out[%i] : memref<16777216xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 131072 : index
    %bx = arith.constant 128 : index
    %n = arith.constant 16777216 : index
    %scale = arith.constant 1.250000e-01 : f32
    %x = memref.alloc() : memref<16777216xf32>
    %y = memref.alloc() : memref<16777216xf32>
    %z = memref.alloc() : memref<16777216xf32>
    %out = memref.alloc() : memref<16777216xf32>
    gpu.launch_func @kernels::@fused_mul_add_scale_relu blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<16777216xf32>, %y : memref<16777216xf32>, %z : memref<16777216xf32>, %out : memref<16777216xf32>, %scale : f32, %n : index)
    return
  }
}

// CHECK-LABEL: gpu.func @fused_mul_add_scale_relu
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 4 : i64
// CHECK-SAME: global_bytes_per_thread = 40 : i64
// CHECK-SAME: global_loads = 6 : i64
// CHECK-SAME: global_stores = 4 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
