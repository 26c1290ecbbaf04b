// vectorize on a 2-D launch: each thread takes over 4 consecutive threads
// along x, whose accesses walk contiguous memory; loads that do not depend
// on x are shared by the 4 elements.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=vectorize=4" | FileCheck %s

// CHECK-LABEL: gpu.func @scale_rows
// CHECK-SAME: known_grid_size = array<i32: 32, 512, 1>
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[BID:.*]] = gpu.block_id x
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[ROWSTART:.*]] = arith.muli %[[BID]], %[[C32]]
// CHECK: %[[G:.*]] = arith.addi %[[ROWSTART]], %[[TID]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[G]], %[[C4]]
// CHECK: arith.remui %[[FIRST]], %[[C32]]
// CHECK: arith.divui %[[FIRST]], %[[C32]]
// CHECK: %[[S:.*]] = memref.load %{{.*}}[%[[ROW:.*]]] : memref<4096xf32>
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: %[[A:.*]] = vector.load %{{.*}}[%[[ROW]], %[[COL:.*]]] {alignment = 16 : i64} : memref<4096x4096xf32>, vector<4xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[SPLAT]] : vector<4xf32>
// CHECK: vector.store %[[P]], %{{.*}}[%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<4096x4096xf32>, vector<4xf32>
// CHECK-NOT: memref.store
// CHECK: gpu.return
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[B32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[B8:.*]] = arith.constant 8 : index
// CHECK: %[[GX:.*]] = arith.constant 32 : index
// CHECK-NEXT: gpu.launch_func @kernels::@scale_rows blocks in (%[[GX]], %[[C512]], %{{.*}}) threads in (%[[B32]], %[[B8]], %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale_rows(%a: memref<4096x4096xf32>, %s: memref<4096xf32>, %out: memref<4096x4096xf32>) kernel {
      %c32 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c32 : index
      %col = arith.addi %0, %tx : index
      %1 = arith.muli %by, %c8 : index
      %row = arith.addi %1, %ty : index
      %scale = memref.load %s[%row] : memref<4096xf32>
      %v = memref.load %a[%row, %col] : memref<4096x4096xf32>
      %p = arith.mulf %v, %scale : f32
      memref.store %p, %out[%row, %col] : memref<4096x4096xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<4096x4096xf32>, %s: memref<4096xf32>, %out: memref<4096x4096xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    gpu.launch_func @kernels::@scale_rows blocks in (%c128, %c512, %c1) threads in (%c32, %c8, %c1) args(%a : memref<4096x4096xf32>, %s : memref<4096xf32>, %out : memref<4096x4096xf32>)
    return
  }
}
