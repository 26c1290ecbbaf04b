// contraction-pipeline=S: contraction-tile=S with two shared buffers per
// staged tile. The first stage goes to buffer 0 before the loop; each stage
// loads the next stage's elements into registers, computes from buffer
// stage mod 2, stores the registers into the other buffer and waits once.
// Two buffers that do not fit in the 48 KiB of static shared memory are
// refused (f64 tiles of 128: 66 KiB), as is any tile contraction-tile
// refuses.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-pipeline=32" | FileCheck %s
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-pipeline=16" | FileCheck %s --check-prefix=SIXTEEN
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-pipeline=128" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED

// C[i][j] += sum_k A[i][k] * B[k][j] over 40 iterations (not a multiple of
// 16: the last stage runs 8), rows along x as upstream's 16x16 tiling maps
// them, results stored along y.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul(
    // Tiles of 16 x (32 + G) elements, aligned for the vector loads; blocks
    // of 8 x 8 threads.
    // CHECK-SAME: workgroup(%[[AS:.*]] : memref<2x16x36xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<2x16x36xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
    // CHECK-SAME: known_block_size = array<i32: 8, 8, 1>, known_grid_size = array<i32: 2, 2, 1>
    // CHECK: %[[C4:.*]] = arith.constant 4 : index
    // CHECK: %[[TX:.*]] = gpu.thread_id x
    // CHECK: %[[TY:.*]] = gpu.thread_id y
    // The thread's first row and column: 4 ty and 4 tx.
    // CHECK: %[[ROW:.*]] = arith.muli %[[TY]], %[[C4]] : index
    // CHECK: %[[LANE:.*]] = arith.muli %[[TX]], %[[C4]] : index
    // Sixteen accumulators per thread, four neighbours of a row of C per
    // vector load, and the first stage's elements of the rows of A (lanes
    // along k) and the columns of B (lanes along j), 8 of each per thread
    // in two groups of 4 neighbours. 40 is not a multiple of 16, so the
    // iterations of the last stage are clamped to the loop's, A's four
    // neighbours along k together (4 (min(k / 4, 9)) + j: 40 is a multiple
    // of 4), so that they stay one vector load; B's share their k and load
    // as vectors.
    // CHECK-COUNT-4: vector.load %{{.*}} : memref<64x64xf32>, vector<4xf32>
    // CHECK: %[[GROUP:.*]] = arith.minui %{{.*}}, %c9 : index
    // CHECK: %[[K4:.*]] = arith.muli %[[GROUP]], %[[C4]] : index
    // CHECK: vector.load %{{.*}}[%{{.*}}, %[[K4]]] {alignment = 16 : i64} : memref<64x40xf32>, vector<4xf32>
    // CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<64x40xf32>, vector<4xf32>
    // CHECK-NOT: memref.load %{{.*}} : memref<64x40xf32>
    // The first stage goes to the first of the tiles' two buffers before the
    // loop: B's groups of four, whole aligned vectors, as asynchronous copies
    // (cp.async) without registers; A's, transposed into the tile, through
    // registers.
    // CHECK-COUNT-2: nvgpu.device_async_copy %arg1[%{{.*}}, %{{.*}}], %[[BS]][%c0, %{{.*}}, %{{.*}}], 4 {bypassL1} : memref<40x64xf32> to memref<2x16x36xf32, #gpu.address_space<workgroup>>
    // CHECK-COUNT-8: memref.store %{{.*}}, %[[AS]][%c0,
    // CHECK: %[[FIRST:.*]] = nvgpu.device_async_create_group %{{.*}}, %{{.*}}
    // CHECK-NEXT: nvgpu.device_async_wait %[[FIRST]] {numGroups = 0 : i32}
    // CHECK-NEXT: gpu.barrier
    // Three stages, each reading buffer stage mod 2.
    // CHECK: scf.for %[[STAGE:.*]] = %{{.*}} to %[[C3:.*]] step %{{.*}} iter_args
    // CHECK: %[[BUF:.*]] = arith.remui %[[STAGE]], %c2 : index
    // CHECK: %[[OTHER:.*]] = arith.subi %c1, %[[BUF]] : index
    // The next stage's elements, loaded while this one computes: A's into
    // registers, B's straight into the other buffer.
    // CHECK-COUNT-2: vector.load %{{.*}} : memref<64x40xf32>, vector<4xf32>
    // CHECK-COUNT-2: nvgpu.device_async_copy %arg1[%{{.*}}, %{{.*}}], %[[BS]][%[[OTHER]], %{{.*}}, %{{.*}}], 4
    // The last stage is shorter.
    // CHECK: %[[LEFT:.*]] = arith.subi
    // CHECK: %[[DEPTH:.*]] = arith.minui %[[LEFT]], %{{.*}}
    // CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[DEPTH]] step
    // CHECK: vector.load %[[AS]][%[[BUF]], %[[K]], %[[ROW]]] {alignment = 16 : i64} : memref<2x16x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    // CHECK: vector.load %[[BS]][%[[BUF]], %[[K]], %[[LANE]]] {alignment = 16 : i64} : memref<2x16x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    // CHECK-NOT: memref.load
    // CHECK-COUNT-16: arith.mulf
    // CHECK: scf.yield
    // Then the next stage's elements go to the other buffer, whose products
    // every thread finished before the last barrier: one barrier a stage.
    // CHECK-COUNT-8: memref.store %{{.*}}, %[[AS]][%[[OTHER]],
    // CHECK-NOT: vector.store
    // CHECK: %[[NEXT:.*]] = nvgpu.device_async_create_group
    // CHECK-NEXT: nvgpu.device_async_wait %[[NEXT]] {numGroups = 0 : i32}
    // CHECK-NEXT: gpu.barrier
    // CHECK-NOT: gpu.barrier
    // CHECK: scf.yield
    // CHECK-COUNT-4: vector.store %{{.*}} : memref<64x64xf32>, vector<4xf32>
    // CHECK-NOT: memref.store
    // CHECK: gpu.return
    gpu.func @matmul(%a: memref<64x40xf32>, %b: memref<40x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c40 = arith.constant 40 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x64xf32>
      %sum = scf.for %k = %c0 to %c40 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x40xf32>
        %y = memref.load %b[%k, %j] : memref<40x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x40xf32>, %b: memref<40x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x40xf32>, %b : memref<40x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// SIXTEEN-LABEL: gpu.func @matmul(
// SIXTEEN-SAME: workgroup(%{{.*}} : memref<2x16x17xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<2x16x17xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// The stages carry the one sum.
// SIXTEEN: scf.for {{.*}} -> (f32) {
// SIXTEEN-NOT: vector.load
// SIXTEEN-COUNT-1: arith.mulf
// SIXTEEN-NOT: arith.mulf
// SIXTEEN: gpu.return

// -----

// f64 tiles of 128 take 33 KiB in one buffer, 66 KiB in two.
// REFUSED: error: cannot apply contraction-pipeline=128 to @matmul: the result dimensions (64 x 64) are smaller than the tile of 128
// REFUSED: error: cannot apply contraction-pipeline=128 to @matmul_f64: two buffers of the tiles would not fit in 48 KiB of shared memory (67584 bytes)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul_f64(
    // CHECK-SAME: workgroup(%{{.*}} : memref<2x16x36xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<2x16x36xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
    gpu.func @matmul_f64(%a: memref<128x128xf64>, %b: memref<128x128xf64>, %c: memref<128x128xf64>) kernel {
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
      %init = memref.load %c[%i, %j] : memref<128x128xf64>
      %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %init) -> (f64) {
        %x = memref.load %a[%i, %k] : memref<128x128xf64>
        %y = memref.load %b[%k, %j] : memref<128x128xf64>
        %p = arith.mulf %x, %y : f64
        %s = arith.addf %acc, %p : f64
        scf.yield %s : f64
      }
      memref.store %sum, %c[%i, %j] : memref<128x128xf64>
      gpu.return
    }
  }
  func.func @main(%a: memref<128x128xf64>, %b: memref<128x128xf64>, %c: memref<128x128xf64>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul_f64 blocks in (%c8, %c8, %c1) threads in (%c16, %c16, %c1) args(%a : memref<128x128xf64>, %b : memref<128x128xf64>, %c : memref<128x128xf64>)
    return
  }
}
