// coalesce on IR: the dimension the accesses walk contiguously moves to x,
// with 32 threads of a block along it; every dimension keeps its threads.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=coalesce=32" | FileCheck %s

// A 3-D copy mapped i -> x, k -> z: thread x walks the slowest dimension.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy3d(%in: memref<64x64x64xf32>, %out: memref<64x64x64xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %dz = gpu.block_dim z
      %i0 = arith.muli %bx, %dx : index
      %i = arith.addi %i0, %tx : index
      %j0 = arith.muli %by, %dy : index
      %j = arith.addi %j0, %ty : index
      %k0 = arith.muli %bz, %dz : index
      %k = arith.addi %k0, %tz : index
      %v = memref.load %in[%i, %j, %k] : memref<64x64x64xf32>
      memref.store %v, %out[%i, %j, %k] : memref<64x64x64xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64x64xf32>, %out: memref<64x64x64xf32>) {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@copy3d blocks in (%c8, %c8, %c16) threads in (%c8, %c8, %c4) args(%in : memref<64x64x64xf32>, %out : memref<64x64x64xf32>)
    return
  }
}

// The ids of x and z trade places, so k (the contiguous index) comes from x.
// CHECK-LABEL: gpu.func @copy3d
// CHECK: %[[BZ:.*]] = gpu.block_id z
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[TZ:.*]] = gpu.thread_id z
// CHECK: %[[TY:.*]] = gpu.thread_id y
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: %[[DZ:.*]] = gpu.block_dim z
// CHECK: %[[DY:.*]] = gpu.block_dim y
// CHECK: %[[DX:.*]] = gpu.block_dim x
// CHECK: %[[I0:.*]] = arith.muli %[[BZ]], %[[DZ]] : index
// CHECK: %[[I:.*]] = arith.addi %[[I0]], %[[TZ]] : index
// CHECK: %[[K0:.*]] = arith.muli %[[BX]], %[[DX]] : index
// CHECK: %[[K:.*]] = arith.addi %[[K0]], %[[TX]] : index
// CHECK: memref.load %{{.*}}[%[[I]], %{{.*}}, %[[K]]]
// 64 threads along each dimension: blocks of (32, 8, 1), grid (2, 8, 64).
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@copy3d blocks in (%c2{{(_[0-9]+)?}}, %c8{{(_[0-9]+)?}}, %c64{{(_[0-9]+)?}}) threads in (%c32{{(_[0-9]+)?}}, %c8{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}})
