// halo-tile stages the box of the input a block's window loops read, with
// its halo, in shared memory: a 3x3 convolution on blocks of 32 x 8 threads
// reads a 10 x 34 box (8 + 2 rows, 32 + 2 columns) whose corner is the
// block's first row and column. Every thread copies elements tid, tid + 256,
// ... of the box (those inside the input), a barrier, and the window loops
// read the box at their index minus the corner. The launch does not prove
// the buffers distinct, so the staged loops run only when the output lies
// apart from the input; the original loops run otherwise.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=halo-tile=1" --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @conv3x3
// CHECK-SAME: workgroup(%[[BOX:.*]] : memref<10x34xf32, #gpu.address_space<workgroup>>)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C34:.*]] = arith.constant 34 : index
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C340:.*]] = arith.constant 340 : index
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
// CHECK-DAG: %[[TY:.*]] = gpu.thread_id y
// CHECK-DAG: %[[ROW0:.*]] = arith.muli %[[BY]], %[[C8]] : index
// CHECK-DAG: %[[COL0:.*]] = arith.muli %[[BX]], %[[C32]] : index
// CHECK: %[[APART:.*]] = arith.ori
// CHECK: %[[LINEAR:.*]] = arith.addi %[[TX]], %{{.*}} : index
// CHECK: scf.for %[[E:.*]] = %[[LINEAR]] to %[[C340]] step %[[C256]] {
// CHECK: %[[COL:.*]] = arith.remui %[[E]], %[[C34]] : index
// CHECK: %[[REST:.*]] = arith.divui %[[E]], %[[C34]] : index
// CHECK: %[[GCOL:.*]] = arith.addi %[[COL0]], %[[COL]] : index
// CHECK: %[[ROW:.*]] = arith.remui %[[REST]], %[[C10]] : index
// CHECK: %[[GROW:.*]] = arith.addi %[[ROW0]], %[[ROW]] : index
// CHECK: scf.if
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[GROW]], %[[GCOL]]] : memref<66x130xf32>
// CHECK-NEXT: memref.store %[[V]], %[[BOX]][%[[ROW]], %[[COL]]]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if %[[APART]] -> (f32) {
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[R:.*]] = arith.subi %{{.*}}, %[[ROW0]] : index
// CHECK: %[[C:.*]] = arith.subi %{{.*}}, %[[COL0]] : index
// CHECK: memref.load %[[BOX]][%[[R]], %[[C]]]
// CHECK: } else {
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<66x130xf32>
// CHECK: gpu.return
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

// The same convolution indexed through gpu.block_dim, as upstream kernels
// use the launch geometry: the integer ranges of the ids and the block size
// every launch shares give the same 10 x 34 box, its corner the block's
// first row and column.
// CHECK-LABEL: gpu.func @conv3x3_block_dim
// CHECK-SAME: workgroup(%[[BOX:.*]] : memref<10x34xf32, #gpu.address_space<workgroup>>)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[DY:.*]] = gpu.block_dim y
// CHECK-DAG: arith.muli %[[BY]], %[[DY]] : index
// CHECK-DAG: %[[ROW0:.*]] = arith.muli %[[BY]], %[[C8]] : index
// CHECK-DAG: %[[COL0:.*]] = arith.muli %[[BX]], %[[C32]] : index
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BOX]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[R:.*]] = arith.subi %{{.*}}, %[[ROW0]] : index
// CHECK: %[[C:.*]] = arith.subi %{{.*}}, %[[COL0]] : index
// CHECK: memref.load %[[BOX]][%[[R]], %[[C]]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @conv3x3_block_dim(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dy = gpu.block_dim y
      %0 = arith.muli %by, %dy : index
      %i = arith.addi %0, %ty : index
      %dx = gpu.block_dim x
      %1 = arith.muli %bx, %dx : index
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
    gpu.launch_func @kernels::@conv3x3_block_dim blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x130xf32>, %k : memref<3x3xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// A 1-D convolution of 31 taps under a bounds guard: the staging and its
// barrier go before the guard, where every thread of the block runs; the box
// is the block's 256 elements and 30 more. The output is the host's own
// allocation and the host arguments are marked llvm.noalias: the buffers
// are distinct, and there is no version.
// CHECK-LABEL: gpu.func @conv31
// CHECK-SAME: workgroup(%[[BOX:.*]] : memref<286xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BOX]]
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: memref.load %[[BOX]]
// CHECK-NOT: memref<1310xf32>
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @conv31(%in: memref<1310xf32>, %k: memref<31xf32>, %out: memref<1280xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %n = arith.constant 1200 : index
      %c256 = arith.constant 256 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %c256 : index
      %i = arith.addi %0, %tx : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %init = memref.load %out[%i] : memref<1280xf32>
        %sum = scf.for %t = %c0 to %c31 step %c1 iter_args(%a = %init) -> (f32) {
          %at = arith.addi %i, %t : index
          %x = memref.load %in[%at] : memref<1310xf32>
          %w = memref.load %k[%t] : memref<31xf32>
          %p = arith.mulf %x, %w : f32
          %s = arith.addf %a, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %out[%i] : memref<1280xf32>
      }
      gpu.return
    }
  }
  func.func @main(%in: memref<1310xf32> {llvm.noalias}, %k: memref<31xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c256 = arith.constant 256 : index
    %out = gpu.alloc () : memref<1280xf32>
    gpu.launch_func @kernels::@conv31 blocks in (%c5, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<1310xf32>, %k : memref<31xf32>, %out : memref<1280xf32>)
    return
  }
}
