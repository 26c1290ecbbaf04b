// map-lanes on IR: L consecutive lanes share each parallel point, split its
// linearized reductions (the contiguous reduction dimension innermost),
// combine their partial results with shuffles among just them, and the
// first lane combines the output's element with the total and stores it.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-lanes=8" | FileCheck %s

// A sum over (k, j) of a [k][i][j] buffer, one thread per row i: j is
// contiguous, so the lanes walk it.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<3x1000x100xf32> {llvm.noalias}, %out: memref<1000xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    gpu.launch_func @m::@sum blocks in (%c1000, %c1, %c1) threads in (%c1, %c1, %c1) args(%in : memref<3x1000x100xf32>, %out : memref<1000xf32>)
    return
  }
  gpu.module @m {
    gpu.func @sum(%in: memref<3x1000x100xf32>, %out: memref<1000xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c100 = arith.constant 100 : index
      %i = gpu.block_id x
      scf.for %k = %c0 to %c3 step %c1 {
        scf.for %j = %c0 to %c100 step %c1 {
          %x = memref.load %in[%k, %i, %j] : memref<3x1000x100xf32>
          %acc = memref.load %out[%i] : memref<1000xf32>
          %s = arith.addf %acc, %x : f32
          memref.store %s, %out[%i] : memref<1000xf32>
        }
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: func.func @host(
// CHECK-DAG: %[[GRID:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @m::@sum blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%[[BLOCK]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @sum(
// CHECK-SAME: %[[IN:.*]]: memref<3x1000x100xf32>, %[[OUT:.*]]: memref<1000xf32>) kernel
// Float sums are reassociated.
// CHECK-SAME: autoprof.reassociated
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 32, 1, 1>
// CHECK: %[[LINEAR:.*]] = arith.addi
// CHECK: %[[LANE:.*]] = arith.remui %[[LINEAR]], %[[L:.*]] : index
// CHECK: %[[I:.*]] = arith.divui %[[LINEAR]], %{{.*}} : index
// 1000 points of 8 lanes fill 8000 of the 8192 threads.
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[LINEAR]], %{{.*}} : index
// CHECK: scf.if %[[INSIDE]] {
// Each lane starts from -0, the sum's neutral element, and takes every 8th
// of the 300 points from its own.
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[PARTIAL:.*]] = scf.for %[[R:.*]] = %[[LANE]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK: %[[J:.*]] = arith.remui %[[R]], %{{.*}} : index
// CHECK: %[[K:.*]] = arith.divui %[[R]], %{{.*}} : index
// CHECK: %[[X:.*]] = memref.load %[[IN]][%[[K]], %[[I]], %[[J]]]
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK: scf.yield %[[S]] : f32
// The 8 lanes of a point start at a multiple of 8 within the warp.
// CHECK: %[[WARPLANE:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[FIRST:.*]] = arith.andi %[[WARPLANE]], %{{.*}} : i32
// CHECK: %[[MASK:.*]] = arith.shli %{{.*}}, %[[FIRST]] : i32
// CHECK: %[[O4:.*]] = nvvm.shfl.sync bfly %[[MASK]], %[[PARTIAL]], %{{.*}}, %{{.*}} : f32 -> f32
// CHECK: %[[S4:.*]] = arith.addf %[[PARTIAL]], %[[O4]] : f32
// CHECK: nvvm.shfl.sync bfly %[[MASK]], %[[S4]]
// CHECK: nvvm.shfl.sync bfly %[[MASK]]
// CHECK: %[[TOTAL:.*]] = arith.addf
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK: scf.if %[[IS0]] {
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]][%[[I]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[TOTAL]] : f32
// CHECK: memref.store %[[NEW]], %[[OUT]][%[[I]]]

// -----

// An f64 maximum (exact: no reassociation mark) over a window, one thread
// per point on a 2-D grid: 64-bit values travel as two 32-bit halves.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<64x64xf64> {llvm.noalias}, %out: memref<4x4xf64> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @m::@pool blocks in (%c4, %c4, %c1) threads in (%c1, %c1, %c1) args(%in : memref<64x64xf64>, %out : memref<4x4xf64>)
    return
  }
  gpu.module @m {
    gpu.func @pool(%in: memref<64x64xf64>, %out: memref<4x4xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %h = gpu.block_id x
      %w = gpu.block_id y
      scf.for %kh = %c0 to %c16 step %c1 {
        scf.for %kw = %c0 to %c16 step %c1 {
          %h16 = arith.muli %h, %c16 : index
          %hi = arith.addi %h16, %kh : index
          %w16 = arith.muli %w, %c16 : index
          %wi = arith.addi %w16, %kw : index
          %x = memref.load %in[%hi, %wi] : memref<64x64xf64>
          %acc = memref.load %out[%h, %w] : memref<4x4xf64>
          %m = arith.maxnumf %acc, %x : f64
          memref.store %m, %out[%h, %w] : memref<4x4xf64>
        }
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @pool(
// CHECK-NOT: autoprof.reassociated
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 1, 1, 1>
// maxnumf's neutral element is NaN.
// CHECK: %[[NAN:.*]] = arith.constant 0x7FF8000000000000 : f64
// CHECK: %[[PARTIAL:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[NAN]]) -> (f64) {
// CHECK: arith.maxnumf %[[ACC]], %{{.*}} : f64
// CHECK: %[[BITS:.*]] = arith.bitcast %[[PARTIAL]] : f64 to i64
// CHECK: %[[LOW:.*]] = arith.trunci %[[BITS]] : i64 to i32
// CHECK: %[[HIGH:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[LOW]]
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %[[HIGH]]
// CHECK: %[[BACK:.*]] = arith.bitcast %{{.*}} : i64 to f64
// CHECK: arith.maxnumf %[[PARTIAL]], %[[BACK]] : f64

// -----

// An i8 sum carried in a register (register-accumulate's form): the lanes
// exchange it widened to 32 bits and truncated back.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<512x256xi8> {llvm.noalias}, %out: memref<512xi8> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@rows blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<512x256xi8>, %out : memref<512xi8>)
    return
  }
  gpu.module @m {
    gpu.func @rows(%in: memref<512x256xi8>, %out: memref<512xi8>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %b, %c256 : index
      %i = arith.addi %base, %t : index
      %init = memref.load %out[%i] : memref<512xi8>
      %sum = scf.for %j = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (i8) {
        %x = memref.load %in[%i, %j] : memref<512x256xi8>
        %s = arith.addi %acc, %x : i8
        scf.yield %s : i8
      }
      memref.store %sum, %out[%i] : memref<512xi8>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @rows(
// CHECK-NOT: autoprof.reassociated
// CHECK-SAME: known_grid_size = array<i32: 16, 1, 1>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK: %[[PARTIAL:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (i8) {
// CHECK: %[[WIDE:.*]] = arith.extui %[[PARTIAL]] : i8 to i32
// CHECK: %[[GOT:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[WIDE]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: %[[NARROW:.*]] = arith.trunci %[[GOT]] : i32 to i8
// CHECK: arith.addi %[[PARTIAL]], %[[NARROW]] : i8
