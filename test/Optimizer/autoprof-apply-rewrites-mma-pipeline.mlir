// mma-pipeline=128: mma-tile=128 (a 2 x 4 grid of warps, each summing 64
// rows and 32 columns of the 128 x 128 tile in eight 16 x 16 fragments per
// step of 16, two steps per stage of 32) with the staged tiles in two
// buffers: the first stage is copied before the loop, each stage starts
// the next one's copies into the other buffer (asynchronous: cp.async),
// runs its fragments from buffer stage mod 2, waits for its copies and
// waits once at the barrier. The sums reach the
// threads through a shared tile of 16 rows in eight passes (each fragment
// stored in the pass of its rows), and each result's initial value is
// loaded after the loop, not held through it. At 64 the tile of sums keeps
// its 32 rows. Refusals: autoprof-apply-rewrites-mma-pipeline-invalid.mlir.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-pipeline=128" | FileCheck %s
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-pipeline=64" | FileCheck %s --check-prefix=SIXTYFOUR

// C[i][j] += sum_k f32(A[i][k]) * f32(B[k][j]), 256 x 256 results over 64
// products: two whole stages.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // SIXTYFOUR-LABEL: gpu.func @matmul(
    // SIXTYFOUR-SAME: workgroup(%{{.*}} : memref<2x64x40xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %{{.*}} : memref<2x32x72xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %{{.*}} : memref<32x68xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})
    // CHECK-LABEL: gpu.func @matmul(
    // CHECK-SAME: workgroup(%[[A:.*]] : memref<2x128x40xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[B:.*]] : memref<2x32x136xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[SUMS:.*]] : memref<16x132xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})
    // CHECK-SAME: autoprof.reassociated
    // CHECK-SAME: known_block_size = array<i32: 16, 16, 1>, known_grid_size = array<i32: 2, 2, 1>
    // CHECK-SAME: nvvm.minctasm = 2
    // The initial values are not read before the loop.
    // CHECK-NOT: memref.load %arg2
    // CHECK-NOT: vector.load %arg2
    // CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
    // The first stage goes to the first of the tiles' two buffers, each
    // thread's groups of eight halves as asynchronous copies (cp.async,
    // 16 bytes each), waited for before the barrier; the stages carry the
    // eight fragments of sums.
    // CHECK-COUNT-2: nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %[[A]][%c0, %{{.*}}, %{{.*}}], 8 {bypassL1} : memref<256x64xf16> to memref<2x128x40xf16, #gpu.address_space<workgroup>>
    // CHECK-COUNT-2: nvgpu.device_async_copy %arg1[%{{.*}}, %{{.*}}], %[[B]][%c0, %{{.*}}, %{{.*}}], 8 {bypassL1} : memref<64x256xf16> to memref<2x32x136xf16, #gpu.address_space<workgroup>>
    // CHECK: %[[FIRST_GROUP:.*]] = nvgpu.device_async_create_group
    // CHECK-NEXT: nvgpu.device_async_wait %[[FIRST_GROUP]] {numGroups = 0 : i32}
    // CHECK-NEXT: gpu.barrier
    // CHECK: %[[SUMMED:.*]]:64 = scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]])
    // The next stage's copies into the other buffer start first.
    // CHECK: %[[CUR:.*]] = arith.remui %{{.*}}, %c2 : index
    // CHECK-NEXT: %[[OTHER:.*]] = arith.subi %c1, %[[CUR]] : index
    // CHECK-COUNT-2: nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %[[A]][%[[OTHER]],
    // CHECK-COUNT-2: nvgpu.device_async_copy %arg1[%{{.*}}, %{{.*}}], %[[B]][%[[OTHER]],
    // Per step, from buffer stage mod 2: the warp's two column fragments,
    // then each of its four row fragments and its products with them.
    // CHECK-COUNT-2: nvgpu.ldmatrix %[[B]][%[[BUF:[^,]*]], %[[K:[^,]*]], %{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<2x32x136xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // CHECK-COUNT-4: nvgpu.ldmatrix %[[A]][%[[BUF]], %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<2x128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // CHECK: %[[K16:.*]] = arith.addi %[[K]], %c16 : index
    // CHECK-COUNT-2: nvgpu.ldmatrix %[[B]][%[[BUF]], %[[K16]],
    // CHECK-COUNT-4: nvgpu.ldmatrix %[[A]][%[[BUF]],
    // CHECK-NOT: nvgpu.ldmatrix
    // CHECK-NOT: vector.store
    // CHECK: %[[GROUP:.*]] = nvgpu.device_async_create_group
    // CHECK-NEXT: nvgpu.device_async_wait %[[GROUP]] {numGroups = 0 : i32}
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: scf.yield
    // The tile of sums has 16 rows here (the staged tiles' two buffers take
    // 37 KiB of the 48): eight passes. Pass 0: each row fragment whose rows
    // are the first 16.
    // CHECK: %[[PASS0:.*]] = arith.divui %[[ROW0:.*]], %c16 : index
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
    // Pass 1: rows 16 .. 31, 16 rows up.
    // CHECK: %[[PASS1:.*]] = arith.cmpi eq, %[[PASS0]], %c1 : index
    // CHECK: scf.if %[[PASS1]] {
    // CHECK-NEXT: %[[UP:.*]] = arith.subi %[[ROW0]], %c16 : index
    // CHECK-NEXT: %[[TOP1:.*]] = arith.addi %[[UP]], %{{.*}} : index
    // CHECK: %[[PAIR1:.*]] = vector.from_elements %[[SUMMED]]#0, %[[SUMMED]]#1 : vector<2xf32>
    // CHECK-NEXT: vector.store %[[PAIR1]], %[[SUMS]][%[[TOP1]], %{{.*}}]
    // CHECK: gpu.barrier
    // CHECK: vector.load %[[SUMS]]
    // Passes 2 to 7: rows 32 .. 127.
    // CHECK: arith.subi %{{.*}}, %c32 : index
    // CHECK: arith.subi %{{.*}}, %c48 : index
    // CHECK: arith.subi %{{.*}}, %c112 : index
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
