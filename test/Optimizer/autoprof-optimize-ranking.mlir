// What the profile says changes what the built-in proposer tries first: the
// same 3-D kernel, measured by a stand-in worker (every candidate verified
// and twice as fast as the baseline), gets coalesce=32 first when its loads
// touch 32 sectors per request for the 128 bytes a warp asks for
// (scattered), and a different first candidate when they touch 4
// (contiguous).
// The searches collect what the starting tree asks for (the counters this
// ranking reads), not the default tree learned for the search, which
// collects launch metrics alone for kernels this small.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env AUTOPROF_FAKE_METRICS='{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 32.0, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 1.0, "smsp__sass_data_bytes_mem_global_op_ld.sum": 128.0}' %autoprof_opt %s --autoprof-optimize="tree-file=%repo/lib/Transforms/StartingTree.mlir budget=2 worker=%S/Inputs/fake-worker.py report=%t/scattered.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t/scattered.json --check-prefix=SCATTERED
// RUN: env AUTOPROF_FAKE_METRICS='{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 4.0, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 1.0, "smsp__sass_data_bytes_mem_global_op_ld.sum": 128.0}' %autoprof_opt %s --autoprof-optimize="tree-file=%repo/lib/Transforms/StartingTree.mlir budget=1 worker=%S/Inputs/fake-worker.py report=%t/contiguous.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t/contiguous.json --check-prefix=CONTIGUOUS

// The tree collects MemoryWorkloadAnalysis for this memory-bound kernel.
// SCATTERED: "name": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
// The winner is profiled again (its metrics are in its entry) before the
// remaining rewrites are ranked for the second candidate.
// SCATTERED: "candidates": [
// SCATTERED-NEXT: {
// SCATTERED-NEXT: "accepted": true,
// SCATTERED-NEXT: "metrics": [
// SCATTERED: "replay_passes": 1,
// SCATTERED-NEXT: "retimed": {
// SCATTERED: "confirmed": true,
// SCATTERED: "rewrite": "coalesce=32",
// SCATTERED: "accepted": false,

// CONTIGUOUS: "candidates": [
// CONTIGUOUS-NEXT: {
// CONTIGUOUS-NEXT: "accepted": true,
// CONTIGUOUS-NOT: "rewrite"
// CONTIGUOUS: "retimed": {
// CONTIGUOUS-NOT: "rewrite"
// CONTIGUOUS: "rewrite": "restrict=1",

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy3d(%in: memref<64x64x64xf32>, %out: memref<64x64x64xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %dz = gpu.block_dim z
      %i0 = arith.muli %bx, %dx : index
      %i = arith.addi %i0, %tx : index
      %j0 = arith.muli %by, %dy : index
      %j = arith.addi %j0, %ty : index
      %k0 = arith.muli %bz, %dz : index
      %k = arith.addi %k0, %tz : index
      %v = memref.load %in[%i, %j, %k] : memref<64x64x64xf32>
      memref.store %v, %out[%i, %j, %k] : memref<64x64x64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %in = gpu.alloc() : memref<64x64x64xf32>
    %out = gpu.alloc() : memref<64x64x64xf32>
    gpu.launch_func @kernels::@copy3d blocks in (%c8, %c8, %c16) threads in (%c8, %c8, %c4) args(%in : memref<64x64x64xf32>, %out : memref<64x64x64xf32>)
    return
  }
}
