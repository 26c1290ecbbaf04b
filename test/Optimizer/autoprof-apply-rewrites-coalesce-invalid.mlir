// coalesce refuses kernels it cannot or need not reshape, with the reason;
// the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=coalesce=32" -o /dev/null


// A 1-D kernel whose blocks already run 256 threads along the contiguous
// dimension is left alone.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply coalesce=32 to @copy: the contiguous dimension already runs along x with at least 32 threads per block}}
    gpu.func @copy(%in: memref<1024xf32>, %out: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %in[%i] : memref<1024xf32>
      memref.store %v, %out[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<1024xf32>, %out: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@copy blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<1024xf32>, %out : memref<1024xf32>)
    return
  }
}

// -----

// Shared memory ties the kernel to its block shape.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply coalesce=32 to @staged: the kernel has workgroup memory or launch bounds tied to its block size}}
    gpu.func @staged(%in: memref<64x64xf32>) workgroup(%t: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %in[%tx, %ty] : memref<64x64xf32>
      memref.store %v, %t[%ty] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@staged blocks in (%c2, %c2, %c1) threads in (%c32, %c32, %c1) args(%in : memref<64x64xf32>)
    return
  }
}
