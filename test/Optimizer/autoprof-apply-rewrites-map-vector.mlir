// map-vector on IR: each thread takes V consecutive points along the
// contiguous dimension; the points' accesses of neighbouring elements
// become one vector access each.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=map-vector=8" | FileCheck %s

// An HWC f16 sum of two images on one-thread blocks: upstream put the
// channels (contiguous) on the grid's z.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<32x32x64xf16> {llvm.noalias}, %b: memref<32x32x64xf16> {llvm.noalias}, %out: memref<32x32x64xf16> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@add blocks in (%c32, %c32, %c64) threads in (%c1, %c1, %c1) args(%a : memref<32x32x64xf16>, %b : memref<32x32x64xf16>, %out : memref<32x32x64xf16>)
    return
  }
  gpu.module @m {
    gpu.func @add(%a: memref<32x32x64xf16>, %b: memref<32x32x64xf16>, %out: memref<32x32x64xf16>) kernel {
      %h = gpu.block_id x
      %w = gpu.block_id y
      %c = gpu.block_id z
      %x = memref.load %a[%h, %w, %c] : memref<32x32x64xf16>
      %y = memref.load %b[%h, %w, %c] : memref<32x32x64xf16>
      %s = arith.addf %x, %y : f16
      memref.store %s, %out[%h, %w, %c] : memref<32x32x64xf16>
      gpu.return
    }
  }
}
// 65536 points, 8 per thread: 8192 threads in 32 blocks of 256.
// CHECK-LABEL: func.func @host(
// CHECK: gpu.launch_func @m::@add blocks in (%c32_{{[0-9]+}}, %{{.*}}, %{{.*}}) threads in (%c256, %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @add(
// CHECK-SAME: %[[A:.*]]: memref<32x32x64xf16>, %[[B:.*]]: memref<32x32x64xf16>, %[[OUT:.*]]: memref<32x32x64xf16>) kernel
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 32, 1, 1>
// CHECK: %[[LINEAR:.*]] = arith.addi
// The thread's group of 8 channels, then its pixel.
// CHECK: %[[GROUP:.*]] = arith.remui %[[LINEAR]], %{{.*}} : index
// CHECK: %[[REST:.*]] = arith.divui %[[LINEAR]], %{{.*}} : index
// CHECK: %[[W:.*]] = arith.remui %[[REST]], %{{.*}} : index
// CHECK: %[[H:.*]] = arith.divui %[[REST]], %{{.*}} : index
// CHECK: %[[C:.*]] = arith.muli %[[GROUP]], %{{.*}} : index
// Each operand is one 16-byte access of the 8 channels.
// CHECK: %[[X:.*]] = vector.load %[[A]][%[[H]], %[[W]], %[[C]]] {alignment = 16 : i64} : memref<32x32x64xf16>, vector<8xf16>
// CHECK: %[[Y:.*]] = vector.load %[[B]][%[[H]], %[[W]], %[[C]]] {alignment = 16 : i64} : memref<32x32x64xf16>, vector<8xf16>
// CHECK-COUNT-8: arith.addf
// CHECK: vector.store %{{.*}}, %[[OUT]][%[[H]], %[[W]], %{{.*}}] {alignment = 16 : i64} : memref<32x32x64xf16>, vector<8xf16>
// CHECK-NOT: memref.load
// CHECK-NOT: memref.store
// CHECK: gpu.return
