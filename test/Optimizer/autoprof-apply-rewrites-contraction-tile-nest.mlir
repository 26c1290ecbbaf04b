// contraction-tile on a contraction over a perfect nest of loops (a
// convolution's channels and window after register-accumulate): the nest
// folds into one loop over the product of its trip counts (upstream's
// coalesceLoops), whose iteration gives back the channel and the window's
// offsets by division, and the folded loop is tiled as any contraction:
// an implicit GEMM whose reduction dimension is (channel, ky, kx).
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=contraction-tile=16" | FileCheck %s

// out[f][y] += sum_{c, k} in[c][y + k] * w[f][c][k] over 8 channels and 3
// taps: 24 iterations, two stages of 16 (the second runs 8).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @conv(
    // CHECK-SAME: workgroup(%[[IN:.*]] : memref<16x17xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[W:.*]] : memref<16x17xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
    // CHECK-SAME: known_block_size = array<i32: 16, 16, 1>, known_grid_size = array<i32: 4, 2, 1>
    // The first stage's elements: the channel and the tap of iteration
    // (depth) recomputed by division.
    // CHECK: arith.floordivsi %{{.*}}, %c3
    // CHECK: memref.load %{{.*}} : memref<8x66xf32>
    // CHECK: memref.load %{{.*}} : memref<32x8x3xf32>
    // Two stages.
    // CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
    // CHECK: gpu.barrier
    // CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args
    // CHECK: memref.load %[[IN]]
    // CHECK: memref.load %[[W]]
    // CHECK: arith.mulf {{.*}} fastmath<contract>
    // CHECK-NOT: scf.for
    // CHECK: memref.store %{{.*}} : memref<32x64xf32>
    // CHECK: gpu.return
    gpu.func @conv(%in: memref<8x66xf32>, %w: memref<32x8x3xf32>, %out: memref<32x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %y = arith.addi %0, %tx : index
      %f = arith.addi %1, %ty : index
      %init = memref.load %out[%f, %y] : memref<32x64xf32>
      %sum = scf.for %c = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (f32) {
        %inner = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc2 = %acc) -> (f32) {
          %yk = arith.addi %y, %k : index
          %a = memref.load %in[%c, %yk] : memref<8x66xf32>
          %b = memref.load %w[%f, %c, %k] : memref<32x8x3xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc2, %p : f32
          scf.yield %s : f32
        }
        scf.yield %inner : f32
      }
      memref.store %sum, %out[%f, %y] : memref<32x64xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<8x66xf32>, %w: memref<32x8x3xf32>, %out: memref<32x64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@conv blocks in (%c4, %c2, %c1) threads in (%c16, %c16, %c1) args(%in : memref<8x66xf32>, %w : memref<32x8x3xf32>, %out : memref<32x64xf32>)
    return
  }
}
