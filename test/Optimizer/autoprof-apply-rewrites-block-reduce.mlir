// block-reduce on IR: S threads along y split a reduction loop whose loads
// are contiguous across the threads along x, combine their partial results
// through shared memory after a barrier, and the first of them writes.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=block-reduce=8" | FileCheck %s

// A vector-matrix product in the spelling upstream's tiled mapping gives once
// the accumulator is in a register: thread j of the 4 x 16 adds
// x[k] * A[k][j] over 512 values of k.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vecmat(%x: memref<512xf32>, %a: memref<512x64xf32>, %y: memref<64xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c512 = arith.constant 512 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c16 overflow<nsw> : index
      %j = arith.addi %tid, %base : index
      %init = memref.load %y[%j] : memref<64xf32>
      %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
        %x_k = memref.load %x[%k] : memref<512xf32>
        %a_kj = memref.load %a[%k, %j] : memref<512x64xf32>
        %p = arith.mulf %x_k, %a_kj : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%j] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<512xf32>, %a: memref<512x64xf32>, %y: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@vecmat blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<512xf32>, %a : memref<512x64xf32>, %y : memref<64xf32>)
    return
  }
}

// Thread (x, s) runs iterations s, s+8, ... from -0.0; the partial results
// go to an 8 x 16 shared buffer, and after the barrier every thread adds its
// column's eight in order, then the loop's initial value; thread y = 0
// alone stores. The sum is reassociated, and the kernel says so.
// CHECK-LABEL: gpu.func @vecmat
// CHECK-SAME: workgroup(%[[PARTIALS:.*]] : memref<8x16xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: autoprof.reassociated
// CHECK-SAME: known_block_size = array<i32: 16, 8, 1>, known_grid_size = array<i32: 4, 1, 1>
// CHECK: %[[S:.*]] = gpu.thread_id y
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[S]], %{{.*}} : index
// CHECK: %[[INIT:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<64xf32>
// CHECK: %[[OFFSET:.*]] = arith.muli %[[S]], %{{.*}} : index
// CHECK: %[[LB:.*]] = arith.addi %{{.*}}, %[[OFFSET]] : index
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %c8 : index
// CHECK: %[[NEUTRAL:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[PARTIAL:.*]] = scf.for %{{.*}} = %[[LB]] to %c512 step %[[STEP]] iter_args(%{{.*}} = %[[NEUTRAL]]) -> (f32) {
// CHECK: memref.store %[[PARTIAL]], %[[PARTIALS]][%[[S]], %[[X]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[P0:.*]] = memref.load %[[PARTIALS]][%{{.*}}, %[[X]]]
// CHECK: %[[P1:.*]] = memref.load %[[PARTIALS]][%{{.*}}, %[[X]]]
// CHECK-NEXT: arith.addf %[[P0]], %[[P1]] : f32
// CHECK-COUNT-6: memref.load %[[PARTIALS]]
// CHECK: %[[TOTAL:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[RESULT:.*]] = arith.addf %[[INIT]], %[[TOTAL]] : f32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %[[RESULT]], %{{.*}}[%{{.*}}] : memref<64xf32>
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@vecmat blocks in (%c4, %c1, %c1) threads in (%c16, %c8, %c1)

// -----

// One block of 256 threads, as form-blocks=256 leaves a column sum: 8 rows
// of 256 would exceed 1024 threads, so blocks of 128 columns x 8 rows run on
// a grid twice as wide; the column index is the original global index,
// rebuilt from the new block id and thread id.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @colsum(%x: memref<512xf32>, %a: memref<512x256xf32>, %y: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %j = arith.addi %base, %tid : index
      %init = memref.load %y[%j] : memref<256xf32>
      %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
        %x_k = memref.load %x[%k] : memref<512xf32>
        %a_kj = memref.load %a[%k, %j] : memref<512x256xf32>
        %p = arith.mulf %x_k, %a_kj : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%j] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<512xf32>, %a: memref<512x256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 1 : index
    %b0 = arith.constant 256 : index
    gpu.launch_func @kernels::@colsum blocks in (%g0, %c1, %c1) threads in (%b0, %c1, %c1) args(%x : memref<512xf32>, %a : memref<512x256xf32>, %y : memref<256xf32>)
    return
  }
}

// CHECK-LABEL: gpu.func @colsum
// CHECK-SAME: workgroup(%[[PARTIALS:.*]] : memref<8x128xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 128, 8, 1>, known_grid_size = array<i32: 2, 1, 1>
// CHECK: %[[S:.*]] = gpu.thread_id y
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: %[[BASE:.*]] = arith.muli %[[B]], %c128 : index
// CHECK: %[[J:.*]] = arith.addi %[[BASE]], %[[X]] : index
// CHECK: %[[INIT:.*]] = memref.load %{{.*}}[%[[J]]] : memref<256xf32>
// CHECK: scf.for %[[K:.*]] = %[[S]] to %c512 step %c8
// CHECK: memref.load %{{.*}}[%[[K]], %[[J]]] : memref<512x256xf32>
// CHECK: memref.store %{{.*}}, %[[PARTIALS]][%[[S]], %[[X]]]
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[J]]] : memref<256xf32>
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@colsum blocks in (%c2, %c1, %c1) threads in (%c128, %c8, %c1)
