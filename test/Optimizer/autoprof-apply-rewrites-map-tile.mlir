// map-tile on IR: each thread takes a register tile of R points along the
// parallel dimension whose points share the largest loads times V along the
// contiguous one (4, else 2, else 1). Per reduction point it loads the
// shared operand once as a vector of V elements and the other operand once
// per row of the tile, for R x V accumulations kept in registers.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-tile=4" | FileCheck %s

// A product whose second operand is transposed, as upstream maps it (one
// thread per element): c[i][j] += a[i][k] * b[j][k]. Of the parallel
// dimensions, j indexes the output contiguously; b does not depend on i,
// the reuse dimension, and a not on j: each element loaded serves four
// accumulations.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<64x32xf32> {llvm.noalias}, %b: memref<64x32xf32> {llvm.noalias}, %c: memref<64x64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@mm blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64x32xf32>, %b : memref<64x32xf32>, %c : memref<64x64xf32>)
    return
  }
  gpu.module @m {
    gpu.func @mm(%a: memref<64x32xf32>, %b: memref<64x32xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      scf.for %k = %c0 to %c32 step %c1 {
        %x = memref.load %a[%i, %k] : memref<64x32xf32>
        %y = memref.load %b[%j, %k] : memref<64x32xf32>
        %acc = memref.load %c[%i, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<64x64xf32>
      }
      gpu.return
    }
  }
}
// 4096 points in tiles of 4 x 4: 256 threads, one block.
// CHECK-LABEL: func.func @host(
// CHECK: %[[BLOCK:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @m::@mm blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[BLOCK]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @mm(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<64x32xf32>, %[[B:[a-z0-9_]+]]: memref<64x32xf32>, %[[C:[a-z0-9_]+]]: memref<64x64xf32>) kernel
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>
// The tile's 16 accumulators start from the output: four rows of four.
// CHECK-COUNT-4: vector.load %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// Four rows of a, four columns of b (b's columns are its rows: no vector),
// each loaded once.
// CHECK-COUNT-4: memref.load %[[A]][%{{.*}}, %[[K]]]
// CHECK-COUNT-4: memref.load %[[B]][%{{.*}}, %[[K]]]
// CHECK-NOT: memref.load
// CHECK-COUNT-16: arith.mulf
// CHECK: scf.yield
// CHECK-COUNT-4: vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// CHECK: gpu.return

// -----

// A product c[i][j] += a[i][k] * b[k][j] whose contiguous extent, 6, takes
// pairs: a tile of 4 x 2.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<64x32xf32> {llvm.noalias}, %b: memref<32x6xf32> {llvm.noalias}, %c: memref<64x6xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@mm blocks in (%c64, %c1, %c1) threads in (%c6, %c1, %c1) args(%a : memref<64x32xf32>, %b : memref<32x6xf32>, %c : memref<64x6xf32>)
    return
  }
  gpu.module @m {
    gpu.func @mm(%a: memref<64x32xf32>, %b: memref<32x6xf32>, %c: memref<64x6xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      scf.for %k = %c0 to %c32 step %c1 {
        %x = memref.load %a[%i, %k] : memref<64x32xf32>
        %y = memref.load %b[%k, %j] : memref<32x6xf32>
        %acc = memref.load %c[%i, %j] : memref<64x6xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<64x6xf32>
      }
      gpu.return
    }
  }
}
// 384 points in tiles of 4 x 2: 48 threads.
// CHECK-LABEL: func.func @host(
// CHECK-LABEL: gpu.func @mm(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<64x32xf32>, %[[B:[a-z0-9_]+]]: memref<32x6xf32>, %[[C:[a-z0-9_]+]]: memref<64x6xf32>) kernel
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-4: memref.load %[[A]][%{{.*}}, %[[K]]]
// CHECK: vector.load %[[B]][%[[K]], %{{.*}}] {alignment = 8 : i64} : memref<32x6xf32>, vector<2xf32>
// CHECK-NOT: memref.load
// CHECK-COUNT-8: arith.mulf
