// contraction-tile=S stages the rows and columns a block of results needs in
// shared memory, 16 iterations at a time, and gives each thread of a T x T
// block (T = 8 at S = 32, else 16) (S/T)^2 results, in groups of
// G = min(S/T, 4) neighbours that it reads from the tiles with one vector
// load per group; every result is computed by the kernel's own operations
// in the original order.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-tile=32" | FileCheck %s
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-tile=16" | FileCheck %s --check-prefix=ONE

// C[i][j] += sum_k A[i][k] * B[k][j] over 40 iterations (not a multiple of
// 16: the last stage runs 8), rows along x as upstream's 16x16 tiling maps
// them, results stored along y.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul(
    // Tiles of 16 x (32 + G) elements, aligned for the vector loads; blocks
    // of 8 x 8 threads.
    // CHECK-SAME: workgroup(%[[AS:.*]] : memref<16x36xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<16x36xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
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
    // CHECK-COUNT-2: vector.load %{{.*}} {alignment = 16 : i64} : memref<40x64xf32>, vector<4xf32>
    // Three stages.
    // CHECK: scf.for %[[STAGE:.*]] = %{{.*}} to %[[C3:.*]] step %{{.*}} iter_args
    // CHECK-COUNT-8: memref.store %{{.*}}, %[[AS]]
    // CHECK-COUNT-2: vector.store %{{.*}}, %[[BS]]
    // CHECK: gpu.barrier
    // The next stage's elements, loaded while this one computes.
    // CHECK-COUNT-2: vector.load %{{.*}} : memref<64x40xf32>, vector<4xf32>
    // CHECK-COUNT-2: vector.load %{{.*}} : memref<40x64xf32>, vector<4xf32>
    // The last stage is shorter.
    // CHECK: %[[LEFT:.*]] = arith.subi
    // CHECK: %[[DEPTH:.*]] = arith.minui %[[LEFT]], %{{.*}}
    // CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[DEPTH]] step
    // CHECK: vector.load %[[AS]][%[[K]], %[[ROW]]] {alignment = 16 : i64} : memref<16x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    // CHECK: vector.load %[[BS]][%[[K]], %[[LANE]]] {alignment = 16 : i64} : memref<16x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    // CHECK-NOT: memref.load
    // CHECK-COUNT-16: arith.mulf
    // CHECK: scf.yield
    // CHECK: gpu.barrier
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

// ONE-LABEL: gpu.func @matmul(
// ONE-SAME: workgroup(%{{.*}} : memref<16x17xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<16x17xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// ONE: scf.for {{.*}} -> (f32, f32, f32) {
// ONE-NOT: vector.load
// ONE-COUNT-1: arith.mulf
// ONE-NOT: arith.mulf
// ONE: gpu.return

// -----

// A batched product (batch along z of one-thread blocks, as upstream's
// mapping of parallel loops to blocks gives): the batch moves both loads,
// B is read transposed (contiguous along k: its lanes run along k too).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @bmm(
    // CHECK-SAME: workgroup(%[[AS:.*]] : memref<16x36xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<16x36xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
    // CHECK-SAME: known_block_size = array<i32: 8, 8, 1>, known_grid_size = array<i32: 1, 1, 3>
    // CHECK: %[[BZ:.*]] = gpu.block_id z
    // Both loads run along k, 16 iterations in all: each thread's 8
    // elements of each are two groups of 4 neighbours, loaded as vectors.
    // CHECK-COUNT-4: vector.load %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<3x32x16xf32>, vector<4xf32>
    // CHECK: scf.for
    // CHECK: gpu.barrier
    // CHECK-COUNT-4: vector.load %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<3x32x16xf32>, vector<4xf32>
    // Every stage runs 16 iterations.
    // CHECK-NOT: arith.subi
    // CHECK: scf.for
    // CHECK-COUNT-16: arith.mulf
    // CHECK: gpu.barrier
    // The results' neighbours along j are 32 elements apart in C: stored one
    // by one.
    // CHECK-COUNT-16: memref.store %{{.*}} : memref<3x32x32xf32>
    gpu.func @bmm(%a: memref<3x32x16xf32>, %bt: memref<3x32x16xf32>, %c: memref<3x32x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %n = gpu.block_id x
      %i = gpu.block_id y
      %j = gpu.block_id z
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%n, %i, %k] : memref<3x32x16xf32>
        %y = memref.load %bt[%n, %j, %k] : memref<3x32x16xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%n, %i, %j] : memref<3x32x32xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<3x32x16xf32>, %bt: memref<3x32x16xf32>, %c: memref<3x32x32xf32>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@bmm blocks in (%c3, %c32, %c32) threads in (%c1, %c1, %c1) args(%a : memref<3x32x16xf32>, %bt : memref<3x32x16xf32>, %c : memref<3x32x32xf32>)
    return
  }
}

// -----

