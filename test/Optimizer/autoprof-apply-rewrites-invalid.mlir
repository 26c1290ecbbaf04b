// Rewrites whose preconditions do not hold are refused with the reason; the
// kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=block-size=128" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=unroll=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=tile" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=max-registers=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-tile=48" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILE
// A misspelt parameter is reported once, at the module, without the module
// printed after it, and before normalization runs.
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=restrict,coalesce=3x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TYPO --implicit-check-not="current operation"

// UNROLL: error: cannot apply unroll=4 to @uses_smem: no innermost scf.for with a constant step that runs at least 4 iterations
// UNKNOWN: error: unknown rewrite 'tile'; known: restrict, block-size, vectorize, coarsen, privatize-atomics, map-nest, map-lanes, map-vector, map-split, map-reuse, map-stack, map-tile, map-stage, form-blocks, coalesce, transpose-tile, contraction-tile, mma-tile, contraction-pipeline, mma-pipeline, pad-shared, halo-tile, coarsen-rows, distribute-loop, register-accumulate, warp-reduce, block-reduce, unroll, max-registers, min-blocks, launch-bounds, fold-host-loop{{$}}
// REGS: error: cannot apply max-registers=8 to @uses_smem: a limit of 8 registers for 64 threads is not valid (16-255 and at most 65536 per block)
// TYPO-COUNT-2: error: the parameter of 'coalesce' must be an integer, got '3x'
// TILE: error: cannot apply contraction-tile=48 to @uses_smem: the tile of results must be 16, 32, 64 or 128

// Shared memory ties the kernel to its block size.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply block-size=128 to @uses_smem: the kernel has workgroup memory or launch bounds tied to its block size}}
    gpu.func @uses_smem(%x: memref<64xf32>) workgroup(%t: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<64xf32>
      memref.store %v, %t[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@uses_smem blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// -----

// Total threads must stay the same.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply block-size=128 to @odd: the launch's 96 threads are not a multiple of 128}}
    gpu.func @odd(%x: memref<96xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<96xf32>
      memref.store %v, %x[%i] : memref<96xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<96xf32>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@odd blocks in (%c3, %c1, %c1) threads in (%c32, %c1, %c1) args(%x : memref<96xf32>)
    return
  }
}
