// map-stage on IR: each block of 256 threads takes a tile of 16 V points
// along the contiguous dimension times 16 R along the reuse dimension (each
// thread V x R of them) and runs the reductions in chunks of 16 points; per
// chunk it copies into shared memory, between two barriers, the slices of
// the operands the tile's points share, which the threads then read as
// vectors; each thread loads its share of the next chunk before it runs
// the current one.
// RUN: autoprof-opt %s -split-input-file --autoprof-normalize-kernels --autoprof-apply-rewrites="rewrites=map-stage=4" | FileCheck %s
// RUN: autoprof-opt %s -split-input-file --autoprof-normalize-kernels --autoprof-apply-rewrites="rewrites=map-stage=1" | FileCheck %s --check-prefix=ONE

// A product whose second operand is transposed, as upstream maps it (one
// thread per element): c[i][j] += a[i][k] * b[j][k], 40 reduction points
// (two chunks and a half). a is shared along j and staged along i (the
// reuse dimension), b the other way round; both are contiguous along k, so
// the copies walk the chunk and pad each slice's rows by 16 bytes.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<64x40xf32> {llvm.noalias}, %b: memref<64x40xf32> {llvm.noalias}, %c: memref<64x64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@mm blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64x40xf32>, %b : memref<64x40xf32>, %c : memref<64x64xf32>)
    return
  }
  gpu.module @m {
    gpu.func @mm(%a: memref<64x40xf32>, %b: memref<64x40xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c40 = arith.constant 40 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      scf.for %k = %c0 to %c40 step %c1 {
        %x = memref.load %a[%i, %k] : memref<64x40xf32>
        %y = memref.load %b[%j, %k] : memref<64x40xf32>
        %acc = memref.load %c[%i, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<64x64xf32>
      }
      gpu.return
    }
  }
}
// 4096 points in one tile of 64 x 64.
// CHECK-LABEL: func.func @host(
// CHECK: %[[BLOCK:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @m::@mm blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[BLOCK]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @mm(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<64x40xf32>, %[[B:[a-z0-9_]+]]: memref<64x40xf32>, %[[C:[a-z0-9_]+]]: memref<64x64xf32>)
// CHECK-SAME: workgroup(%[[SA:[a-z0-9_]+]] : memref<16x68xf32, #gpu.address_space<workgroup>>, %[[SB:[a-z0-9_]+]] : memref<16x68xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>
// The tile's 16 accumulators start from the output: four rows of four.
// CHECK-COUNT-4: vector.load %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// Each thread's share of the first chunk's slices, four elements of each,
// loaded ahead (reduction points past the end clamp to the last).
// CHECK: arith.minui %{{.*}}, %c39 : index
// CHECK-COUNT-4: memref.load %[[A]][%{{.*}}, %{{.*}}] : memref<64x40xf32>
// CHECK-COUNT-4: memref.load %[[B]][%{{.*}}, %{{.*}}] : memref<64x40xf32>
// CHECK: scf.for %[[FIRST:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SA]][%{{.*}}, %{{.*}}]
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SB]][%{{.*}}, %{{.*}}]
// CHECK-NEXT: gpu.barrier
// The next chunk's shares, in flight while this chunk runs.
// CHECK-COUNT-4: memref.load %[[A]]
// CHECK-COUNT-4: memref.load %[[B]]
// The chunk's points, fewer in the last one.
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[FIRST]] : index
// CHECK: %[[UPPER:.*]] = arith.minui %{{.*}}, %[[LEFT]] : index
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %[[UPPER]] step %{{.*}} iter_args(
// CHECK: vector.load %[[SA]][%[[P]], %{{.*}}] {alignment = 16 : i64} : memref<16x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.load %[[SB]][%[[P]], %{{.*}}] {alignment = 16 : i64} : memref<16x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NOT: memref.load
// CHECK-COUNT-16: arith.mulf
// CHECK: scf.yield
// CHECK: scf.yield {{.*}} : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-COUNT-4: vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// CHECK: gpu.return
// ONE-LABEL: gpu.func @mm(
// ONE-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 4, 1, 1>

// -----

// A 3x3 convolution over two channels to 64, as upstream maps it (a thread
// per output column, blocks over rows and output channels):
// out[f][y][x] += in[c][y + ky][x + kx] * w[f][c][ky][kx], 18 reduction
// points. The input is staged along x and copied in its order (no
// padding); the weights along f, walking the window.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<2x18x66xf32> {llvm.noalias}, %w: memref<64x2x3x3xf32> {llvm.noalias}, %out: memref<64x16x64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@conv blocks in (%c16, %c64, %c1) threads in (%c64, %c1, %c1) args(%in : memref<2x18x66xf32>, %w : memref<64x2x3x3xf32>, %out : memref<64x16x64xf32>)
    return
  }
  gpu.module @m {
    gpu.func @conv(%in: memref<2x18x66xf32>, %w: memref<64x2x3x3xf32>, %out: memref<64x16x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %x = gpu.thread_id x
      %y = gpu.block_id x
      %f = gpu.block_id y
      scf.for %c = %c0 to %c2 step %c1 {
        scf.for %ky = %c0 to %c3 step %c1 {
          scf.for %kx = %c0 to %c3 step %c1 {
            %iy = arith.addi %y, %ky : index
            %ix = arith.addi %x, %kx : index
            %v = memref.load %in[%c, %iy, %ix] : memref<2x18x66xf32>
            %k = memref.load %w[%f, %c, %ky, %kx] : memref<64x2x3x3xf32>
            %acc = memref.load %out[%f, %y, %x] : memref<64x16x64xf32>
            %p = arith.mulf %v, %k : f32
            %s = arith.addf %acc, %p : f32
            memref.store %s, %out[%f, %y, %x] : memref<64x16x64xf32>
          }
        }
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @conv(
// CHECK-SAME: %[[IN:[a-z0-9_]+]]: memref<2x18x66xf32>, %[[W:[a-z0-9_]+]]: memref<64x2x3x3xf32>, %[[OUT:[a-z0-9_]+]]: memref<64x16x64xf32>)
// CHECK-SAME: workgroup(%[[SIN:[a-z0-9_]+]] : memref<16x64xf32, #gpu.address_space<workgroup>>, %[[SW:[a-z0-9_]+]] : memref<16x68xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 16, 1, 1>
// CHECK: memref.load %[[IN]]
// CHECK: memref.load %[[W]]
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[SIN]]
// CHECK: memref.store %{{.*}}, %[[SW]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: vector.load %[[SIN]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.load %[[SW]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<16x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-16: arith.mulf
// CHECK-COUNT-4: vector.store %{{.*}}, %[[OUT]]
// With one row per thread, tiles of 64 columns by 16 channels: four times
// as many blocks, and one weight per thread and reduction point.
// ONE-LABEL: gpu.func @conv(
// ONE-SAME: workgroup(%[[SIN:[a-z0-9_]+]] : memref<16x64xf32, #gpu.address_space<workgroup>>, %[[SW:[a-z0-9_]+]] : memref<16x20xf32, #gpu.address_space<workgroup>>)
// ONE-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 64, 1, 1>
// ONE: gpu.barrier
// ONE: vector.load %[[SIN]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// ONE: memref.load %[[SW]][%{{.*}}, %{{.*}}] : memref<16x20xf32, #gpu.address_space<workgroup>>
// ONE-COUNT-4: arith.mulf

// -----

// A product of 80 x 96 points: tiles of 64 x 64 leave the second row of
// tiles and the second column of tiles partly past the extents. Threads
// past them start from zeros, copy their share of the slices (the copies'
// rows and columns clamped to the last) and store nothing.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<80x32xf32> {llvm.noalias}, %b: memref<32x96xf32> {llvm.noalias}, %c: memref<80x96xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c80 = arith.constant 80 : index
    %c96 = arith.constant 96 : index
    gpu.launch_func @m::@ragged blocks in (%c80, %c1, %c1) threads in (%c96, %c1, %c1) args(%a : memref<80x32xf32>, %b : memref<32x96xf32>, %c : memref<80x96xf32>)
    return
  }
  gpu.module @m {
    gpu.func @ragged(%a: memref<80x32xf32>, %b: memref<32x96xf32>, %c: memref<80x96xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      scf.for %k = %c0 to %c32 step %c1 {
        %x = memref.load %a[%i, %k] : memref<80x32xf32>
        %y = memref.load %b[%k, %j] : memref<32x96xf32>
        %acc = memref.load %c[%i, %j] : memref<80x96xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<80x96xf32>
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @ragged(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<80x32xf32>, %[[B:[a-z0-9_]+]]: memref<32x96xf32>, %[[C:[a-z0-9_]+]]: memref<80x96xf32>)
// CHECK-SAME: workgroup(%[[SA:[a-z0-9_]+]] : memref<16x68xf32, #gpu.address_space<workgroup>>, %[[SB:[a-z0-9_]+]] : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 4, 1, 1>
// Two tiles along each dimension: the block's column tile is its index
// modulo 2, its row tile the quotient.
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: arith.remui %block_id_x, %[[TWO]] : index
// CHECK-NEXT: arith.divui %block_id_x, %[[TWO]] : index
// CHECK-DAG: %[[COLUMNS:.*]] = arith.cmpi ult, %{{.*}}, %c96 : index
// CHECK-DAG: %[[ROWS:.*]] = arith.cmpi ult, %{{.*}}, %c80 : index
// CHECK: %[[INSIDE:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[START:.*]]:16 = scf.if %[[INSIDE]] -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-4: vector.load %[[C]]
// CHECK: } else {
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %c79 : index
// CHECK: memref.load %[[A]][%[[ROW]], %{{.*}}]
// CHECK: %[[COLUMN:.*]] = arith.minui %{{.*}}, %c95 : index
// CHECK: memref.load %[[B]][%{{.*}}, %[[COLUMN]]]
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: scf.if %[[INSIDE]] {
// CHECK-COUNT-4: vector.store %{{.*}}, %[[C]]
// CHECK-NEXT: {{^ +}}}{{$}}
// CHECK-NEXT: gpu.return
// ONE-LABEL: gpu.func @ragged(
// ONE-SAME: known_grid_size = array<i32: 10, 1, 1>
