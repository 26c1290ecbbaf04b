// Launch sizes no GPU runs are refused before any family computes with
// them (each family divides by a block's width or multiplies thread
// counts): blocks of 1 to 1024 threads, at most 1024 x 1024 x 64; grids of
// 1 to 2^31 - 1 x 65535 x 65535 blocks.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=coalesce=32" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=distribute-loop=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DISTRIBUTE
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=block-size=32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS

// DISTRIBUTE: error: cannot apply distribute-loop=2 to @k: a launch's block has 0 threads along x
// BLOCKS: error: cannot apply block-size=32 to @k: a launch's block has 0 threads along x
// BLOCKS: error: cannot apply block-size=32 to @k: a launch's block has 9223372036854775807 threads along x

// A block of no threads (the families divide by its width).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply coalesce=32 to @k: a launch's block has 0 threads along x (a GPU launches 1 to 1024)}}
    gpu.func @k(%x: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %b = arith.muli %bid, %bdim : index
      %i = arith.addi %b, %tid : index
      %v = memref.load %x[%i] : memref<1024xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c0, %c1, %c1) args(%x : memref<1024xf32>)
    return
  }
}

// -----

// A block size that overflows the families' thread counts.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply coalesce=32 to @k: a launch's block has 9223372036854775807 threads along x (a GPU launches 1 to 1024)}}
    gpu.func @k(%x: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %b = arith.muli %bid, %bdim : index
      %i = arith.addi %b, %tid : index
      %v = memref.load %x[%i] : memref<1024xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %big = arith.constant 9223372036854775807 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%big, %c1, %c1) args(%x : memref<1024xf32>)
    return
  }
}

// -----

// A negative grid.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply coalesce=32 to @k: a launch's grid has -3 blocks along y (a GPU launches 1 to 65535)}}
    gpu.func @k(%x: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %b = arith.muli %bid, %bdim : index
      %i = arith.addi %b, %tid : index
      %v = memref.load %x[%i] : memref<1024xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %neg = arith.constant -3 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %neg, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>)
    return
  }
}

// -----

// Each dimension within its limit, but 2048 threads in all.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply coalesce=32 to @k: a launch's block has 2048 threads (a GPU launches at most 1024)}}
    gpu.func @k(%x: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %b = arith.muli %bid, %bdim : index
      %i = arith.addi %b, %tid : index
      %v = memref.load %x[%i] : memref<1024xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c8, %c1) args(%x : memref<1024xf32>)
    return
  }
}
