// map-lanes beyond a warp: 128 lanes per point, each warp's lanes combine
// by shuffles, the four warps of a point through the block's shared memory
// after a barrier that every thread of the block reaches; the first lane
// of each point stores.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=map-lanes=128" | FileCheck %s

// A maximum over each of 75 rows of 8192 elements, a thread per row:
// 75 points of 128 lanes are 9600 threads, 38 blocks of 256.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<75x8192xf32> {llvm.noalias}, %out: memref<75xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c75 = arith.constant 75 : index
    gpu.launch_func @m::@rows blocks in (%c75, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<75x8192xf32>, %out : memref<75xf32>)
    return
  }
  gpu.module @m {
    gpu.func @rows(%in: memref<75x8192xf32>, %out: memref<75xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8192 = arith.constant 8192 : index
      %i = gpu.block_id x
      scf.for %j = %c0 to %c8192 step %c1 {
        %x = memref.load %in[%i, %j] : memref<75x8192xf32>
        %acc = memref.load %out[%i] : memref<75xf32>
        %m = arith.maxnumf %acc, %x : f32
        memref.store %m, %out[%i] : memref<75xf32>
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @rows(
// CHECK-SAME: %[[IN:.*]]: memref<75x8192xf32>, %[[OUT:.*]]: memref<75xf32>) workgroup(%[[WARPS:.*]] : memref<8xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 38, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LINEAR:.*]] = arith.addi
// CHECK: %[[LANE:.*]] = arith.remui %[[LINEAR]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.divui %[[LINEAR]], %{{.*}} : index
// Threads past the last point take no reduction point (no early return:
// the barrier below needs them).
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[LINEAR]], %{{.*}} : index
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %[[PARTIAL:.*]] = scf.if %[[INSIDE]] -> (f32) {
// CHECK: scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[NAN]]) -> (f32) {
// CHECK: memref.load %[[IN]][%[[ROW]], %{{.*}}]
// CHECK: } else {
// CHECK: scf.yield %[[NAN]] : f32
// A warp's 32 lanes, the whole mask.
// CHECK: %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-COUNT-5: nvvm.shfl.sync bfly %[[ALL]]
// Each warp's first lane writes its total; a barrier outside any condition.
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %{{.*}} : index
// CHECK: scf.if %{{.*}} {
// CHECK: memref.store %{{.*}}, %[[WARPS]][%[[WARP]]]
// CHECK: }
// CHECK-NEXT: gpu.barrier
// The point's first 4 lanes take its 4 warps' totals.
// CHECK: %[[TAKES:.*]] = arith.cmpi ult, %[[LANE]], %{{.*}} : index
// CHECK: scf.if %[[TAKES]] -> (f32) {
// CHECK: memref.load %[[WARPS]]
// CHECK: } else {
// CHECK: scf.yield %[[NAN]] : f32
// CHECK-COUNT-2: nvvm.shfl.sync bfly %[[ALL]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK: %[[STORES:.*]] = arith.andi %[[FIRST]], %[[INSIDE]] : i1
// CHECK: scf.if %[[STORES]] {
// CHECK: memref.load %[[OUT]][%[[ROW]]]
// CHECK: arith.maxnumf
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[ROW]]]
