// autoprof-propose-rewrites: the applicable rewrites of each kernel, ranked,
// as an attribute; with remarks, why each other one considered does not
// apply. The kernels are upstream's (test/Corpus/Upstream).
// RUN: autoprof-opt %S/../Corpus/Upstream/matmul.blocks.mlir --autoprof-propose-rewrites | FileCheck %s --check-prefix=BLOCKS
// RUN: autoprof-opt %S/../Corpus/Upstream/matmul.blocks.mlir --autoprof-propose-rewrites="remarks refusals" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: autoprof-opt %S/../Corpus/Upstream/matmul.blocks.mlir --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROPOSED
// RUN: autoprof-opt %S/../Corpus/Upstream/transpose2d.tile16x16.mlir --autoprof-propose-rewrites 2>&1 | FileCheck %s --check-prefix=TILED
// RUN: autoprof-opt %S/../Corpus/Upstream/dequant_i8.tile32x8.mlir --autoprof-apply-rewrites="rewrites=coalesce=32" | autoprof-opt --autoprof-propose-rewrites | FileCheck %s --check-prefix=WIDTH
// RUN: autoprof-opt %S/../Corpus/Upstream/truncf_f16.tile32x8.mlir --autoprof-apply-rewrites="rewrites=coalesce=32" | autoprof-opt --autoprof-propose-rewrites | FileCheck %s --check-prefix=WIDTH-F16
// RUN: autoprof-opt %S/../Corpus/Upstream/row_sum.tile16x16.mlir --autoprof-propose-rewrites | FileCheck %s --check-prefix=ROWS
// RUN: autoprof-opt %S/../Corpus/Upstream/conv1d.tile16x16.mlir --autoprof-propose-rewrites | FileCheck %s --check-prefix=WINDOW
// RUN: autoprof-opt %S/../Corpus/Upstream/conv1d.tile32x8.mlir --autoprof-propose-rewrites | FileCheck %s --check-prefix=WINDOW
// RUN: autoprof-opt %S/../Corpus/Upstream/vecmat.tile16x16.mlir --autoprof-propose-rewrites | FileCheck %s --check-prefix=FEW
// RUN: autoprof-opt %S/../Corpus/Upstream/matvec.tile16x16.mlir --autoprof-propose-rewrites | FileCheck %s --check-prefix=MATVEC
// RUN: autoprof-opt %S/../Corpus/Upstream/conv1d.tile16x16.mlir --autoprof-apply-rewrites="rewrites=register-accumulate=1" | autoprof-opt --autoprof-propose-rewrites | FileCheck %s --check-prefix=TAPS
// RUN: autoprof-opt %s --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: autoprof-opt %s --autoprof-propose-rewrites | FileCheck %s --check-prefix=UNLAUNCHED

// One-thread blocks: forming blocks comes first, then the accumulation in
// registers (guarded by a run-time overlap check: the host arguments may
// alias) and unrolling.
// REFUSED-DAG: remark: @matmul_kernel: restrict=1 does not apply: two buffers of a launch are neither their own allocations nor host arguments marked llvm.noalias, so they may overlap
// REFUSED-DAG: remark: @matmul_kernel: coalesce=32 does not apply: the launches have one-thread blocks (form-blocks applies)
// REFUSED-DAG: remark: @matmul_kernel: block-size=256 does not apply: a launch is not a constant 1-D launch
// Without refusals, the remarks are the proposals alone.
// PROPOSED: remark: @matmul_kernel: proposal 1: form-blocks=256 (score
// PROPOSED-NOT: does not apply
// BLOCKS-LABEL: gpu.func @matmul_kernel
// BLOCKS-SAME: autoprof.proposals = ["form-blocks=256", "form-blocks=128", "form-blocks=512", "register-accumulate=1", "unroll=4", "unroll=8", "min-blocks=2", "map-stage=4", "map-stage=2", "map-nest=256", "map-vector=4", "map-nest=128", "map-nest=512", "launch-bounds=1"]

