// The ranking of mma-tile's tiles: 128 ahead of 64 where tiles of 128 give
// every SM a block or more (a 2048^3 matmul of halves: 256 tiles on an
// H200's 132 SMs), 64 first where they would leave most SMs idle (256 x 256
// results: 4 tiles of 128); both ahead of contraction-tile.
// RUN: autoprof-opt %s --autoprof-propose-rewrites | FileCheck %s
// RUN: autoprof-opt %s --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: gpu.func @small
// CHECK-SAME: autoprof.proposals = ["mma-tile=64", "mma-tile=128", "contraction-tile=
// REMARK: remark: @small: proposal 2: mma-tile=128 (score 11.45); products of halves on tensor cores; 4 tiles of 128 on 132 SMs (launch__sm_count not collected: sm_90's, H100 or H200)
// CHECK-LABEL: gpu.func @large
// CHECK-SAME: autoprof.proposals = ["mma-tile=128", "mma-tile=64", "contraction-tile=
// REMARK: remark: @large: proposal 1: mma-tile=128 (score 11.60); products of halves on tensor cores; 256 tiles of 128 on 132 SMs
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @small(%a: memref<256x48xf16>, %b: memref<48x256xf16>, %c: memref<256x256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 48 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<256x256xf32>
      %sum = scf.for %k = %c0 to %cK step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<256x48xf16>
        %y = memref.load %b[%k, %j] : memref<48x256xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<256x256xf32>
      gpu.return
    }

    gpu.func @large(%a: memref<2048x2048xf16>, %b: memref<2048x2048xf16>, %c: memref<2048x2048xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 2048 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<2048x2048xf32>
      %sum = scf.for %k = %c0 to %cK step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<2048x2048xf16>
        %y = memref.load %b[%k, %j] : memref<2048x2048xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<2048x2048xf32>
      gpu.return
    }
  }
  func.func @main(%as: memref<256x48xf16>, %bs: memref<48x256xf16>, %cs: memref<256x256xf32>, %al: memref<2048x2048xf16>, %bl: memref<2048x2048xf16>, %cl: memref<2048x2048xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@small blocks in (%c16, %c16, %c1) threads in (%c16, %c16, %c1) args(%as : memref<256x48xf16>, %bs : memref<48x256xf16>, %cs : memref<256x256xf32>)
    gpu.launch_func @kernels::@large blocks in (%c128, %c128, %c1) threads in (%c16, %c16, %c1) args(%al : memref<2048x2048xf16>, %bl : memref<2048x2048xf16>, %cl : memref<2048x2048xf32>)
    return
  }
}
