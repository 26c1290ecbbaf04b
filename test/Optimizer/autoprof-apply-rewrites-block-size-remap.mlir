// block-size=N on kernels that do not use their x ids only as block_id *
// block_dim + thread_id: the threads are remapped (every original id
// recomputed from the new global index), so every use of the old geometry,
// literals included, stays true.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=block-size=128" | FileCheck %s

// The thread id alone indexes one block of 256: each thread of the new
// 2 x 128 launch recovers it as its global index modulo 256.
// CHECK-LABEL: gpu.func @tid_only
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 1, 1>
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %[[C128]] : index
// CHECK: %[[G:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK: %[[TID:.*]] = arith.remui %[[G]], %[[C256]] : index
// CHECK: memref.load %{{.*}}[%[[TID]]]
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@tid_only blocks in (%[[GX:[^,]*]], %{{.*}}, %{{.*}}) threads in (%[[BX:[^,]*]], %{{.*}}, %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tid_only(%x: memref<256xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<256xf32>
      memref.store %v, %x[%tid] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@tid_only blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<256xf32>)
    return
  }
}

// -----

// The block size spelled as a literal: block_id * 64 + thread_id. The remap
// rebuilds the original ids from the new global index, so the literal 64
// meets 64-thread ids again and the index folds to the new global index.
// CHECK-LABEL: gpu.func @literal
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 32, 1, 1>
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %[[C128]] : index
// CHECK: %[[G:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK: memref.load %{{.*}}[%[[G]]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[G]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @literal(%a: memref<4096xf32>) kernel {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %a[%i] : memref<4096xf32>
      memref.store %v, %a[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@literal blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<4096xf32>)
    return
  }
}

// -----

// The thread id added to a product that is not block_id * block_dim: each
// thread walks a strided column of its block. After the remap each thread
// recovers its original thread id (global index modulo 64) for the column.
// CHECK-LABEL: gpu.func @strided
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 32, 1, 1>
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[TID:.*]] = arith.remui %{{.*}}, %[[C64]] : index
// CHECK: scf.for
// CHECK: arith.addi %[[TID]], %{{.*}} : index
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @strided(%a: memref<4096xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      scf.for %k = %c0 to %c64 step %c1 {
        %row = arith.muli %k, %c64 : index
        %i = arith.addi %tid, %row : index
        %v = memref.load %a[%i] : memref<4096xf32>
        memref.store %v, %a[%i] : memref<4096xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@strided blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<4096xf32>)
    return
  }
}
