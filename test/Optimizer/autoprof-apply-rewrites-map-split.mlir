// map-split on IR: each point's linearized reductions go to S chunks of
// threads, the chunks outermost in the launch; each chunk accumulates its
// share from the combination's neutral element and combines its total into
// the output with an atomic operation (after the lanes' shuffles where the
// largest loads walk a reduction contiguously).
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-split=64" | FileCheck %s

// A column maximum of i8, one thread per column: the rows are not
// contiguous, so a chunk's consecutive threads take consecutive columns and
// each walks every 64th row from its chunk's.
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
// 1000 points in 64 chunks: 64000 threads, 250 blocks of 256.
// CHECK-DAG: %[[GRID:.*]] = arith.constant 250 : index
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @m::@colmax blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%[[BLOCK]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @colmax(
// CHECK-SAME: %[[A:.*]]: memref<8192x1000xi8>, %[[OUT:.*]]: memref<1000xi8>) kernel
// Integer maxima come out exact.
// CHECK-NOT: autoprof.reassociated
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 250, 1, 1>
// CHECK: %[[LINEAR:.*]] = arith.addi
// CHECK: %[[CHUNK:.*]] = arith.divui %[[LINEAR]], %{{.*}} : index
// CHECK: %[[J:.*]] = arith.remui %[[LINEAR]], %{{.*}} : index
// The signed maximum's neutral element.
// CHECK: %[[MIN:.*]] = arith.constant -128 : i8
// CHECK: %[[START:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[STEP:.*]] = arith.constant 64 : index
// CHECK: %[[PARTIAL:.*]] = scf.for %[[I:.*]] = %[[START]] to %{{.*}} step %[[STEP]] iter_args(%[[ACC:.*]] = %[[MIN]]) -> (i8) {
// CHECK: %[[X:.*]] = memref.load %[[A]][%[[I]], %[[J]]]
// CHECK: %[[M:.*]] = arith.maxsi %[[ACC]], %[[X]] : i8
// CHECK: scf.yield %[[M]] : i8
// CHECK: memref.atomic_rmw maxs %[[PARTIAL]], %[[OUT]][%[[J]]] : (i8, memref<1000xi8>) -> i8
// CHECK-NOT: memref.store
// CHECK: gpu.return

// -----

// A whole-tensor sum by one thread: one point, whose reduction is
// contiguous, gets a warp of lanes in each of 64 chunks; lane l of chunk c
// takes the elements 32c + l, 32c + l + 2048, ...; the first lane of each
// chunk adds its total atomically.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<512x1024xf32> {llvm.noalias}, %out: memref<1xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@total blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<512x1024xf32>, %out : memref<1xf32>)
    return
  }
  gpu.module @m {
    gpu.func @total(%in: memref<512x1024xf32>, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      scf.for %i = %c0 to %c512 step %c1 {
        scf.for %j = %c0 to %c1024 step %c1 {
          %x = memref.load %in[%i, %j] : memref<512x1024xf32>
          %acc = memref.load %out[%c0] : memref<1xf32>
          %s = arith.addf %acc, %x : f32
          memref.store %s, %out[%c0] : memref<1xf32>
        }
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @total(
// CHECK-SAME: %[[IN:.*]]: memref<512x1024xf32>, %[[OUT:.*]]: memref<1xf32>) kernel
// Float sums are reassociated.
// CHECK-SAME: autoprof.reassociated
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 8, 1, 1>
// CHECK: %[[LINEAR:.*]] = arith.addi
// CHECK: %[[CHUNK:.*]] = arith.divui %[[LINEAR]], %{{.*}} : index
// CHECK: %[[INCHUNK:.*]] = arith.remui %[[LINEAR]], %{{.*}} : index
// CHECK: %[[LANE:.*]] = arith.remui %[[INCHUNK]], %{{.*}} : index
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %{{.*}} : index
// CHECK: %[[START:.*]] = arith.addi %[[FIRST]], %[[LANE]] : index
// CHECK: %[[STEP:.*]] = arith.constant 2048 : index
// CHECK: %[[PARTIAL:.*]] = scf.for %[[R:.*]] = %[[START]] to %{{.*}} step %[[STEP]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[J:.*]] = arith.remui %[[R]], %{{.*}} : index
// CHECK: %[[I:.*]] = arith.divui %[[R]], %{{.*}} : index
// CHECK: %[[X:.*]] = memref.load %[[IN]][%[[I]], %[[J]]]
// CHECK: arith.addf %[[ACC]], %[[X]] : f32
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK: scf.if %[[IS0]] {
// CHECK: memref.atomic_rmw addf %{{.*}}, %[[OUT]][%{{.*}}] : (f32, memref<1xf32>) -> f32
// CHECK-NOT: memref.store
// CHECK: gpu.return
