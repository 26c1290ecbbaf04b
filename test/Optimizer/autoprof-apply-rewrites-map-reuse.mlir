// map-reuse on IR: each thread takes R consecutive points along the
// parallel dimension whose points share the largest loads per reduction
// point; the R copies of the body load those elements once and keep R
// accumulators in registers.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-reuse=4" | FileCheck %s

// A 3x3 convolution, NCHW, whose output channels f upstream left to a
// per-thread loop: out[f][y][x] += in[c][y + ky][x + kx] * w[f][c][ky][kx].
// x is contiguous; the input does not depend on f, so 4 channels share
// each input element a thread loads.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<8x66x66xf32> {llvm.noalias}, %w: memref<16x8x3x3xf32> {llvm.noalias}, %out: memref<16x64x64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@conv blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<8x66x66xf32>, %w : memref<16x8x3x3xf32>, %out : memref<16x64x64xf32>)
    return
  }
  gpu.module @m {
    gpu.func @conv(%in: memref<8x66x66xf32>, %w: memref<16x8x3x3xf32>, %out: memref<16x64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %y = gpu.block_id x
      %x = gpu.thread_id x
      scf.for %f = %c0 to %c16 step %c1 {
        scf.for %c = %c0 to %c8 step %c1 {
          scf.for %ky = %c0 to %c3 step %c1 {
            scf.for %kx = %c0 to %c3 step %c1 {
              %iy = arith.addi %y, %ky : index
              %ix = arith.addi %x, %kx : index
              %a = memref.load %in[%c, %iy, %ix] : memref<8x66x66xf32>
              %b = memref.load %w[%f, %c, %ky, %kx] : memref<16x8x3x3xf32>
              %acc = memref.load %out[%f, %y, %x] : memref<16x64x64xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %acc, %p : f32
              memref.store %s, %out[%f, %y, %x] : memref<16x64x64xf32>
            }
          }
        }
      }
      gpu.return
    }
  }
}
// 16 x 64 x 64 points, 4 per thread: 64 blocks of 256.
// CHECK-LABEL: gpu.func @conv(
// CHECK-SAME: %[[IN:.*]]: memref<8x66x66xf32>, %[[W:.*]]: memref<16x8x3x3xf32>, %[[OUT:.*]]: memref<16x64x64xf32>) kernel
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 64, 1, 1>
// The thread's first channel is 4 times its index along f.
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[FI:.*]] = arith.remui %{{.*}}, %[[C4]] : index
// CHECK: %[[F0:.*]] = arith.muli %[[FI]], %[[C4]] : index
// CHECK: %[[F1:.*]] = arith.addi %[[F0]], %{{.*}} : index
// CHECK: %[[F2:.*]] = arith.addi %[[F0]], %{{.*}} : index
// CHECK: %[[F3:.*]] = arith.addi %[[F0]], %{{.*}} : index
// Four accumulators from the output, through the reduction loops.
// CHECK: %[[A0:.*]] = memref.load %[[OUT]][%[[F0]], %[[Y:.*]], %[[X:.*]]]
// CHECK: %[[A1:.*]] = memref.load %[[OUT]][%[[F1]], %[[Y]], %[[X]]]
// CHECK: %[[A2:.*]] = memref.load %[[OUT]][%[[F2]], %[[Y]], %[[X]]]
// CHECK: %[[A3:.*]] = memref.load %[[OUT]][%[[F3]], %[[Y]], %[[X]]]
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[A0]], %{{.*}} = %[[A1]], %{{.*}} = %[[A2]], %{{.*}} = %[[A3]])
// CHECK: scf.for
// CHECK: scf.for
// One load of the input for the four channels, a load of each channel's
// weight, four products.
// CHECK: memref.load %[[IN]]
// CHECK-NOT: memref.load %[[IN]]
// CHECK-COUNT-4: memref.load %[[W]]
// CHECK-NOT: memref.load %[[IN]]
// CHECK: scf.yield
// Each channel's result stored once.
// CHECK-COUNT-4: memref.store %{{.*}}, %[[OUT]]
// CHECK: gpu.return
