// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: elementwise
// bf16 bias + ReLU: out[r][c] = bf16(max(f32(x[r][c]) + f32(bias[c]), 0)) on a 16384 x 2048 bf16 activation
// (32M elements); grid (8, 16384) x block 256, block y = row.
// Slow as written: 2-byte scalar loads/stores (no bf16x2 packing or vectors), bias re-read per element, f32 round trip.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bias_relu_bf16(%x: memref<16384x2048xbf16>, %bias: memref<2048xbf16>, %out: memref<16384x2048xbf16>, %ncols: index) kernel {
      %zero = arith.constant 0.000000e+00 : f32
      %bx = gpu.block_id x
      %row = gpu.block_id y
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %c0 = arith.muli %bx, %dx : index
      %col = arith.addi %c0, %tx : index
      %inb = arith.cmpi ult, %col, %ncols : index
      scf.if %inb {
        %xv = memref.load %x[%row, %col] : memref<16384x2048xbf16>
        %bv = memref.load %bias[%col] : memref<2048xbf16>
        %xf = arith.extf %xv : bf16 to f32
        %bf = arith.extf %bv : bf16 to f32
        %s = arith.addf %xf, %bf : f32
        %r = arith.maximumf %s, %zero : f32
        %o = arith.truncf %r : f32 to bf16
        memref.store %o, %out[%row, %col] : memref<16384x2048xbf16>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 8 : index
    %gy = arith.constant 16384 : index
    %bx = arith.constant 256 : index
    %ncols = arith.constant 2048 : index
    %x = gpu.alloc () : memref<16384x2048xbf16>
    %bias = gpu.alloc () : memref<2048xbf16>
    %out = gpu.alloc () : memref<16384x2048xbf16>
    gpu.launch_func @kernels::@bias_relu_bf16 blocks in (%gx, %gy, %c1) threads in (%bx, %c1, %c1) args(%x : memref<16384x2048xbf16>, %bias : memref<2048xbf16>, %out : memref<16384x2048xbf16>, %ncols : index)
    return
  }
}

// CHECK-LABEL: gpu.func @bias_relu_bf16
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 2 : i64
// CHECK-SAME: global_bytes_per_thread = 6 : i64
// CHECK-SAME: global_loads = 2 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
