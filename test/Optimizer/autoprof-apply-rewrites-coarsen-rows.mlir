// coarsen-rows=R makes each thread do the work of R threads that are
// neighbours along y (or z; along x where windows slide along x alone): the
// grid along that dimension shrinks by R, the ids there become those of the
// original threads g*R .. g*R+R-1 (g the thread's global index), and the
// loops over the R threads are jammed: the window loops carry R
// accumulators, so that the rows the R windows share are loaded in one
// iteration (LLVM merges the equal loads). Along x the window loops are
// unrolled and the neighbouring elements read and written as aligned
// vectors.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=coarsen-rows=4" --canonicalize --cse | FileCheck %s
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=coarsen-rows=4" --canonicalize --cse | FileCheck %s --check-prefix=LOADS

// A 3x3 convolution on blocks of 32 x 8 threads, the accumulator in a
// register: rows 4g .. 4g+3 per thread, the grid along y 8 -> 2.
// CHECK-LABEL: gpu.func @conv3x3
// CHECK-SAME: known_grid_size = array<i32: 4, 2, 1>
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK: %[[FIRST:.*]] = arith.muli %[[BY]], %[[C8]] : index
// CHECK: %[[G:.*]] = arith.addi %[[FIRST]], %[[TY]] : index
// CHECK: %[[ROW0:.*]] = arith.muli %[[G]], %[[C4]] : index
// CHECK: %[[INIT0:.*]] = memref.load %{{.*}}[%[[ROW0]], %[[COL:.*]]] : memref<64x128xf32>
// CHECK: %[[ROW1:.*]] = arith.addi %[[ROW0]], %[[C1]] : index
// CHECK: memref.load %{{.*}}[%[[ROW1]], %[[COL]]] : memref<64x128xf32>
// CHECK: %[[ROW2:.*]] = arith.addi %[[ROW0]], %[[C2]] : index
// CHECK: %[[ROW3:.*]] = arith.addi %[[ROW0]], %[[C3]] : index
// CHECK: %[[SUMS:.*]]:4 = scf.for %[[KH:.*]] = {{.*}} iter_args(%{{.*}} = %[[INIT0]], {{.*}}) -> (f32, f32, f32, f32) {
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32) {
// CHECK: arith.addi %[[ROW0]], %[[KH]] : index
// CHECK: memref.load %{{.*}} : memref<66x130xf32>
// CHECK: memref.load %{{.*}} : memref<3x3xf32>
// CHECK: arith.addi %[[ROW1]], %[[KH]] : index
// CHECK: memref.load %{{.*}} : memref<66x130xf32>
// CHECK-NOT: memref.load %{{.*}} : memref<3x3xf32>
// CHECK: arith.addi %[[ROW3]], %[[KH]] : index
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32, f32
// CHECK: memref.store %[[SUMS]]#0, %{{.*}}[%[[ROW0]], %[[COL]]]
// CHECK: memref.store %[[SUMS]]#1, %{{.*}}[%[[ROW1]], %[[COL]]]
// CHECK: memref.store %[[SUMS]]#2, %{{.*}}[%[[ROW2]], %[[COL]]]
// CHECK: memref.store %[[SUMS]]#3, %{{.*}}[%[[ROW3]], %[[COL]]]
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@conv3x3 blocks in (%{{.*}}, %[[C2M:.*]], %{{.*}}) threads in
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @conv3x3(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %by, %c8 : index
      %i = arith.addi %0, %ty : index
      %1 = arith.muli %bx, %c32 : index
      %j = arith.addi %1, %tx : index
      %init = memref.load %out[%i, %j] : memref<64x128xf32>
      %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
        %row = scf.for %kw = %c0 to %c3 step %c1 iter_args(%b = %a) -> (f32) {
          %r = arith.addi %i, %kh : index
          %c = arith.addi %j, %kw : index
          %x = memref.load %in[%r, %c] : memref<66x130xf32>
          %w = memref.load %k[%kh, %kw] : memref<3x3xf32>
          %p = arith.mulf %x, %w : f32
          %s = arith.addf %b, %p : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@conv3x3 blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x130xf32>, %k : memref<3x3xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// A 3-tap sum down the rows of a CHW tensor, the rows along z with one
// thread per block there, the row index through gpu.block_dim and a guard
// on gpu.grid_dim: the grid along z shrinks 16 -> 4, the guard keeps the
// original grid's 16 rows, the row is block_id.z * 4 + j. Each row's guard
// differs, so the loops are not jammed: the four rows run one after the
// other, each under its guard.
// CHECK-LABEL: gpu.func @rows3
// CHECK-SAME: known_grid_size = array<i32: 4, 2, 4>
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[BZ:.*]] = gpu.block_id z
// CHECK: %[[ROW0:.*]] = arith.muli %[[BZ]], %[[C4]] : index
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[ROW0]], %[[C16]] : index
// CHECK: scf.if %[[IN0]] {
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[ROW0]], %{{.*}}]
// CHECK: %[[ROW1:.*]] = arith.addi %[[ROW0]], %[[C1]] : index
// CHECK: arith.cmpi ult, %[[ROW1]], %[[C16]] : index
// CHECK-COUNT-2: scf.if
// CHECK: %[[ROW3:.*]] = arith.addi %[[ROW0]], %[[C3]] : index
// CHECK: %[[IN3:.*]] = arith.cmpi ult, %[[ROW3]], %[[C16]] : index
// CHECK: scf.if %[[IN3]] {
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[ROW3]], %{{.*}}]
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@rows3 blocks in (%{{.*}}, %{{.*}}, %[[C4M:.*]]) threads in
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows3(%in: memref<2x18x128xf32>, %out: memref<2x16x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %dx = gpu.block_dim x
      %dz = gpu.block_dim z
      %nz = gpu.grid_dim z
      %0 = arith.muli %bx, %dx : index
      %w = arith.addi %0, %tx : index
      %tz = gpu.thread_id z
      %1 = arith.muli %bz, %dz : index
      %h = arith.addi %1, %tz : index
      %rows = arith.muli %nz, %dz : index
      %inside = arith.cmpi ult, %h, %rows : index
      scf.if %inside {
        %init = memref.load %out[%by, %h, %w] : memref<2x16x128xf32>
        %sum = scf.for %t = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
          %r = arith.addi %h, %t : index
          %x = memref.load %in[%by, %r, %w] : memref<2x18x128xf32>
          %s = arith.addf %a, %x : f32
          scf.yield %s : f32
        }
        memref.store %sum, %out[%by, %h, %w] : memref<2x16x128xf32>
      }
      gpu.return
    }
  }
  func.func @main(%in: memref<2x18x128xf32>, %out: memref<2x16x128xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@rows3 blocks in (%c4, %c2, %c16) threads in (%c32, %c1, %c1) args(%in : memref<2x18x128xf32>, %out : memref<2x16x128xf32>)
    return
  }
}


