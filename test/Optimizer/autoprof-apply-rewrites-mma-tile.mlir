// mma-tile on a contraction of halves with an f32 sum (a linalg.matmul of
// f16 operands into f32 after register-accumulate): contraction-tile's
// staging of a 64 x 64 tile in stages of 32 iterations, with the products on
// tensor cores (nvgpu.ldmatrix and nvvm.mma.sync m16n8k16), two 16 x 16
// fragments per warp and step of 16, the sums
// through a shared tile of 32 rows of f32 in two passes and added to each
// result's initial value.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-tile=64 kernel=matmul" | FileCheck %s
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-tile=64 kernel=matmul_at" | FileCheck %s --check-prefix=AT
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-tile=64 kernel=matmul_bt" | FileCheck %s --check-prefix=BT
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-tile=64 kernel=matmul_k36" | FileCheck %s --check-prefix=K36

// C[i][j] += sum_k f32(A[i][k]) * f32(B[k][j]), 64 x 128 results over 40
// products: two stages, the last one 8 iterations and 24 of zeros.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul(
    // A's tile holds a row of 32 iterations (and 8 of padding) per result
    // row, B's a row of 64 columns (and 8) per iteration.
    // CHECK-SAME: workgroup(%[[A:.*]] : memref<64x40xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[B:.*]] : memref<32x72xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[SUMS:.*]] : memref<32x68xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})
    // CHECK-SAME: autoprof.reassociated
    // CHECK-SAME: known_block_size = array<i32: 16, 16, 1>, known_grid_size = array<i32: 2, 1, 1>
    // CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
    // The first stage's loads, before the loop: eight neighbouring halves in
    // one 128-bit load.
    // CHECK: vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x40xf16>, vector<8xf16>
    // CHECK: vector.load %arg1[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<40x128xf16>, vector<8xf16>
    // Iterations past the 40th stage zeros.
    // CHECK: arith.select
    // The stages carry the two fragments' 16 sums of each lane and the
    // next stage's 16 halves.
    // CHECK: %[[SUMMED:.*]]:32 = scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]],
    // The copies store as they load: eight neighbouring iterations of A,
    // eight neighbouring columns of B, one 128-bit store each.
    // CHECK: vector.store %{{.*}}, %[[A]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    // CHECK: vector.store %{{.*}}, %[[B]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<32x72xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    // CHECK: gpu.barrier
    // Two steps of 16 per stage: the warp's two column fragments (B's tile
    // holds a row per iteration: ldmatrix transposes), its row fragment, and
    // two m16n8k16 products per column fragment, on pairs of halves.
    // CHECK: %[[FB:.*]] = nvgpu.ldmatrix %[[B]][%[[K:.*]], %{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<32x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // CHECK: %[[B0:.*]] = vector.extract %[[FB]][0] : vector<2xf16> from vector<4x2xf16>
    // CHECK: nvgpu.ldmatrix %[[B]]
    // CHECK: %[[FA:.*]] = nvgpu.ldmatrix %[[A]][%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // CHECK: %[[A0:.*]] = vector.extract %[[FA]][0] : vector<2xf16> from vector<4x2xf16>
    // CHECK: nvvm.mma.sync A[%[[A0]], %{{.*}}, %{{.*}}, %{{.*}}]  B[%[[B0]], %{{.*}}]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    // CHECK-COUNT-3: nvvm.mma.sync A[%[[A0]],
    // CHECK: %[[K16:.*]] = arith.addi %[[K]], %c16 : index
    // CHECK-NEXT: nvgpu.ldmatrix %[[B]][%[[K16]],
    // CHECK: nvgpu.ldmatrix %[[B]]
    // CHECK: nvgpu.ldmatrix %[[A]]
    // CHECK-COUNT-4: nvvm.mma.sync
    // CHECK: gpu.barrier
    // Pass 0: the warps whose 16 rows are among the first 32 store theirs,
    // each lane its pairs of sums.
    // CHECK: scf.if
    // CHECK: %[[PAIR:.*]] = vector.from_elements %[[SUMMED]]#0, %[[SUMMED]]#1 : vector<2xf32>
    // CHECK-NEXT: vector.store %[[PAIR]], %[[SUMS]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<32x68xf32, #gpu.address_space<workgroup>>, vector<2xf32>
    // CHECK: vector.from_elements %[[SUMMED]]#14, %[[SUMMED]]#15
    // CHECK: gpu.barrier
    // Four neighbouring results: their initial values plus their sums, read
    // from the tile of sums as one vector.
    // CHECK: %[[SUM4:.*]] = vector.load %[[SUMS]]
    // CHECK: %[[SUM:.*]] = vector.extract %[[SUM4]][0]
    // CHECK: vector.load %arg2
    // CHECK: arith.addf %{{.*}}, %[[SUM]] : f32
    // Pass 1: the others, 32 rows up.
    // CHECK: gpu.barrier
    // CHECK: scf.if
    // CHECK-NEXT: arith.subi %{{.*}}, %c32 : index
    // CHECK: vector.from_elements %[[SUMMED]]#0, %[[SUMMED]]#1
    // CHECK: gpu.barrier
    // CHECK: vector.load %[[SUMS]]
    // CHECK-NOT: arith.mulf
    // CHECK: gpu.return
    gpu.func @matmul(%a: memref<64x40xf16>, %b: memref<40x128xf16>, %c: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c40 = arith.constant 40 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x128xf32>
      %sum = scf.for %k = %c0 to %c40 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x40xf16>
        %y = memref.load %b[%k, %j] : memref<40x128xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x128xf32>
      gpu.return
    }

    // A stored with its rows along k (A[k][i]): its tile keeps a row per
    // iteration, the transposed operand.
    // AT-LABEL: gpu.func @matmul_at(
    // AT-SAME: workgroup(%[[AT:.*]] : memref<32x72xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[BN:.*]] : memref<32x72xf16, #gpu.address_space<workgroup>>
    // AT: nvgpu.ldmatrix %[[BN]][%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<32x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // AT: nvgpu.ldmatrix %[[BN]]
    // AT: nvgpu.ldmatrix %[[AT]][%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<32x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // AT: nvvm.mma.sync
    gpu.func @matmul_at(%a: memref<40x64xf16>, %b: memref<40x128xf16>, %c: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c40 = arith.constant 40 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x128xf32>
      %sum = scf.for %k = %c0 to %c40 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%k, %i] : memref<40x64xf16>
        %y = memref.load %b[%k, %j] : memref<40x128xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x128xf32>
      gpu.return
    }

    // B stored with its columns along k (B[j][k]): its tile holds a row of
    // iterations per result column, the transposed operand.
    // BT-LABEL: gpu.func @matmul_bt(
    // BT-SAME: workgroup(%[[AR:.*]] : memref<64x40xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[BT:.*]] : memref<64x40xf16, #gpu.address_space<workgroup>>
    // BT: nvgpu.ldmatrix %[[BT]][%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // BT: nvgpu.ldmatrix %[[BT]]
    // BT: nvgpu.ldmatrix %[[AR]][%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    // BT: nvvm.mma.sync
    gpu.func @matmul_bt(%a: memref<64x40xf16>, %b: memref<128x40xf16>, %c: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c40 = arith.constant 40 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x128xf32>
      %sum = scf.for %k = %c0 to %c40 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x40xf16>
        %y = memref.load %b[%j, %k] : memref<128x40xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x128xf32>
      gpu.return
    }
    // 36 products: the last stage's iterations are clamped to the 36th in
    // groups that 36 divides, four (eight would cut a group at the bound and
    // leave its loads scalar), so the copies move four halves each.
    // K36-LABEL: gpu.func @matmul_k36(
    // K36: vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<64x36xf16>, vector<4xf16>
    // K36: vector.load %arg1[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<36x128xf16>, vector<4xf16>
    // K36: scf.for
    // K36: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
    // K36-NOT: vector<8xf16>
    // K36: gpu.return
    gpu.func @matmul_k36(%a: memref<64x36xf16>, %b: memref<36x128xf16>, %c: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c36 = arith.constant 36 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x128xf32>
      %sum = scf.for %k = %c0 to %c36 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x36xf16>
        %y = memref.load %b[%k, %j] : memref<36x128xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x40xf16>, %b: memref<40x128xf16>, %c: memref<64x128xf32>, %at: memref<40x64xf16>, %bt: memref<128x40xf16>, %a36: memref<64x36xf16>, %b36: memref<36x128xf16>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul blocks in (%c8, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x40xf16>, %b : memref<40x128xf16>, %c : memref<64x128xf32>)
    gpu.launch_func @kernels::@matmul_at blocks in (%c8, %c4, %c1) threads in (%c16, %c16, %c1) args(%at : memref<40x64xf16>, %b : memref<40x128xf16>, %c : memref<64x128xf32>)
    gpu.launch_func @kernels::@matmul_bt blocks in (%c8, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x40xf16>, %bt : memref<128x40xf16>, %c : memref<64x128xf32>)
    gpu.launch_func @kernels::@matmul_k36 blocks in (%c8, %c4, %c1) threads in (%c16, %c16, %c1) args(%a36 : memref<64x36xf16>, %b36 : memref<36x128xf16>, %c : memref<64x128xf32>)
    return
  }
}
