// map-stack on IR: a block of 256 threads is 8 rows of 32 consecutive
// points; row l takes every 8th reduction point (of its chunk's share);
// the rows' partial results meet in shared memory, and after a barrier the
// first row combines them and puts the total into the output: stored alone,
// by an atomic operation with chunks.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-stack=16" | FileCheck %s
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-stack=1" | FileCheck %s --check-prefix=ONE

// A column maximum of i8, one thread per column: the rows are apart, so
// each warp takes 32 consecutive columns of one row.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<8192x1000xi8> {llvm.noalias}, %out: memref<1000xi8> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    gpu.launch_func @m::@colmax blocks in (%c1000, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8192x1000xi8>, %out : memref<1000xi8>)
    return
  }
  gpu.module @m {
    gpu.func @colmax(%a: memref<8192x1000xi8>, %out: memref<1000xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8192 = arith.constant 8192 : index
      %j = gpu.block_id x
      scf.for %i = %c0 to %c8192 step %c1 {
        %x = memref.load %a[%i, %j] : memref<8192x1000xi8>
        %acc = memref.load %out[%j] : memref<1000xi8>
        %m = arith.maxsi %acc, %x : i8
        memref.store %m, %out[%j] : memref<1000xi8>
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: func.func @host(
// 1000 columns in blocks of 32: 32 blocks per chunk, 16 chunks.
// CHECK-DAG: %[[GRID:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @m::@colmax blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%[[BLOCK]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @colmax(
// CHECK-SAME: %[[A:.*]]: memref<8192x1000xi8>, %[[OUT:.*]]: memref<1000xi8>) workgroup(%[[ROWS:.*]] : memref<256xi8, #gpu.address_space<workgroup>>) kernel
// CHECK-NOT: autoprof.reassociated
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 512, 1, 1>
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[B:.*]] = gpu.block_id x
// The chunk and the block within it.
// CHECK: %[[CHUNK:.*]] = arith.divui %[[B]], %{{.*}} : index
// CHECK: %[[INCHUNK:.*]] = arith.remui %[[B]], %{{.*}} : index
// The row (lane) and the column.
// CHECK: %[[ROW:.*]] = arith.divui %[[T]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK: %[[BASE:.*]] = arith.muli %[[INCHUNK]], %{{.*}} : index
// CHECK: %[[J:.*]] = arith.addi %[[BASE]], %[[COL]] : index
// Columns past the last take no row but reach the barrier.
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[J]], %{{.*}} : index
// CHECK: %[[MIN:.*]] = arith.constant -128 : i8
// CHECK: %[[PARTIAL:.*]] = scf.if %[[INSIDE]] -> (i8) {
// Chunk c's row l takes the rows 8c + l, 8c + l + 128, ...
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[FIRSTROW:.*]] = arith.muli %[[CHUNK]], %[[C8]] : index
// CHECK: %[[START:.*]] = arith.addi %[[FIRSTROW]], %[[ROW]] : index
// CHECK: %[[STEP:.*]] = arith.constant 128 : index
// CHECK: scf.for %[[I:.*]] = %[[START]] to %{{.*}} step %[[STEP]] iter_args(%[[ACC:.*]] = %[[MIN]]) -> (i8) {
// CHECK: %[[X:.*]] = memref.load %[[A]][%[[I]], %[[J]]]
// CHECK: arith.maxsi %[[ACC]], %[[X]] : i8
// CHECK: } else {
// CHECK: scf.yield %[[MIN]] : i8
// CHECK: memref.store %[[PARTIAL]], %[[ROWS]][%[[T]]]
// CHECK: gpu.barrier
// The first row, within the columns, combines the 8 rows.
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[ROW]], %{{.*}} : index
// CHECK: %[[TAKES:.*]] = arith.andi %[[FIRST]], %[[INSIDE]] : i1
// CHECK: scf.if %[[TAKES]] {
// CHECK: %[[R1:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK: %[[Y1:.*]] = memref.load %[[ROWS]][%[[R1]]]
// CHECK: %[[M1:.*]] = arith.maxsi %[[PARTIAL]], %[[Y1]] : i8
// CHECK-COUNT-6: arith.maxsi
// CHECK: memref.atomic_rmw maxs %{{.*}}, %[[OUT]][%[[J]]] : (i8, memref<1000xi8>) -> i8
// CHECK-NOT: memref.store
// CHECK: gpu.return

// Without chunks, the first row stores each column's maximum with the
// element it held; 32 blocks.
// ONE-LABEL: func.func @host(
// ONE: %[[GRID:.*]] = arith.constant 32 : index
// ONE: gpu.launch_func @m::@colmax blocks in (%[[GRID]],
// ONE-LABEL: gpu.func @colmax(
// ONE-SAME: known_grid_size = array<i32: 32, 1, 1>
// ONE-NOT: arith.divui %{{.*}}block_id
// ONE: %[[STEP:.*]] = arith.constant 8 : index
// ONE: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]]
// ONE: gpu.barrier
// ONE: scf.if
// ONE-COUNT-7: arith.maxsi
// ONE: %[[OLD:.*]] = memref.load %{{.*}}[%[[J:.*]]] : memref<1000xi8>
// ONE: %[[NEW:.*]] = arith.maxsi %[[OLD]], %{{.*}} : i8
// ONE: memref.store %[[NEW]], %{{.*}}[%[[J]]] : memref<1000xi8>
// ONE-NOT: memref.atomic_rmw

// -----

// A sum over the rows of an NHWC tensor for each channel (the channels are
// contiguous, the reduction is not): floating-point sums are reassociated.
module attributes {gpu.container_module} {
  func.func @host(%x: memref<8x64x64x64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@chansum blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<8x64x64x64xf32>, %out : memref<64xf32>)
    return
  }
  gpu.module @m {
    gpu.func @chansum(%x: memref<8x64x64x64xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %c = gpu.thread_id x
      scf.for %n = %c0 to %c8 step %c1 {
        scf.for %h = %c0 to %c64 step %c1 {
          scf.for %w = %c0 to %c64 step %c1 {
            %v = memref.load %x[%n, %h, %w, %c] : memref<8x64x64x64xf32>
            %acc = memref.load %out[%c] : memref<64xf32>
            %s = arith.addf %acc, %v : f32
            memref.store %s, %out[%c] : memref<64xf32>
          }
        }
      }
      gpu.return
    }
  }
}
// 64 channels: two blocks per chunk, 16 chunks; the three reduction
// dimensions linearized, w innermost.
// CHECK-LABEL: func.func @host(
// CHECK: %[[GRID:.*]] = arith.constant 32 : index
// CHECK: gpu.launch_func @m::@chansum blocks in (%[[GRID]],
// CHECK-LABEL: gpu.func @chansum(
// CHECK-SAME: workgroup(%[[ROWS:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: autoprof.reassociated
// CHECK-NOT: arith.cmpi ult
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[W:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK: %[[NH:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK: %[[H:.*]] = arith.remui %[[NH]], %{{.*}} : index
// CHECK: %[[N:.*]] = arith.divui %[[NH]], %{{.*}} : index
// CHECK: memref.load %{{.*}}[%[[N]], %[[H]], %[[W]], %{{.*}}]
// CHECK: gpu.barrier
// CHECK-COUNT-7: arith.addf
// CHECK: memref.atomic_rmw addf
