// contraction-tile on a convolution over an image whose threads a remap
// rounded up (a bounds check lets the pixels of each row through): the
// results' columns run over both image dimensions, rows of 12 pixels times
// 4 image rows, 48 columns that a tile of 16 divides where 12 does not;
// the bounds check holds for every result of the tiles and goes.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=contraction-tile=16" | FileCheck %s

// out[f][y][x] += sum_{c, ky, kx} in[c][y + ky][x + kx] * w[f][c][ky][kx]:
// x along thread x (16 threads, 12 pass the check), f along thread y, y
// along block z.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @conv(
    // CHECK-SAME: known_block_size = array<i32: 16, 16, 1>, known_grid_size = array<i32: 3, 1, 1>
    // A column's pixel and image row.
    // CHECK-DAG: arith.remui %{{.*}}, %c12
    // CHECK-DAG: arith.divui %{{.*}}, %c12
    // CHECK-NOT: scf.if
    // CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
    // CHECK: gpu.barrier
    // CHECK: arith.mulf {{.*}} fastmath<contract>
    // CHECK-NOT: scf.if
    // CHECK: memref.store %{{.*}} : memref<16x4x12xf32>
    // CHECK: gpu.return
    gpu.func @conv(%in: memref<2x6x14xf32>, %w: memref<16x2x3x3xf32>, %out: memref<16x4x12xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c12 = arith.constant 12 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %f = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %x = arith.addi %0, %tx : index
      %inside = arith.cmpi ult, %x, %c12 : index
      scf.if %inside {
        %init = memref.load %out[%f, %bz, %x] : memref<16x4x12xf32>
        %sum = scf.for %c = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (f32) {
          %s1 = scf.for %ky = %c0 to %c3 step %c1 iter_args(%acc1 = %acc) -> (f32) {
            %s2 = scf.for %kx = %c0 to %c3 step %c1 iter_args(%acc2 = %acc1) -> (f32) {
              %y = arith.addi %bz, %ky : index
              %xk = arith.addi %x, %kx : index
              %a = memref.load %in[%c, %y, %xk] : memref<2x6x14xf32>
              %b = memref.load %w[%f, %c, %ky, %kx] : memref<16x2x3x3xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %acc2, %p : f32
              scf.yield %s : f32
            }
            scf.yield %s2 : f32
          }
          scf.yield %s1 : f32
        }
        memref.store %sum, %out[%f, %bz, %x] : memref<16x4x12xf32>
      }
      gpu.return
    }
  }
  func.func @main(%in: memref<2x6x14xf32>, %w: memref<16x2x3x3xf32>, %out: memref<16x4x12xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@conv blocks in (%c1, %c1, %c4) threads in (%c16, %c16, %c1) args(%in : memref<2x6x14xf32>, %w : memref<16x2x3x3xf32>, %out : memref<16x4x12xf32>)
    return
  }
}
