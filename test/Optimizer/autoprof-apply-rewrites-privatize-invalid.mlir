// privatize-atomics refuses kernels whose preconditions do not hold, with
// the reason; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=privatize-atomics" -o /dev/null

// The buffer is also read, so a block's partial sums are not the whole story.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply privatize-atomics=1 to @k: no kernel buffer is used only as the target of atomic adds}}
    gpu.func @k(%x: memref<16384xf32>, %s: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<16384xf32>
      %old = memref.atomic_rmw addf %v, %s[%c0] : (f32, memref<4xf32>) -> f32
      %r = memref.load %s[%c0] : memref<4xf32>
      memref.store %r, %x[%i] : memref<16384xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<16384xf32>, %s: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %s : memref<4xf32>)
    return
  }
}

// -----

// The old value an atomic returns is used: it would come from the shared copy.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply privatize-atomics=1 to @k: no kernel buffer is used only as the target of atomic adds}}
    gpu.func @k(%x: memref<16384xf32>, %s: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<16384xf32>
      %old = memref.atomic_rmw addf %v, %s[%c0] : (f32, memref<4xf32>) -> f32
      memref.store %old, %x[%i] : memref<16384xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<16384xf32>, %s: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %s : memref<4xf32>)
    return
  }
}

// -----

// 64 KiB of bins do not fit in a block's shared memory.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply privatize-atomics=1 to @k: a block's copy of the atomically updated buffer (65536 bytes) does not fit next to 0 bytes in 48 KiB of shared memory}}
    gpu.func @k(%x: memref<16384xf32>, %s: memref<16384xf32>) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<16384xf32>
      %old = memref.atomic_rmw addf %v, %s[%i] : (f32, memref<16384xf32>) -> f32
      gpu.return
    }
  }
  func.func @main(%x: memref<16384xf32>, %s: memref<16384xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %s : memref<16384xf32>)
    return
  }
}

// -----

// A kernel that already synchronizes its block.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply privatize-atomics=1 to @k: the kernel already synchronizes its blocks}}
    gpu.func @k(%x: memref<16384xf32>, %s: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<16384xf32>
      gpu.barrier
      %old = memref.atomic_rmw addf %v, %s[%c0] : (f32, memref<4xf32>) -> f32
      gpu.return
    }
  }
  func.func @main(%x: memref<16384xf32>, %s: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %s : memref<4xf32>)
    return
  }
}
