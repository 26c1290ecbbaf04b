// map-nest on IR: a raised nest gets one thread per parallel point, the
// contiguous dimension on consecutive lanes, blocks of T threads along x, and
// its reductions accumulated in registers.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-nest=256" | FileCheck %s

// HWC max pooling on one-thread blocks: upstream put the channels (the
// contiguous dimension) on the grid's z.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<64x64x32xf32> {llvm.noalias}, %out: memref<32x32x32xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @m::@pool blocks in (%c32, %c32, %c32) threads in (%c1, %c1, %c1) args(%in : memref<64x64x32xf32>, %out : memref<32x32x32xf32>)
    return
  }
  gpu.module @m {
    gpu.func @pool(%in: memref<64x64x32xf32>, %out: memref<32x32x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %h = gpu.block_id x
      %w = gpu.block_id y
      %c = gpu.block_id z
      scf.for %kh = %c0 to %c2 step %c1 {
        scf.for %kw = %c0 to %c2 step %c1 {
          %h2 = arith.muli %h, %c2 : index
          %hi = arith.addi %h2, %kh : index
          %w2 = arith.muli %w, %c2 : index
          %wi = arith.addi %w2, %kw : index
          %x = memref.load %in[%hi, %wi, %c] : memref<64x64x32xf32>
          %acc = memref.load %out[%h, %w, %c] : memref<32x32x32xf32>
          %m = arith.maximumf %acc, %x : f32
          memref.store %m, %out[%h, %w, %c] : memref<32x32x32xf32>
        }
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: func.func @host(
// CHECK-DAG: %[[GRID:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @m::@pool blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%[[BLOCK]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @pool(
// CHECK-SAME: %[[IN:.*]]: memref<64x64x32xf32>, %[[OUT:.*]]: memref<32x32x32xf32>) kernel
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 128, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[BASE:.*]] = arith.muli %[[BID]], %{{.*}} : index
// CHECK: %[[LINEAR:.*]] = arith.addi %[[BASE]], %[[TID]] : index
// The channels, contiguous in both buffers, take consecutive threads.
// CHECK: %[[C:.*]] = arith.remui %[[LINEAR]], %{{.*}} : index
// CHECK: %[[REST:.*]] = arith.divui %[[LINEAR]], %{{.*}} : index
// CHECK: %[[W:.*]] = arith.remui %[[REST]], %{{.*}} : index
// CHECK: %[[H:.*]] = arith.divui %[[REST]], %{{.*}} : index
// The accumulated element is loaded once, kept in a register and stored once.
// CHECK: %[[INIT:.*]] = memref.load %[[OUT]][%[[H]], %[[W]], %[[C]]]
// CHECK: %[[MAX:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK: scf.for %{{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (f32) {
// CHECK: %[[X:.*]] = memref.load %[[IN]][%{{.*}}, %{{.*}}, %[[C]]]
// CHECK: %[[M:.*]] = arith.maximumf %[[ACC2]], %[[X]] : f32
// CHECK: scf.yield %[[M]] : f32
// CHECK-NOT: memref.store
// CHECK: memref.store %[[MAX]], %[[OUT]][%[[H]], %[[W]], %[[C]]]
// CHECK-NEXT: gpu.return

// -----

// Host arguments that may overlap: each launch checks on the host that the
// written buffer lies apart from the others, runs the mapped kernel where it
// does and a copy of the original kernel, with its geometry, where not.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<64x128xf32>, %out: memref<128x64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @m::@flip blocks in (%c128, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<64x128xf32>, %out : memref<128x64xf32>)
    return
  }
  gpu.module @m {
    gpu.func @flip(%in: memref<64x128xf32>, %out: memref<128x64xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %in[%t, %b] : memref<64x128xf32>
      memref.store %v, %out[%b, %t] : memref<128x64xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[IN:.*]]: memref<64x128xf32>, %[[OUT:.*]]: memref<128x64xf32>)
// CHECK: %[[APART:.*]] = arith.ori
// CHECK: scf.if %[[APART]] {
// CHECK: gpu.launch_func @m::@flip blocks in (%{{.*}}) threads in (%{{.*}}) args(%[[IN]] : memref<64x128xf32>, %[[OUT]] : memref<128x64xf32>)
// CHECK: } else {
// CHECK: gpu.launch_func @m::@flip_unmapped blocks in (%c128, %c1, %c1) threads in (%c64, %c1, %c1) args(%[[IN]] : memref<64x128xf32>, %[[OUT]] : memref<128x64xf32>)
// CHECK-LABEL: gpu.func @flip(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 32, 1, 1>
// CHECK-LABEL: gpu.func @flip_unmapped(
// CHECK-SAME: autoprof.fallback_of = @flip
// CHECK: gpu.block_id x
// CHECK: gpu.thread_id x
