// coalesce on upstream's tiled mapping: the index multiplies block_id by the
// literal tile size 16, which no rule about block_dim covers. The thread
// ids are remapped instead: each new thread computes the original global
// index along each dimension, so the rows (slow, were x) run along y with 8
// threads per block and the columns (contiguous, were y) along x with 32.
// RUN: autoprof-opt %s --split-input-file --autoprof-apply-rewrites="rewrites=coalesce=32" --cse | FileCheck %s

// CHECK-LABEL: gpu.func @tiled_copy
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>, known_grid_size = array<i32: 2, 32, 1>
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[ROWBASE:.*]] = arith.muli %[[BY]], %[[C8]] : index
// CHECK-DAG: %[[ROW:.*]] = arith.addi %[[ROWBASE]], %[[TY]] : index
// CHECK-DAG: %[[COLBASE:.*]] = arith.muli %[[BX]], %[[C32]] : index
// CHECK-DAG: %[[COL:.*]] = arith.addi %[[COLBASE]], %[[TX]] : index
// CHECK-NOT: arith.remui
// CHECK-NOT: arith.divui
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK: memref.store %[[V]], %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[G2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[N32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[N8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[N1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch_func @kernels::@tiled_copy blocks in (%[[G2]], %[[N32]], %[[N1]]) threads in (%[[N32]], %[[N8]], %[[N1]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tiled_copy(%a: memref<256x64xf32>, %b: memref<256x64xf32>) kernel {
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %r0 = arith.muli %bx, %c16 : index
      %c0 = arith.muli %by, %c16 : index
      %i = arith.addi %tx, %r0 : index
      %j = arith.addi %ty, %c0 : index
      %v = memref.load %a[%i, %j] : memref<256x64xf32>
      memref.store %v, %b[%i, %j] : memref<256x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<256x64xf32>, %b: memref<256x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@tiled_copy blocks in (%c16, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<256x64xf32>, %b : memref<256x64xf32>)
    return
  }
}

// -----

// Two loads of a row's statistics (contiguous along x, where the rows run)
// against one load and one store of the row's elements (contiguous along
// y): every thread of a row shares the statistics, so they weigh 1/16 of a
// vote each and the columns still go to x.
// CHECK-LABEL: gpu.func @tiled_normalize
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>, known_grid_size = array<i32: 2, 32, 1>
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[ROWBASE:.*]] = arith.muli %[[BY]], %{{.*}} : index
// CHECK-DAG: %[[ROW:.*]] = arith.addi %[[ROWBASE]], %[[TY]] : index
// CHECK-DAG: %[[COLBASE:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK-DAG: %[[COL:.*]] = arith.addi %[[COLBASE]], %[[TX]] : index
// CHECK: memref.load %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK: memref.load %{{.*}}[%[[ROW]]]
// CHECK: memref.load %{{.*}}[%[[ROW]]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK-LABEL: func.func @normalize
// CHECK: gpu.launch_func @kernels::@tiled_normalize blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tiled_normalize(%x: memref<256x64xf32>, %mean: memref<256xf32>, %rstd: memref<256xf32>, %out: memref<256x64xf32>) kernel {
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %r0 = arith.muli %bx, %c16 : index
      %c0 = arith.muli %by, %c16 : index
      %i = arith.addi %tx, %r0 : index
      %j = arith.addi %ty, %c0 : index
      %v = memref.load %x[%i, %j] : memref<256x64xf32>
      %m = memref.load %mean[%i] : memref<256xf32>
      %r = memref.load %rstd[%i] : memref<256xf32>
      %d = arith.subf %v, %m : f32
      %y = arith.mulf %d, %r : f32
      memref.store %y, %out[%i, %j] : memref<256x64xf32>
      gpu.return
    }
  }
  func.func @normalize(%x: memref<256x64xf32>, %mean: memref<256xf32>, %rstd: memref<256xf32>, %out: memref<256x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@tiled_normalize blocks in (%c16, %c4, %c1) threads in (%c16, %c16, %c1) args(%x : memref<256x64xf32>, %mean : memref<256xf32>, %rstd : memref<256xf32>, %out : memref<256x64xf32>)
    return
  }
}
