// contraction-tile where the tile does not divide the results: the grid
// rounds up, the rows and columns of the edge tiles past the results are
// clamped to the last one (every load reads what a result of the kernel
// reads) and each result stores under its own bounds check.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-tile=32" | FileCheck %s

// 48 x 48 results in tiles of 32.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @k(
    // CHECK-SAME: known_block_size = array<i32: 8, 8, 1>, known_grid_size = array<i32: 2, 2, 1>
    // The rows and columns of the second tiles, clamped to the last: rows
    // of A one by one (a row is not A's contiguous side), the neighbouring
    // columns of B that a copy loads together (4 (min(c / 4, 11)) + j: 48 is
    // a multiple of 4), so that they stay one vector load.
    // CHECK: arith.minui %{{.*}}, %c47
    // CHECK: vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
    // CHECK: %[[GROUP:.*]] = arith.minui %{{.*}}, %c11 : index
    // CHECK: %[[COLUMN:.*]] = arith.muli %[[GROUP]], %c4 : index
    // CHECK: vector.load %arg1[%{{.*}}, %[[COLUMN]]] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
    // CHECK-NOT: memref.load %arg1
    // CHECK: scf.for
    // CHECK: gpu.barrier
    // Each result stores under its bounds check.
    // CHECK: scf.if %{{.*}} {
    // CHECK-NEXT: memref.store %{{.*}} : memref<64x64xf32>
    // CHECK-NEXT: }
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @kernels::@k blocks in (%c3, %c3, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// A convolution over an image of 4 rows of 10 pixels (a remap's bounds
// check lets 10 of 16 threads through): 32 x 40 results in tiles of 32.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @conv(
    // CHECK-SAME: known_block_size = array<i32: 8, 8, 1>, known_grid_size = array<i32: 2, 1, 1>
    // CHECK: arith.minui %{{.*}}, %c39
    // CHECK: scf.if
    // CHECK: memref.store %{{.*}} : memref<32x4x10xf32>
    gpu.func @conv(%in: memref<2x6x12xf32>, %w: memref<32x2x3x3xf32>, %out: memref<32x4x10xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c10 = arith.constant 10 : index
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %x = arith.addi %0, %tx : index
      %1 = arith.muli %by, %c16 : index
      %f = arith.addi %1, %ty : index
      %inside = arith.cmpi ugt, %c10, %x : index
      scf.if %inside {
        %init = memref.load %out[%f, %bz, %x] : memref<32x4x10xf32>
        %sum = scf.for %c = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (f32) {
          %s1 = scf.for %ky = %c0 to %c3 step %c1 iter_args(%acc1 = %acc) -> (f32) {
            %s2 = scf.for %kx = %c0 to %c3 step %c1 iter_args(%acc2 = %acc1) -> (f32) {
              %y = arith.addi %bz, %ky : index
              %xk = arith.addi %x, %kx : index
              %a = memref.load %in[%c, %y, %xk] : memref<2x6x12xf32>
              %b = memref.load %w[%f, %c, %ky, %kx] : memref<32x2x3x3xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %acc2, %p : f32
              scf.yield %s : f32
            }
            scf.yield %s2 : f32
          }
          scf.yield %s1 : f32
        }
        memref.store %sum, %out[%f, %bz, %x] : memref<32x4x10xf32>
      }
      gpu.return
    }
  }
  func.func @main(%in: memref<2x6x12xf32>, %w: memref<32x2x3x3xf32>, %out: memref<32x4x10xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@conv blocks in (%c1, %c2, %c4) threads in (%c16, %c16, %c1) args(%in : memref<2x6x12xf32>, %w : memref<32x2x3x3xf32>, %out : memref<32x4x10xf32>)
    return
  }
}