// A batched product as upstream's 16x16 tiling with bounds checks maps it
// (batch along x, rows along y, columns along z of blocks one thread deep:
// the column's global index is spelled tid.z + bid.z): the check bounds
// global indices, and B is read transposed.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @bmm_guarded(
    // The check lets 3 batches, 32 rows and 32 columns through: one tile of
    // 32 x 32 per batch, the batch along z.
    // CHECK-SAME: known_block_size = array<i32: 8, 8, 1>, known_grid_size = array<i32: 1, 1, 3>
    // CHECK: %[[BZ:.*]] = gpu.block_id z
    // CHECK-COUNT-4: vector.load %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<3x32x32xf32>, vector<4xf32>
    // CHECK-COUNT-4: vector.load %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<3x32x16xf32>, vector<4xf32>
    // The tile covers the checked results exactly: no check is left.
    // CHECK-NOT: scf.if
    // CHECK-COUNT-16: memref.store %{{.*}}, %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] : memref<3x32x32xf32>
    gpu.func @bmm_guarded(%a: memref<3x32x16xf32>, %bt: memref<3x32x16xf32>, %c: memref<3x32x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %ox = arith.muli %bx, %c16 : index
      %oy = arith.muli %by, %c16 : index
      %n = arith.addi %tx, %ox : index
      %i = arith.addi %ty, %oy : index
      %j = arith.addi %tz, %bz : index
      %inn = arith.cmpi ult, %n, %c3 : index
      %ini = arith.cmpi ult, %i, %c32 : index
      %inj = arith.cmpi ult, %j, %c32 : index
      %both = arith.andi %inn, %ini : i1
      %all = arith.andi %both, %inj : i1
      scf.if %all {
        %init = memref.load %c[%n, %i, %j] : memref<3x32x32xf32>
        %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (f32) {
          %x = memref.load %a[%n, %i, %k] : memref<3x32x16xf32>
          %y = memref.load %bt[%n, %j, %k] : memref<3x32x16xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %c[%n, %i, %j] : memref<3x32x32xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<3x32x16xf32>, %bt: memref<3x32x16xf32>, %c: memref<3x32x32xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@bmm_guarded blocks in (%c1, %c2, %c32) threads in (%c16, %c16, %c1) args(%a : memref<3x32x16xf32>, %bt : memref<3x32x16xf32>, %c : memref<3x32x32xf32>)
    return
  }
}

// -----

// The loop under a condition every thread shares (register-accumulate's
// check that the buffers do not overlap): the first branch is tiled, the
// second runs the original code once per result.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @versioned(
    // CHECK: scf.if
    // CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
    // CHECK: gpu.barrier
    // CHECK: } else {
    // CHECK-NOT: gpu.barrier
    // CHECK-COUNT-16: memref.store %{{.*}} : memref<32x32xf32>
    // CHECK-NOT: memref.store
    // CHECK: gpu.return
    gpu.func @versioned(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %c: memref<32x32xf32>, %apart: i1) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      scf.if %apart {
        %init = memref.load %c[%by, %bx] : memref<32x32xf32>
        %sum = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %init) -> (f32) {
          %x = memref.load %a[%by, %k] : memref<32x32xf32>
          %y = memref.load %b[%k, %bx] : memref<32x32xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %c[%by, %bx] : memref<32x32xf32>
      } else {
        scf.for %k = %c0 to %c32 step %c1 {
          %x = memref.load %a[%by, %k] : memref<32x32xf32>
          %y = memref.load %b[%k, %bx] : memref<32x32xf32>
          %z = memref.load %c[%by, %bx] : memref<32x32xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %z, %p : f32
          memref.store %s, %c[%by, %bx] : memref<32x32xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %c: memref<32x32xf32>, %apart: i1) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@versioned blocks in (%c32, %c32, %c1) threads in (%c1, %c1, %c1) args(%a : memref<32x32xf32>, %b : memref<32x32xf32>, %c : memref<32x32xf32>, %apart : i1)
    return
  }
}

// -----

// The loop under a condition every thread shares, without a second branch:
// the condition stays, around the tiled loop only.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @conditional(
    // CHECK: scf.if %{{.*}} {
    // CHECK: gpu.barrier
    // CHECK-COUNT-4: vector.store %{{.*}} : memref<32x32xf32>, vector<4xf32>
    // CHECK-NOT: else
    // CHECK: gpu.return
    gpu.func @conditional(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %c: memref<32x32xf32>, %flag: i1) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      scf.if %flag {
        %init = memref.load %c[%by, %bx] : memref<32x32xf32>
        %sum = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %init) -> (f32) {
          %x = memref.load %a[%by, %k] : memref<32x32xf32>
          %y = memref.load %b[%k, %bx] : memref<32x32xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %c[%by, %bx] : memref<32x32xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %c: memref<32x32xf32>, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@conditional blocks in (%c32, %c32, %c1) threads in (%c1, %c1, %c1) args(%a : memref<32x32xf32>, %b : memref<32x32xf32>, %c : memref<32x32xf32>, %flag : i1)
    return
  }
}

// -----

// The geometry through gpu.block_dim and the sizes the kernel promises
// (known_block_size, as normalization records them): the block size becomes
// the old constant in the copies, and the promise the new one.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @geometry(
    // CHECK-SAME: known_block_size = array<i32: 8, 8, 1>, known_grid_size = array<i32: 2, 2, 1>
    // CHECK-NOT: gpu.block_dim
    // CHECK: gpu.barrier
    // CHECK-COUNT-4: vector.store %{{.*}} : memref<64x64xf32>, vector<4xf32>
    gpu.func @geometry(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 8, 32, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %0 = arith.muli %bx, %dx : index
      %1 = arith.muli %by, %dy : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%j, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %i] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%j, %i] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@geometry blocks in (%c8, %c2, %c1) threads in (%c8, %c32, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}
