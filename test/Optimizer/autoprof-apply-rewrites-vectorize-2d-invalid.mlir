// vectorize on launches of any geometry refuses kernels whose x ids do not
// only address contiguous memory, with the reason; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=vectorize=4" -o /dev/null

// The threads' x index is data, which wider threads would have to rebuild.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply vectorize=4 to @iota: a launch does not have constant sizes and a 1-D block; nor does the general form apply: a value computed from the x ids is stored as data}}
    gpu.func @iota(%out: memref<4096x4096xindex>) kernel {
      %c32 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c32 : index
      %col = arith.addi %0, %tx : index
      %1 = arith.muli %by, %c8 : index
      %row = arith.addi %1, %ty : index
      memref.store %col, %out[%row, %col] : memref<4096x4096xindex>
      gpu.return
    }
  }
  func.func @main(%out: memref<4096x4096xindex>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 512 : index
    %bx = arith.constant 32 : index
    %by = arith.constant 8 : index
    gpu.launch_func @kernels::@iota blocks in (%gx, %gy, %c1) threads in (%bx, %by, %c1) args(%out : memref<4096x4096xindex>)
    return
  }
}

// -----

// Threads of one row all store to one element: merging them changes which
// store lands last.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{nor does the general form apply: a store does not depend on the x ids: the threads it would merge store to the same element}}
    gpu.func @row_store(%a: memref<4096x4096xf32>, %out: memref<4096xf32>) kernel {
      %c32 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c32 : index
      %col = arith.addi %0, %tx : index
      %1 = arith.muli %by, %c8 : index
      %row = arith.addi %1, %ty : index
      %v = memref.load %a[%row, %col] : memref<4096x4096xf32>
      memref.store %v, %out[%row] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<4096x4096xf32>, %out: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 512 : index
    %bx = arith.constant 32 : index
    %by = arith.constant 8 : index
    gpu.launch_func @kernels::@row_store blocks in (%gx, %gy, %c1) threads in (%bx, %by, %c1) args(%a : memref<4096x4096xf32>, %out : memref<4096xf32>)
    return
  }
}

// -----

// A load one element off: its vector would straddle two aligned groups.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{nor does the general form apply: an access's innermost index is not block_id x * 32 + thread_id x plus a multiple of 4 (the analysis gives}}
    gpu.func @shifted(%a: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) kernel {
      %c32 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c32 : index
      %col = arith.addi %0, %tx : index
      %1 = arith.muli %by, %c8 : index
      %row = arith.addi %1, %ty : index
      %c1 = arith.constant 1 : index
      %next = arith.addi %col, %c1 : index
      %v = memref.load %a[%row, %next] : memref<4096x4096xf32>
      memref.store %v, %out[%row, %col] : memref<4096x4096xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 512 : index
    %bx = arith.constant 32 : index
    %by = arith.constant 8 : index
    gpu.launch_func @kernels::@shifted blocks in (%gx, %gy, %c1) threads in (%bx, %by, %c1) args(%a : memref<4096x4096xf32>, %out : memref<4096x4096xf32>)
    return
  }
}

// -----

// The grid along x does not divide by the width.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{nor does the general form apply: the grid's 127 blocks along x are not a multiple of 4}}
    gpu.func @odd_grid(%a: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) kernel {
      %c32 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c32 : index
      %col = arith.addi %0, %tx : index
      %1 = arith.muli %by, %c8 : index
      %row = arith.addi %1, %ty : index
      %v = memref.load %a[%row, %col] : memref<4096x4096xf32>
      memref.store %v, %out[%row, %col] : memref<4096x4096xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 127 : index
    %gy = arith.constant 512 : index
    %bx = arith.constant 32 : index
    %by = arith.constant 8 : index
    gpu.launch_func @kernels::@odd_grid blocks in (%gx, %gy, %c1) threads in (%bx, %by, %c1) args(%a : memref<4096x4096xf32>, %out : memref<4096x4096xf32>)
    return
  }
}

// -----

// A transposed read walks memory along y, not x.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{nor does the general form apply: an access uses the x ids in an index other than the innermost}}
    gpu.func @transpose(%a: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) kernel {
      %c32 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c32 : index
      %col = arith.addi %0, %tx : index
      %1 = arith.muli %by, %c8 : index
      %row = arith.addi %1, %ty : index
      %v = memref.load %a[%col, %row] : memref<4096x4096xf32>
      memref.store %v, %out[%row, %col] : memref<4096x4096xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 512 : index
    %bx = arith.constant 32 : index
    %by = arith.constant 8 : index
    gpu.launch_func @kernels::@transpose blocks in (%gx, %gy, %c1) threads in (%bx, %by, %c1) args(%a : memref<4096x4096xf32>, %out : memref<4096x4096xf32>)
    return
  }
}

// -----

// Every other element: the 4 merged threads do not read 4 neighbours.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{nor does the general form apply: an access's innermost index is not block_id x * 32 + thread_id x plus a multiple of 4}}
    gpu.func @strided(%a: memref<4096x8192xf32>, %out: memref<4096x4096xf32>) kernel {
      %c32 = arith.constant 32 : index
      %c8 = arith.constant 8 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c32 : index
      %col = arith.addi %0, %tx : index
      %1 = arith.muli %by, %c8 : index
      %row = arith.addi %1, %ty : index
      %c2 = arith.constant 2 : index
      %even = arith.muli %col, %c2 : index
      %v = memref.load %a[%row, %even] : memref<4096x8192xf32>
      memref.store %v, %out[%row, %col] : memref<4096x4096xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<4096x8192xf32>, %out: memref<4096x4096xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 512 : index
    %bx = arith.constant 32 : index
    %by = arith.constant 8 : index
    gpu.launch_func @kernels::@strided blocks in (%gx, %gy, %c1) threads in (%bx, %by, %c1) args(%a : memref<4096x8192xf32>, %out : memref<4096x4096xf32>)
    return
  }
}
