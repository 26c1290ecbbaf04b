// transpose-tile refuses, with the reason, kernels that are not one
// transposing copy it can stage through a tile; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=transpose-tile=32" -o /dev/null

// A copy: both sides are contiguous along x already.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply transpose-tile=32 to @k: the load and the store walk contiguous memory along the same thread dimension (no transposition)}}
    gpu.func @k(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %0 = arith.muli %bx, %bdx : index
      %1 = arith.muli %by, %bdy : index
      %i = arith.addi %tx, %0 : index
      %j = arith.addi %ty, %1 : index
      %v = memref.load %in[%j, %i] : memref<64x64xf32>
      memref.store %v, %out[%j, %i] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64xf32>, %out: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 4 : index
    %g1 = arith.constant 4 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%in : memref<64x64xf32>, %out : memref<64x64xf32>)
    return
  }
}

// -----

// A + A^T reads two elements per thread.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply transpose-tile=32 to @k: the kernel loads more than once}}
    gpu.func @k(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %0 = arith.muli %bx, %bdx : index
      %1 = arith.muli %by, %bdy : index
      %i = arith.addi %tx, %0 : index
      %j = arith.addi %ty, %1 : index
      %v = memref.load %in[%j, %i] : memref<64x64xf32>
      %w = memref.load %in[%i, %j] : memref<64x64xf32>
      %s = arith.addf %v, %w : f32
      memref.store %s, %out[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64xf32>, %out: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 4 : index
    %g1 = arith.constant 4 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%in : memref<64x64xf32>, %out : memref<64x64xf32>)
    return
  }
}

// -----

// A guarded store.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply transpose-tile=32 to @k: the body is not straight-line code of one load, one store and side-effect-free operations ('scf.if')}}
    gpu.func @k(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %0 = arith.muli %bx, %bdx : index
      %1 = arith.muli %by, %bdy : index
      %i = arith.addi %tx, %0 : index
      %j = arith.addi %ty, %1 : index
      %v = memref.load %in[%j, %i] : memref<64x64xf32>
      %c32 = arith.constant 32 : index
      %inb = arith.cmpi ult, %i, %c32 : index
      scf.if %inb {
        memref.store %v, %out[%i, %j] : memref<64x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64xf32>, %out: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 4 : index
    %g1 = arith.constant 4 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%in : memref<64x64xf32>, %out : memref<64x64xf32>)
    return
  }
}

// -----

// 16 x 16 elements: smaller than a tile.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply transpose-tile=32 to @k: the transposed dimensions are smaller than a tile of 32}}
    gpu.func @k(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %0 = arith.muli %bx, %bdx : index
      %1 = arith.muli %by, %bdy : index
      %i = arith.addi %tx, %0 : index
      %j = arith.addi %ty, %1 : index
      %v = memref.load %in[%j, %i] : memref<64x64xf32>
      memref.store %v, %out[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64xf32>, %out: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 1 : index
    %g1 = arith.constant 1 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%in : memref<64x64xf32>, %out : memref<64x64xf32>)
    return
  }
}

// -----

// An index that is a product of both ids.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply transpose-tile=32 to @k: the analysis does not express both addresses as affine forms of the global indices}}
    gpu.func @k(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %0 = arith.muli %bx, %bdx : index
      %1 = arith.muli %by, %bdy : index
      %i = arith.addi %tx, %0 : index
      %j = arith.addi %ty, %1 : index
      %k = arith.muli %i, %j : index
      %c63 = arith.constant 63 : index
      %m = arith.andi %k, %c63 : index
      %v = memref.load %in[%m, %i] : memref<64x64xf32>
      memref.store %v, %out[%i, %m] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64xf32>, %out: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 4 : index
    %g1 = arith.constant 4 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%in : memref<64x64xf32>, %out : memref<64x64xf32>)
    return
  }
}

// -----

// Two stores per thread.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply transpose-tile=32 to @k: the kernel stores more than once}}
    gpu.func @k(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %0 = arith.muli %bx, %bdx : index
      %1 = arith.muli %by, %bdy : index
      %i = arith.addi %tx, %0 : index
      %j = arith.addi %ty, %1 : index
      %v = memref.load %in[%j, %i] : memref<64x64xf32>
      memref.store %v, %out[%i, %j] : memref<64x64xf32>
      memref.store %v, %out[%j, %i] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64xf32>, %out: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 4 : index
    %g1 = arith.constant 4 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%in : memref<64x64xf32>, %out : memref<64x64xf32>)
    return
  }
}

// -----

// The store's address moves by one element along both x and y: neither
// dimension alone walks its memory.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply transpose-tile=32 to @k: no single thread dimension walks the contiguous memory of both the load and the store}}
    gpu.func @k(%in: memref<64x64xf32>, %out: memref<128xf32>) kernel {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %0 = arith.muli %bx, %bdx : index
      %1 = arith.muli %by, %bdy : index
      %i = arith.addi %tx, %0 : index
      %j = arith.addi %ty, %1 : index
      %v = memref.load %in[%j, %i] : memref<64x64xf32>
      %d = arith.addi %i, %j : index
      memref.store %v, %out[%d] : memref<128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x64xf32>, %out: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%in : memref<64x64xf32>, %out : memref<128xf32>)
    return
  }
}