// 16x16 tiles that read along y and write along x: staging through shared
// tiles (both sides coalesced) first, then coalescing one side; other block
// sizes (through a thread remap) come after them.
// TILED-LABEL: gpu.func @transpose2d_kernel
// TILED-SAME: autoprof.proposals = ["transpose-tile=32", "transpose-tile=16", "coalesce=32", "coalesce=64", "block-size=128", "block-size=512", "min-blocks=2", "map-nest=256", "map-vector=4", "map-nest=128", "map-nest=512", "launch-bounds=1"]

// A row sum on 16x16 tiles: each thread walks its row of 4096 elements with
// a loop while neighbouring threads read other rows. Its loads are
// scattered, but remapping the threads cannot make a row walk contiguous:
// coalescing comes after the reduction's own rewrites (accumulation in a
// register, then the raised nest with lanes walking each row, then the
// reduction split across a warp).
// ROWS-LABEL: gpu.func @row_sum_kernel
// ROWS-SAME: autoprof.proposals = ["register-accumulate=1", "map-lanes=32", "map-lanes=8", "block-size=256", "block-size=128", "block-size=512", "unroll=4", "unroll=8", "map-nest=256", "map-vector=4", "map-nest=128", "map-nest=512", "coalesce=32", "coalesce=64", "min-blocks=2", "launch-bounds=1"]

// A 1-D convolution on 16x16 and on 32x8 tiles: blocks of 16 or 32
// threads, 2^20 threads. Full blocks come first: the rewrites after them
// pay only on full blocks.
// WINDOW-LABEL: gpu.func @conv1d_kernel
// WINDOW-SAME: autoprof.proposals = ["block-size=256", "block-size=128", "block-size=512", "register-accumulate=1",

// The same blocks with 16384 threads in all (a vector-matrix product):
// bigger blocks would leave SMs without one, so not first; the 16384
// column walks of 4096 rows fill a sixteenth of an H100's thread slots, so
// map-split offers 32 chunks of them, after the accumulation in registers
// (the vector is shared by every point: a contraction).
// FEW-LABEL: gpu.func @vecmat_kernel
// FEW-SAME: autoprof.proposals = ["register-accumulate=1", "map-split=32", "block-size=256",

// A matrix-vector product on 16x16 tiles: each thread walks a row of the
// matrix; the vector, which every thread reads, weighs a 32nd of its bytes,
// so the row walks are most of the loads and coalescing comes late (and
// block-size after the reduction's own rewrites: register-accumulate, then
// map-lanes, whose lanes walk each row; map-nest, one thread per row,
// leaves the row walks as they are and comes after them too).
// MATVEC-LABEL: gpu.func @matvec_kernel
// MATVEC-SAME: autoprof.proposals = ["register-accumulate=1", "map-lanes=32", "map-lanes=8", "block-size=256", "block-size=128", "block-size=512", "unroll=4", "unroll=8", "map-nest=256", "map-vector=4", "map-nest=128", "map-nest=512", "coalesce=32", "coalesce=64",

// After register-accumulate the 9-tap window is a reduction loop too short
// to split among 8 or more threads: no warp-reduce, and block-reduce only
// with 4 threads, after the window's rewrites (16M threads fill the GPU
// without it).
// TAPS-LABEL: gpu.func @conv1d_kernel
// TAPS-SAME: autoprof.proposals = ["block-size=256", "block-size=128", "block-size=512", "coarsen-rows=4", "halo-tile=1", "coarsen-rows=2", "unroll=4", "unroll=8", "block-reduce=4",
// TAPS-NOT: reduce

// The vector width makes the widest stored element one 128-bit store: i8
// loads and f32 stores take 4 elements per thread, f32 loads and f16 stores
// take 8.
// WIDTH-LABEL: gpu.func @dequant_i8_kernel
// WIDTH-SAME: autoprof.proposals = ["vectorize=4", "vectorize=2",
// WIDTH-F16-LABEL: gpu.func @truncf_f16_kernel
// WIDTH-F16-SAME: autoprof.proposals = ["vectorize=8", "vectorize=4",

// A kernel that is never launched gets a remark and no proposals.
// NONE: remark: @unused is never launched; nothing to propose
// UNLAUNCHED-LABEL: gpu.func @unused
// UNLAUNCHED-NOT: autoprof.proposals
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @unused(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
