// transpose-tile on IR: a transposition staged through a padded shared
// tile, loaded along the input's contiguous dimension and stored along the
// output's.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=transpose-tile=32" | FileCheck %s

// Upstream's tiled mapping of a 48x80 transpose: 16x16 blocks, x along the
// output's contiguous dimension. Neither 48 nor 80 is a multiple of 32: the
// tile's elements past the edge are guarded, the barrier is not.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<80x48xf32>, %out: memref<48x80xf32>) kernel {
      %c16 = arith.constant 16 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 overflow<nsw> : index
      %1 = arith.muli %by, %c16 overflow<nsw> : index
      %i = arith.addi %tx, %0 : index
      %j = arith.addi %ty, %1 : index
      %v = memref.load %in[%j, %i] : memref<80x48xf32>
      %w = arith.negf %v : f32
      memref.store %w, %out[%i, %j] : memref<48x80xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<80x48xf32>, %out: memref<48x80xf32>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@transpose blocks in (%c3, %c5, %c1) threads in (%c16, %c16, %c1) args(%in : memref<80x48xf32>, %out : memref<48x80xf32>)
    return
  }
}

// The load walks the input along x (%i, its inner index), the store the
// output along y (%j): the tile's lanes run along x's global index in the
// load phase and along y's in the store phase; each of 8 rows of threads
// handles 4 rows of the tile. The original ids come back from the global
// index of the element (divui / remui by the original 16), and the value's
// code (the negation) is in the store phase.
// CHECK-LABEL: gpu.func @transpose
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>, known_grid_size = array<i32: 2, 3, 1>
// CHECK: %[[LANE:.*]] = gpu.thread_id x
// CHECK: %[[ROW:.*]] = gpu.thread_id y
// CHECK: %[[TILEP:.*]] = arith.muli %{{.*}}, %c32
// CHECK: %[[TILEQ:.*]] = arith.muli %{{.*}}, %c32
// CHECK: %[[R0:.*]] = arith.addi %[[ROW]], %c0
// CHECK: %[[GP:.*]] = arith.addi %[[TILEP]], %[[LANE]]
// CHECK: %[[GQ:.*]] = arith.addi %[[TILEQ]], %[[R0]]
// CHECK: %[[BX:.*]] = arith.divui %[[GP]], %c16
// CHECK: %[[BY:.*]] = arith.divui %[[GQ]], %c16
// CHECK: %[[TX:.*]] = arith.remui %[[GP]], %c16
// CHECK: %[[TY:.*]] = arith.remui %[[GQ]], %c16
// CHECK: %[[INP:.*]] = arith.cmpi ult, %[[GP]], %c48
// CHECK: %[[INQ:.*]] = arith.cmpi ult, %[[GQ]], %c80
// CHECK: %[[IN:.*]] = arith.andi %[[INP]], %[[INQ]]
// CHECK: scf.if %[[IN]] {
// CHECK: %[[X:.*]] = arith.muli %[[BX]], %{{.*}} overflow<nsw>
// CHECK: %[[Y:.*]] = arith.muli %[[BY]], %{{.*}} overflow<nsw>
// CHECK: %[[I:.*]] = arith.addi %[[TX]], %[[X]]
// CHECK: %[[J:.*]] = arith.addi %[[TY]], %[[Y]]
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%[[J]], %[[I]]] : memref<80x48xf32>
// CHECK-NEXT: memref.store %[[V]], %[[TILE]][%[[R0]], %[[LANE]]]
// CHECK-COUNT-3: memref.store %{{.*}}, %[[TILE]]
// CHECK-NOT: memref.store
// CHECK: gpu.barrier
// CHECK: %[[S0:.*]] = arith.addi %[[ROW]], %c0
// CHECK: scf.if
// CHECK: %[[STAGED:.*]] = memref.load %[[TILE]][%[[LANE]], %[[S0]]]
// CHECK: %[[W:.*]] = arith.negf %[[STAGED]] : f32
// CHECK: memref.store %[[W]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<48x80xf32>
// CHECK-COUNT-3: memref.load %[[TILE]]
// CHECK-NOT: memref.load %arg0
// CHECK: gpu.return
// x (48 indices) in 2 tiles along x, y (80) in 3 along y.
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@transpose blocks in (%c2, %c3{{(_[0-9]+)?}}, %c1{{(_[0-9]+)?}}) threads in (%c32, %c8, %c1{{(_[0-9]+)?}})

// -----

// A 3-D permutation (0, 2, 1) of f16 in one-thread blocks: the load walks
// z (128 indices, 4 tiles along x), the store y (64, 2 tiles along y), and
// the untouched dimension x runs along z; the sizes divide, so nothing is
// guarded.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @permute(%in: memref<4x64x128xf16>, %out: memref<4x128x64xf16>) kernel {
      %b = gpu.block_id x
      %i = gpu.block_id y
      %j = gpu.block_id z
      %v = memref.load %in[%b, %i, %j] : memref<4x64x128xf16>
      memref.store %v, %out[%b, %j, %i] : memref<4x128x64xf16>
      gpu.return
    }
  }
  func.func @main(%in: memref<4x64x128xf16>, %out: memref<4x128x64xf16>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@permute blocks in (%c4, %c64, %c128) threads in (%c1, %c1, %c1) args(%in : memref<4x64x128xf16>, %out : memref<4x128x64xf16>)
    return
  }
}

// CHECK-LABEL: gpu.func @permute
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<32x33xf16, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>, known_grid_size = array<i32: 4, 2, 4>
// CHECK-NOT: scf.if
// CHECK: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: gpu.return
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@permute blocks in (%c4{{(_[0-9]+)?}}, %c2, %c4{{(_[0-9]+)?}}) threads in (%c32, %c8, %c1{{(_[0-9]+)?}})
