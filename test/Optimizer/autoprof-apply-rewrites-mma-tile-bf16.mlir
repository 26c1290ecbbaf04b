// mma-tile on a contraction of bf16 operands with an f32 sum: the same tiles
// as for halves (autoprof-apply-rewrites-mma-tile.mlir), but MLIR's
// !gpu.mma_matrix takes no bf16, so the warps load fragments with
// nvgpu.ldmatrix (four 8 x 8 blocks, each lane giving one row's address;
// `transpose` where a tile holds a row per iteration) and multiply them with
// nvvm.mma.sync m16n8k16, two per 16 x 16 fragment, eight f32 sums per lane.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-tile=64 kernel=matmul" | FileCheck %s
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-tile=64 kernel=matmul_at_bt" | FileCheck %s --check-prefix=ATBT
// RUN: rm -rf %t && mkdir -p %t
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-tile=64 kernel=matmul" --autoprof-apply-rewrites="rewrites=mma-tile=64 kernel=matmul_at_bt" --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ for f in %t/*.ptx; do %ptxas $f -o $f.cubin || exit 1; done %}

// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// The staging copies store eight halves at once (a 128-bit shared store;
// the sums leave the fragments through other stores).
// PTX-DAG: st.shared.v4.b32

// C[i][j] += sum_k f32(A[i][k]) * f32(B[k][j]), 64 x 128 results over 40
// products (a partial last stage), and C[i][j] += sum_k f32(A[k][i]) *
// f32(B[j][k]).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul(
    // A's tile holds a row of iterations per result row, B's a row of columns
    // per iteration.
    // CHECK-SAME: workgroup(%[[A:.*]] : memref<64x40xbf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[B:.*]] : memref<32x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[SUMS:.*]] : memref<32x68xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})
    // CHECK-SAME: autoprof.reassociated
    // The lane's place in its warp, and the offsets of the row it gives
    // ldmatrix: block b = lane / 8, row lane mod 8 of it.
    // CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32 : index
    // CHECK: %[[IN_BLOCK:.*]] = arith.remui %[[LANE]], %c8 : index
    // CHECK: %[[BLOCK:.*]] = arith.divui %[[LANE]], %c8 : index
    // CHECK: %[[ODD:.*]] = arith.remui %[[BLOCK]], %c2 : index
    // CHECK: %[[SECOND_BLOCK:.*]] = arith.muli %[[ODD]], %c8 : index
    // CHECK: %[[HALF:.*]] = arith.divui %[[LANE]], %c16 : index
    // CHECK: %[[SECOND_PAIR:.*]] = arith.muli %[[HALF]], %c8 : index
    // CHECK: %[[ROW16:.*]] = arith.remui %[[LANE]], %c16 : index
    // CHECK: %[[B_K:.*]] = arith.addi %[[IN_BLOCK]], %[[SECOND_BLOCK]] : index
    // The sums: row lane / 4 (and 8 more), columns 2 (lane mod 4) and one
    // more.
    // CHECK: %[[G:.*]] = arith.divui %[[LANE]], %c4 : index
    // CHECK: %[[Q:.*]] = arith.remui %[[LANE]], %c4 : index
    // CHECK: %[[Q2:.*]] = arith.muli %[[Q]], %c2 : index
    // Eight f32 sums per fragment, two fragments per warp, from zero.
    // CHECK: %[[SUMMED:.*]]:32 = scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[ZERO:cst[_0-9]*]], %{{.*}} = %[[ZERO]],
    // CHECK: gpu.barrier
    // B (a row per iteration): the transposed blocks, rows k = lane mod 8 + 8
    // (b mod 2), columns 8 (b div 2) on.
    // CHECK: %[[BCOL:.*]] = arith.addi %{{.*}}, %[[SECOND_PAIR]] : index
    // CHECK: %[[FB:.*]] = nvgpu.ldmatrix %[[B]][%[[B_K]], %[[BCOL]]] {numTiles = 4 : i32, transpose = true} : memref<32x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
    // CHECK: %[[FB0:.*]] = vector.extract %[[FB]][0] : vector<2xbf16> from vector<4x2xbf16>
    // CHECK: %[[WB0:.*]] = vector.bitcast %[[FB0]] : vector<2xbf16> to vector<1xi32>
    // CHECK: %[[B0:.*]] = vector.extract %[[WB0]][0] : i32 from vector<1xi32>
    // CHECK: %[[B1:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
    // CHECK: %[[B2:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
    // CHECK: %[[B3:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
    // CHECK: nvgpu.ldmatrix %[[B]]
    // A (a row per result row): rows lane mod 16, iterations 8 (lane div 16) on.
    // CHECK: %[[AROW:.*]] = arith.addi %{{.*}}, %[[ROW16]] : index
    // CHECK: nvgpu.ldmatrix %[[A]][%[[AROW]], %[[SECOND_PAIR]]] {numTiles = 4 : i32, transpose = false} : memref<64x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
    // CHECK: %[[A0:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
    // CHECK: %[[A1:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
    // CHECK: %[[A2:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
    // CHECK: %[[A3:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
    // The two halves of 8 columns: registers 0, 1 of B, then 2, 3.
    // CHECK: %[[P0:.*]] = nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    // CHECK: llvm.extractvalue %[[P0]][3]
    // CHECK: nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B2]], %[[B3]]]
    // The second step of 16 iterations.
    // CHECK: %[[B_K16:.*]] = arith.addi %[[B_K]], %c16 : index
    // CHECK: nvgpu.ldmatrix %[[B]][%[[B_K16]], %[[BCOL]]]
    // CHECK: gpu.barrier
    // CHECK: scf.yield
    // The sums of the first fragment's first half: rows g and g + 8, columns
    // 2q and 2q + 1.
    // CHECK: scf.if
    // CHECK: %[[TOP:.*]] = arith.addi %{{.*}}, %[[G]] : index
    // CHECK: %[[BOTTOM:.*]] = arith.addi %[[TOP]], %c8 : index
    // CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[Q2]] : index
    // CHECK: %[[PAIR0:.*]] = vector.from_elements %[[SUMMED]]#0, %[[SUMMED]]#1 : vector<2xf32>
    // CHECK: vector.store %[[PAIR0]], %[[SUMS]][%[[TOP]], %[[COL]]] {alignment = 8 : i64} : memref<32x68xf32, #gpu.address_space<workgroup>>, vector<2xf32>
    // CHECK: %[[PAIR1:.*]] = vector.from_elements %[[SUMMED]]#2, %[[SUMMED]]#3 : vector<2xf32>
    // CHECK: vector.store %[[PAIR1]], %[[SUMS]][%[[BOTTOM]], %[[COL]]]
    // CHECK: %[[COL8:.*]] = arith.addi %[[COL]], %c8 : index
    // CHECK: vector.from_elements %[[SUMMED]]#4, %[[SUMMED]]#5 : vector<2xf32>
    // CHECK: vector.store %{{.*}}, %[[SUMS]][%[[TOP]], %[[COL8]]]
    gpu.func @matmul(%a: memref<64x40xbf16>, %b: memref<40x128xbf16>, %c: memref<64x128xf32>) kernel {
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
        %x = memref.load %a[%i, %k] : memref<64x40xbf16>
        %y = memref.load %b[%k, %j] : memref<40x128xbf16>
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x128xf32>
      gpu.return
    }


    // ATBT-LABEL: gpu.func @matmul_at_bt(
    // ATBT-SAME: workgroup(%[[A:.*]] : memref<32x72xbf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %[[B:.*]] : memref<64x40xbf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %{{.*}} : memref<32x68xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})
    // ATBT: %[[LANE:.*]] = arith.remui %{{.*}}, %c32 : index
    // ATBT: %[[IN_BLOCK:.*]] = arith.remui %[[LANE]], %c8 : index
    // ATBT: %[[BLOCK:.*]] = arith.divui %[[LANE]], %c8 : index
    // ATBT: %[[ODD:.*]] = arith.remui %[[BLOCK]], %c2 : index
    // ATBT: %[[SECOND_BLOCK:.*]] = arith.muli %[[ODD]], %c8 : index
    // ATBT: %[[HALF:.*]] = arith.divui %[[LANE]], %c16 : index
    // ATBT: %[[SECOND_PAIR:.*]] = arith.muli %[[HALF]], %c8 : index
    // ATBT: %[[PAIRED:.*]] = arith.addi %[[IN_BLOCK]], %[[SECOND_PAIR]] : index
    // B^T (a row per result column): columns lane mod 8 + 8 (b div 2),
    // iterations 8 (b mod 2) on, as stored.
    // ATBT: %[[BCOL:.*]] = arith.addi %{{.*}}, %[[PAIRED]] : index
    // ATBT: nvgpu.ldmatrix %[[B]][%[[BCOL]], %[[SECOND_BLOCK]]] {numTiles = 4 : i32, transpose = false} : memref<64x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
    // ATBT: nvgpu.ldmatrix %[[B]]
    // A^T (a row per iteration): iterations lane mod 8 + 8 (b div 2), rows 8
    // (b mod 2) on, transposed.
    // ATBT: %[[AROW:.*]] = arith.addi %{{.*}}, %[[SECOND_BLOCK]] : index
    // ATBT: nvgpu.ldmatrix %[[A]][%[[PAIRED]], %[[AROW]]] {numTiles = 4 : i32, transpose = true} : memref<32x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
    // ATBT: nvvm.mma.sync
    // ATBT: nvvm.mma.sync
    // ATBT: nvvm.mma.sync
    // ATBT: nvvm.mma.sync
    // ATBT: %[[A_K16:.*]] = arith.addi %[[PAIRED]], %c16 : index
    // ATBT: nvgpu.ldmatrix %[[A]][%[[A_K16]], %[[AROW]]]
    gpu.func @matmul_at_bt(%a: memref<40x64xbf16>, %b: memref<128x40xbf16>, %c: memref<64x128xf32>) kernel {
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
        %x = memref.load %a[%k, %i] : memref<40x64xbf16>
        %y = memref.load %b[%j, %k] : memref<128x40xbf16>
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x40xbf16>, %b: memref<40x128xbf16>, %c: memref<64x128xf32>, %at: memref<40x64xbf16>, %bt: memref<128x40xbf16>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul blocks in (%c8, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x40xbf16>, %b : memref<40x128xbf16>, %c : memref<64x128xf32>)
    gpu.launch_func @kernels::@matmul_at_bt blocks in (%c8, %c4, %c1) threads in (%c16, %c16, %c1) args(%at : memref<40x64xbf16>, %bt : memref<128x40xbf16>, %c : memref<64x128xf32>)
    return
  }
}
