// contraction-tile=64 and =128 give each thread 4 x 4 and 8 x 8 results in
// groups of 4 neighbours along each dimension: per iteration one 128-bit
// load of the row tile and one of the column tile per group, and the
// results' loads before the loop and stores after it as 128-bit vectors
// (their addresses proved aligned by the access analysis). Where every
// stored float is a sum of products, the products and sums of the tiled
// loop may fuse (fastmath<contract>) and the kernel is marked
// autoprof.reassociated (its verification bounds the rounding by the terms'
// magnitude); elsewhere they stay apart. The kernel asks for 2 (S = 64) or
// 1 (S = 128) resident blocks per SM, so that ptxas keeps the accumulators
// in registers.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-tile=64" | FileCheck %s --check-prefix=FOUR
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-tile=128" | FileCheck %s --check-prefix=EIGHT

// C[i][j] += sum_k A[i][k] * B[k][j], 128 x 128 results, 16x16 tiles as
// upstream maps them.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // FOUR-LABEL: gpu.func @matmul(
    // FOUR-SAME: workgroup(%[[AS:.*]] : memref<16x68xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<16x68xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
    // FOUR-SAME: attributes {autoprof.reassociated, known_block_size = array<i32: 16, 16, 1>, known_grid_size = array<i32: 2, 2, 1>, nvvm.minctasm = 2 : i32}
    // FOUR: %[[C4:.*]] = arith.constant 4 : index
    // FOUR: %[[TX:.*]] = gpu.thread_id x
    // FOUR: %[[TY:.*]] = gpu.thread_id y
    // FOUR: %[[ROW:.*]] = arith.muli %[[TY]], %[[C4]] : index
    // FOUR: %[[LANE:.*]] = arith.muli %[[TX]], %[[C4]] : index
    // FOUR-COUNT-4: vector.load %{{.*}} {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
    // The first stage: each thread copies 4 neighbours of A along k and 4
    // of B along j, one 128-bit load each; 8 stages of 16 iterations.
    // FOUR: vector.load %[[A:.*]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
    // FOUR: vector.load %[[B:.*]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
    // FOUR: scf.for %{{.*}} = %{{.*}} to %[[C8:.*]] step
    // A's neighbours go to 4 rows of its tile, B's to one.
    // FOUR-COUNT-4: memref.store %{{.*}}, %[[AS]]
    // FOUR: vector.store %{{.*}}, %[[BS]]
    // FOUR: gpu.barrier
    // FOUR: vector.load %[[A]]
    // FOUR: vector.load %[[B]]
    // FOUR: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
    // FOUR: vector.load %[[AS]][%[[K]], %[[ROW]]] {alignment = 16 : i64} : memref<16x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    // FOUR: vector.load %[[BS]][%[[K]], %[[LANE]]] {alignment = 16 : i64} : memref<16x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    // FOUR-NOT: memref.load
    // FOUR: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
    // FOUR: arith.addf %{{.*}}, %[[P]] fastmath<contract> : f32
    // FOUR-COUNT-15: arith.mulf
    // FOUR-NOT: arith.mulf
    // FOUR: gpu.barrier
    // FOUR-COUNT-4: vector.store %{{.*}} {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
    // FOUR-NOT: memref.store
    // FOUR: gpu.return

    // Two groups of 4 along each dimension, 64 apart: rows 4 ty .. 4 ty + 3
    // and 64 + 4 ty .. 64 + 4 ty + 3.
    // EIGHT-LABEL: gpu.func @matmul(
    // EIGHT-SAME: workgroup(%[[AS:.*]] : memref<16x132xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<16x132xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
    // EIGHT-SAME: attributes {autoprof.reassociated, known_block_size = array<i32: 16, 16, 1>, known_grid_size = array<i32: 1, 1, 1>, nvvm.minctasm = 1 : i32}
    // EIGHT: %[[C64:.*]] = arith.constant 64 : index
    // EIGHT: %[[C4:.*]] = arith.constant 4 : index
    // EIGHT: %[[TX:.*]] = gpu.thread_id x
    // EIGHT: %[[TY:.*]] = gpu.thread_id y
    // EIGHT: %[[ROW:.*]] = arith.muli %[[TY]], %[[C4]] : index
    // EIGHT: %[[LANE:.*]] = arith.muli %[[TX]], %[[C4]] : index
    // EIGHT: %[[ROW2:.*]] = arith.addi %[[ROW]], %[[C64]] : index
    // EIGHT-COUNT-16: vector.load %{{.*}} {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
    // EIGHT: scf.for
    // EIGHT: gpu.barrier
    // EIGHT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
    // EIGHT: vector.load %[[AS]][%[[K]], %[[ROW]]] {alignment = 16 : i64}
    // EIGHT: vector.load %[[AS]][%[[K]], %[[ROW2]]] {alignment = 16 : i64}
    // EIGHT: vector.load %[[BS]][%[[K]], %[[LANE]]] {alignment = 16 : i64}
    // EIGHT: vector.load %[[BS]][%[[K]], %{{.*}}] {alignment = 16 : i64}
    // EIGHT-NOT: memref.load
    // EIGHT-COUNT-64: arith.mulf
    // EIGHT-NOT: arith.mulf
    // EIGHT: gpu.barrier
    // EIGHT-COUNT-16: vector.store %{{.*}} {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
    // EIGHT-NOT: memref.store
    // EIGHT: gpu.return
    gpu.func @matmul(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<128x128xf32>
      %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<128x128xf32>
        %y = memref.load %b[%k, %j] : memref<128x128xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<128x128xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul blocks in (%c8, %c8, %c1) threads in (%c16, %c16, %c1) args(%a : memref<128x128xf32>, %b : memref<128x128xf32>, %c : memref<128x128xf32>)
    return
  }
}

// -----

// The stored value is the sum's maximum with 0 (a ReLU), which the
// magnitude of the terms does not bound: the products and sums stay apart
// and the kernel is not marked.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // FOUR-LABEL: gpu.func @matmul_relu(
    // FOUR-SAME: attributes {known_block_size = array<i32: 16, 16, 1>, known_grid_size = array<i32: 2, 2, 1>, nvvm.minctasm = 2 : i32}
    // FOUR: gpu.barrier
    // FOUR-NOT: fastmath
    // FOUR: arith.maximumf
    // FOUR: gpu.return
    gpu.func @matmul_relu(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<128x128xf32>
        %y = memref.load %b[%k, %j] : memref<128x128xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %r = arith.maximumf %sum, %zero : f32
      memref.store %r, %c[%i, %j] : memref<128x128xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul_relu blocks in (%c8, %c8, %c1) threads in (%c16, %c16, %c1) args(%a : memref<128x128xf32>, %b : memref<128x128xf32>, %c : memref<128x128xf32>)
    return
  }
}
