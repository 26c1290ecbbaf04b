// Whether halo-tile goes early follows the L1 counters: the same 3x3
// convolution, measured by a stand-in worker, gets halo-tile as its second
// candidate (after coarsen-rows, which shares the windows' rows in
// registers) when its loads hit L1 for 20% of their sectors (the window's
// reuse goes to L2 and DRAM), and another rewrite second when they hit 90%
// (L1 already serves the reuse; the staged copy and its barrier would only
// add work).
// The searches collect what the starting tree asks for (the counters this
// ranking reads), not the default tree learned for the search, which
// collects launch metrics alone for kernels this small.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env AUTOPROF_FAKE_METRICS='{"l1tex__t_sector_hit_rate.pct": 20.0}' %autoprof_opt %s --autoprof-optimize="tree-file=%repo/lib/Transforms/StartingTree.mlir budget=2 worker=%S/Inputs/fake-worker.py report=%t/missing.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t/missing.json --check-prefix=MISSING
// RUN: env AUTOPROF_FAKE_METRICS='{"l1tex__t_sector_hit_rate.pct": 90.0}' %autoprof_opt %s --autoprof-optimize="tree-file=%repo/lib/Transforms/StartingTree.mlir budget=2 worker=%S/Inputs/fake-worker.py report=%t/hitting.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t/hitting.json --check-prefix=HITTING

// The tree collects the L1 hit rate for this memory-bound kernel.
// MISSING: "name": "l1tex__t_sector_hit_rate.pct",
// MISSING: "candidates": [
// MISSING-NOT: "rewrite":
// MISSING: "rewrite": "coarsen-rows=4",
// MISSING-NOT: "rewrite":
// MISSING: "rewrite": "halo-tile=1",

// HITTING: "name": "l1tex__t_sector_hit_rate.pct",
// HITTING: "candidates": [
// HITTING-NOT: "rewrite": "halo-tile=1",
// HITTING: "rewrite": "coarsen-rows=4",
// HITTING-NOT: "rewrite": "halo-tile=1",
// HITTING: "rewrite":
// HITTING-NOT: "rewrite": "halo-tile=1",

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @conv3x3(%in: memref<1026x1026xf32>, %k: memref<3x3xf32>, %out: memref<1024x1024xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %by, %c8 : index
      %i = arith.addi %0, %ty : index
      %1 = arith.muli %bx, %c32 : index
      %j = arith.addi %1, %tx : index
      %init = memref.load %out[%i, %j] : memref<1024x1024xf32>
      %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
        %row = scf.for %kw = %c0 to %c3 step %c1 iter_args(%b = %a) -> (f32) {
          %r = arith.addi %i, %kh : index
          %c = arith.addi %j, %kw : index
          %x = memref.load %in[%r, %c] : memref<1026x1026xf32>
          %w = memref.load %k[%kh, %kw] : memref<3x3xf32>
          %p = arith.mulf %x, %w : f32
          %s = arith.addf %b, %p : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      memref.store %sum, %out[%i, %j] : memref<1024x1024xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<1026x1026xf32>, %k: memref<3x3xf32>, %out: memref<1024x1024xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@conv3x3 blocks in (%c32, %c128, %c1) threads in (%c32, %c8, %c1) args(%in : memref<1026x1026xf32>, %k : memref<3x3xf32>, %out : memref<1024x1024xf32>)
    return
  }
}
