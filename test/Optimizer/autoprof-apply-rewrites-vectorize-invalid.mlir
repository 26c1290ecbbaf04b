// vectorize and coarsen refuse kernels whose preconditions do not hold, with
// the reason; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=vectorize=4" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=coarsen=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COARSEN

// A neighbour's element: the accesses are not all at [g].
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply vectorize=4 to @shifted: the global index is used other than in the bounds check and as the innermost index of loads and stores in the guarded region}}
    gpu.func @shifted(%x: memref<1024xf32>, %y: memref<1024xf32>, %n: index) kernel {
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %j = arith.addi %i, %c1 : index
        %v = memref.load %x[%j] : memref<1024xf32>
        memref.store %v, %y[%i] : memref<1024xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>, %y: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1020 : index
    gpu.launch_func @kernels::@shifted blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>, %y : memref<1024xf32>, %n : index)
    return
  }
}
// Coarsening only renumbers blocks, so any body of this shape is fine.
// COARSEN-NOT: error: cannot apply coarsen=4 to @shifted

// -----

// A bound that is not a multiple of the width would let the last vector
// run past it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply vectorize=4 to @odd_bound: the bound of g < n is not a constant multiple of 4 in every launch}}
    gpu.func @odd_bound(%x: memref<1024xf32>, %y: memref<1024xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %x[%i] : memref<1024xf32>
        memref.store %v, %y[%i] : memref<1024xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>, %y: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1022 : index
    gpu.launch_func @kernels::@odd_bound blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>, %y : memref<1024xf32>, %n : index)
    return
  }
}

// -----

// An atomic is not an elementwise computation.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply vectorize=4 to @atomic: the guarded region contains 'memref.atomic_rmw', which is not an elementwise computation on scalars}}
    gpu.func @atomic(%x: memref<1024xf32>, %sum: memref<1xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %x[%i] : memref<1024xf32>
        %old = memref.atomic_rmw addf %v, %sum[%c0] : (f32, memref<1xf32>) -> f32
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>, %sum: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1024 : index
    gpu.launch_func @kernels::@atomic blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>, %sum : memref<1xf32>, %n : index)
    return
  }
}

// -----

// 5 blocks round up to 2 vector blocks, 2048 element slots, but the bounds
// check lets through 2048 > 1280 elements: the original never wrote past
// 1280, so the extra threads must not either.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply vectorize=4 to @loose_bound: a launch's grid is not a multiple of 4 blocks and its bounds check does not stop at its 1280 threads}}
    gpu.func @loose_bound(%x: memref<2048xf32>, %y: memref<2048xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %x[%i] : memref<2048xf32>
        memref.store %v, %y[%i] : memref<2048xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<2048xf32>, %y: memref<2048xf32>) {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 2048 : index
    gpu.launch_func @kernels::@loose_bound blocks in (%c5, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<2048xf32>, %y : memref<2048xf32>, %n : index)
    return
  }
}
// COARSEN: error: cannot apply coarsen=4 to @loose_bound: a launch's grid of 5 blocks is not a multiple of 4

// -----

// A barrier ties the work of a thread to its block.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply vectorize=4 to @with_barrier: it uses 'gpu.barrier', whose meaning depends on the block size}}
    gpu.func @with_barrier(%x: memref<1024xf32>, %y: memref<1024xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      gpu.barrier
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %x[%i] : memref<1024xf32>
        memref.store %v, %y[%i] : memref<1024xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>, %y: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1024 : index
    gpu.launch_func @kernels::@with_barrier blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>, %y : memref<1024xf32>, %n : index)
    return
  }
}
// COARSEN: error: cannot apply coarsen=4 to @with_barrier: it uses 'gpu.barrier', whose meaning depends on the block size