// -----

// A 9-tap 1-D convolution along x on blocks of 64 threads, the accumulator
// in a register: no window slides along y or z, so the thread runs the 4
// neighbours 4g .. 4g+3 along x (grid 16 -> 4). The window loop is
// unrolled, the 12 input elements the 4 windows read are 3 aligned vector
// loads, the 4 outputs one vector load and one vector store; the filter's
// 9 taps are loaded once for all 4.
// CHECK-LABEL: gpu.func @conv1d_x
// CHECK-SAME: known_grid_size = array<i32: 4, 1, 1>
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %[[C64]] : index
// CHECK: %[[G:.*]] = arith.addi %[[FIRST]], %[[TX]] : index
// CHECK: %[[BASE:.*]] = arith.muli %[[G]], %[[C4]] : index
// CHECK: vector.load %{{.*}}[%[[BASE]]] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK: vector.load %{{.*}}[%[[BASE]]] {alignment = 16 : i64} : memref<4104xf32>, vector<4xf32>
// CHECK: %[[AT4:.*]] = arith.addi %[[BASE]], %[[C4]] : index
// CHECK: vector.load %{{.*}}[%[[AT4]]] {alignment = 16 : i64} : memref<4104xf32>, vector<4xf32>
// CHECK: %[[AT8:.*]] = arith.addi %[[BASE]], %[[C8]] : index
// CHECK: vector.load %{{.*}}[%[[AT8]]] {alignment = 16 : i64} : memref<4104xf32>, vector<4xf32>
// CHECK: %[[OUT:.*]] = vector.from_elements
// CHECK: vector.store %[[OUT]], %{{.*}}[%[[BASE]]] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK: gpu.return
// LOADS-LABEL: gpu.func @conv1d_x
// LOADS-NOT: memref.load %{{.*}} : memref<4104xf32>
// LOADS-COUNT-9: memref.load %{{.*}} : memref<9xf32>
// LOADS-NOT: memref.load
// LOADS-NOT: memref.store
// LOADS: gpu.return
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@conv1d_x blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @conv1d_x(%in: memref<4104xf32>, %k: memref<9xf32>, %out: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 16, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c9 = arith.constant 9 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %c64 : index
      %i = arith.addi %0, %tx : index
      %init = memref.load %out[%i] : memref<4096xf32>
      %sum = scf.for %t = %c0 to %c9 step %c1 iter_args(%a = %init) -> (f32) {
        %j = arith.addi %i, %t : index
        %x = memref.load %in[%j] : memref<4104xf32>
        %w = memref.load %k[%t] : memref<9xf32>
        %p = arith.mulf %x, %w : f32
        %s = arith.addf %a, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<4104xf32>, %k: memref<9xf32>, %out: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@conv1d_x blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<4104xf32>, %k : memref<9xf32>, %out : memref<4096xf32>)
    return
  }
}

// -----

// A 3-tap window along x over rows of 130 elements: a row starts 8-byte
// but not 16-byte aligned, so the 6 elements the 4 windows read are 3
// aligned pairs; the outputs' rows of 128 elements are 16-byte aligned,
// one vector store.
// CHECK-LABEL: gpu.func @rows_x
// CHECK-SAME: known_grid_size = array<i32: 1, 8, 1>
// CHECK-NOT: vector<4xf32>
// CHECK-COUNT-3: vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<8x130xf32>, vector<2xf32>
// CHECK-NOT: memref.load
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<8x128xf32>, vector<4xf32>
// CHECK-NOT: memref.store
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rows_x(%in: memref<8x130xf32>, %out: memref<8x128xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 4, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %c32 : index
      %j = arith.addi %0, %tx : index
      %sum = scf.for %t = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (f32) {
        %c = arith.addi %j, %t : index
        %x = memref.load %in[%by, %c] : memref<8x130xf32>
        %s = arith.addf %a, %x : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%by, %j] : memref<8x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<8x130xf32>, %out: memref<8x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@rows_x blocks in (%c4, %c8, %c1) threads in (%c32, %c1, %c1) args(%in : memref<8x130xf32>, %out : memref<8x128xf32>)
    return
  }
}
