// contraction-tile ranks its tile sizes by a model of the waves
// (getTileCost in lib/Optimizer/Families/ContractionTile.cpp): the blocks of
// S x S results spread over the SMs, the most loaded SM runs the most of
// them, each at the share of the FMA peak its size sustains. A small
// problem ranks small tiles first, a large one large tiles, and the SM
// count the profile measured (launch__sm_count) replaces the default of an
// H200's 132.
// RUN: autoprof-opt %s --autoprof-propose-rewrites | FileCheck %s
// RUN: autoprof-opt %s --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// 768 x 768 results: S = 64 makes 144 blocks, 12 SMs of 132 run two of
// them; S = 32 makes 576, at most five per SM.
// CHECK-LABEL: gpu.func @small
// CHECK-SAME: autoprof.proposals = [{{.*}}"contraction-tile=32", "contraction-tile=64", "contraction-tile=16", "contraction-tile=128"
// REMARK: remark: @small: proposal 1: contraction-tile=32 (score 11.40); tile model: 576 blocks on 132 SMs (launch__sm_count not collected: sm_90's, H100 or H200), at most 5 per SM at 0.42 of the FMA peak, cost 12190;
// REMARK: remark: @small: proposal 2: contraction-tile=64 (score 11.30); tile model: 144 blocks on 132 SMs {{.*}}, at most 2 per SM at 0.49 of the FMA peak, cost 16718;

// 2048 x 2048 results: 256 blocks of S = 128, two per SM.
// CHECK-LABEL: gpu.func @large
// CHECK-SAME: autoprof.proposals = [{{.*}}"contraction-tile=128", "contraction-tile=64", "contraction-tile=32", "contraction-tile=16"

// The 768 x 768 problem on a GPU of 16 SMs: enough blocks of every size
// for each SM, the largest tile first.
// CHECK-LABEL: gpu.func @small_on_few_sms
// CHECK-SAME: autoprof.proposals = [{{.*}}"contraction-tile=128", "contraction-tile=64", "contraction-tile=32", "contraction-tile=16"
// REMARK: remark: @small_on_few_sms: proposal 1: contraction-tile=128 (score 11.40); tile model: 36 blocks on 16 SMs, at most 3 per SM at 0.67 of the FMA peak, cost 73361;
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @small(%a: memref<768x256xf32>, %b: memref<256x768xf32>, %c: memref<768x768xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<768x768xf32>
      %sum = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<768x256xf32>
        %y = memref.load %b[%k, %j] : memref<256x768xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<768x768xf32>
      gpu.return
    }
    gpu.func @large(%a: memref<2048x256xf32>, %b: memref<256x2048xf32>, %c: memref<2048x2048xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<2048x2048xf32>
      %sum = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<2048x256xf32>
        %y = memref.load %b[%k, %j] : memref<256x2048xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<2048x2048xf32>
      gpu.return
    }
    gpu.func @small_on_few_sms(%a: memref<768x256xf32>, %b: memref<256x768xf32>, %c: memref<768x768xf32>) kernel attributes {autoprof.measurement = {gpu = "a GPU of 16 SMs", median_us = 100.0 : f64, metrics = {"launch__sm_count" = 16.0 : f64}}} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<768x768xf32>
      %sum = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<768x256xf32>
        %y = memref.load %b[%k, %j] : memref<256x768xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<768x768xf32>
      gpu.return
    }
  }
  func.func @main(%a768: memref<768x256xf32>, %b768: memref<256x768xf32>, %c768: memref<768x768xf32>, %a2048: memref<2048x256xf32>, %b2048: memref<256x2048xf32>, %c2048: memref<2048x2048xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gsmall = arith.constant 48 : index
    gpu.launch_func @kernels::@small blocks in (%gsmall, %gsmall, %c1) threads in (%c16, %c16, %c1) args(%a768 : memref<768x256xf32>, %b768 : memref<256x768xf32>, %c768 : memref<768x768xf32>)
    %glarge = arith.constant 128 : index
    gpu.launch_func @kernels::@large blocks in (%glarge, %glarge, %c1) threads in (%c16, %c16, %c1) args(%a2048 : memref<2048x256xf32>, %b2048 : memref<256x2048xf32>, %c2048 : memref<2048x2048xf32>)
    %gfew = arith.constant 48 : index
    gpu.launch_func @kernels::@small_on_few_sms blocks in (%gfew, %gfew, %c1) threads in (%c16, %c16, %c1) args(%a768 : memref<768x256xf32>, %b768 : memref<256x768xf32>, %c768 : memref<768x768xf32>)
    return
  }
}
