// mma-tile=128: a 2 x 4 grid of warps, each summing 64 rows and 32 columns
// of the 128 x 128 tile in eight 16 x 16 fragments per step of 16 (four row
// fragments, each against the two column fragments loaded once per step),
// two steps per stage of 32; the sums reach the threads through a shared
// tile of 32 rows in four passes (each fragment stored in the pass of its
// rows), and each result's initial value is loaded after the loop, not
// held through it.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-tile=128" | FileCheck %s

// C[i][j] += sum_k f32(A[i][k]) * f32(B[k][j]), 256 x 256 results over 64
// products: two whole stages.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul(
    // CHECK-SAME: workgroup(%[[A:.*]] : memref<128x40xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[B:.*]] : memref<32x136xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[SUMS:.*]] : memref<32x132xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})
    // CHECK-SAME: autoprof.reassociated
    // CHECK-SAME: known_block_size = array<i32: 16, 16, 1>, known_grid_size = array<i32: 2, 2, 1>
    // CHECK-SAME: nvvm.minctasm = 2
    // The initial values are not read before the loop.
    // CHECK-NOT: memref.load %arg2
    // CHECK-NOT: vector.load %arg2
    // CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
    // CHECK: %[[SUMMED:.*]]:96 = scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %{{[0-9]+}},
    // CHECK: gpu.barrier
    // Per step, the warp's two column fragments, then each of its four row
    // fragments and its two products (four m16n8k16) with them.
    // CHECK-COUNT-2: nvgpu.ldmatrix %[[B]][%[[K:[^,]*]], %{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<32x136xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // CHECK-COUNT-4: nvgpu.ldmatrix %[[A]][%{{.*}}, %[[KA:.*]]] {numTiles = 4 : i32, transpose = false} : memref<128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // CHECK: %[[K16:.*]] = arith.addi %[[K]], %c16 : index
    // CHECK-COUNT-2: nvgpu.ldmatrix %[[B]][%[[K16]],
    // CHECK-COUNT-4: nvgpu.ldmatrix %[[A]]
    // CHECK-NOT: nvgpu.ldmatrix
    // CHECK: gpu.barrier
    // CHECK-NEXT: scf.yield
    // Pass 0: each row fragment whose rows are among the first 32.
    // CHECK: %[[PASS0:.*]] = arith.divui %[[ROW0:.*]], %c32 : index
    // CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[PASS0]], %c0 : index
    // CHECK: scf.if %[[FIRST]] {
    // CHECK-NEXT: %[[TOP:.*]] = arith.addi %[[ROW0]], %{{.*}} : index
    // CHECK: %[[PAIR:.*]] = vector.from_elements %[[SUMMED]]#0, %[[SUMMED]]#1 : vector<2xf32>
    // CHECK-NEXT: vector.store %[[PAIR]], %[[SUMS]][%[[TOP]], %{{.*}}] {alignment = 8 : i64} : memref<{{16|32}}x132xf32, #gpu.address_space<workgroup>>, vector<2xf32>
    // CHECK: vector.from_elements %[[SUMMED]]#8, %[[SUMMED]]#9
    // CHECK-COUNT-3: scf.if
    // CHECK: gpu.barrier
    // CHECK: vector.load %[[SUMS]]
    // CHECK: vector.load %arg2
    // CHECK: gpu.barrier
    // Pass 1: rows 32 .. 63, 32 rows up.
    // CHECK: %[[PASS1:.*]] = arith.cmpi eq, %[[PASS0]], %c1 : index
    // CHECK: scf.if %[[PASS1]] {
    // CHECK-NEXT: %[[UP:.*]] = arith.subi %[[ROW0]], %c32 : index
    // CHECK-NEXT: %[[TOP1:.*]] = arith.addi %[[UP]], %{{.*}} : index
    // CHECK: %[[PAIR1:.*]] = vector.from_elements %[[SUMMED]]#0, %[[SUMMED]]#1 : vector<2xf32>
    // CHECK-NEXT: vector.store %[[PAIR1]], %[[SUMS]][%[[TOP1]], %{{.*}}]
    // CHECK: gpu.barrier
    // CHECK: vector.load %[[SUMS]]
    // Passes 2 and 3: rows 64 .. 127.
    // CHECK: arith.subi %{{.*}}, %c64 : index
    // CHECK: arith.subi %{{.*}}, %c96 : index
    // CHECK: vector.load %[[SUMS]]
    // CHECK: arith.addf
    // CHECK-NOT: arith.mulf
    // CHECK: vector.store %{{.*}}, %arg2
    // CHECK: gpu.return
    gpu.func @matmul(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<256x256xf32>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<256x64xf16>
        %y = memref.load %b[%k, %j] : memref<64x256xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<256x256xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul blocks in (%c16, %c16, %c1) threads in (%c16, %c16, %c1) args(%a : memref<256x64xf16>, %b : memref<64x256xf16>, %c : memref<256x256xf32>)
    return
  }
}
