// contraction-tile refuses, with the reason, kernels whose loop it cannot
// stage through row and column tiles; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=contraction-tile=32" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=contraction-tile=128" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIG

// C[i][j] += A[i][k] * B[k][j] with C loaded and stored in the loop (register-accumulate has not run).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the kernel does not have exactly one loop that carries values (register-accumulate makes one of C[i][j] += ...)}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      scf.for %k = %c0 to %c64 step %c1 {
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %z = memref.load %c[%i, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        memref.store %s, %c[%i, %j] : memref<64x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// The loop's trip count comes from an argument the launch does not fix.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the loop's bounds are not constants with a positive step}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>, %n : index)
    return
  }
}

// -----

// A stencil-like sum: the load A[i][j + k] moves with both result dimensions.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: no two thread dimensions split the loop's loads into ones that only the first moves and ones that only the second moves (the rows and columns of a contraction)}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %jk = arith.addi %j, %k : index
        %x = memref.load %a[%i, %jk] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// 16 x 48 results: a tile of 32 is larger than a whole dimension.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the result dimensions (16 x 48) are smaller than the tile of 32}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c3, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// The loop writes memory.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the loop's body may write memory ('memref.store')}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<64x64xf32>
        scf.yield %s : f32
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// A write before the loop: another thread's staging could read it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the code before the loop may write memory ('memref.store')}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      memref.store %zero, %c[%i, %j] : memref<64x64xf32>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// The loop runs only for some threads: not every thread would reach the barriers.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the condition around the loop may differ between threads (every thread of a block must reach the barriers)}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %inside = arith.cmpi ult, %tx, %c16 : index
      scf.if %inside {
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = memref.load %a[%i, %k] : memref<64x64xf32>
          %y = memref.load %b[%k, %j] : memref<64x64xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// A contraction over two loops that are not a perfect nest: the outer
// loop's body does more than run the inner one.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the loops that carry values are not one perfect nest of loops from 0 with step 1 and constant bounds (a convolution's window folds into one loop only then)}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %scaled = arith.addf %acc, %acc : f32
        %inner = scf.for %l = %c0 to %c16 step %c1 iter_args(%acc2 = %scaled) -> (f32) {
          %x = memref.load %a[%i, %l] : memref<64x64xf32>
          %y = memref.load %b[%k, %j] : memref<64x64xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc2, %p : f32
          scf.yield %s : f32
        }
        scf.yield %inner : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// A gather: the row index is loaded from memory.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the analysis does not express the address of a load of the loop as an affine form of the thread and block ids}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %idx: memref<64xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %r = memref.load %idx[%i] : memref<64xindex>
        %x = memref.load %a[%r, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %idx: memref<64xindex>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>, %idx : memref<64xindex>)
    return
  }
}


// -----

// A load whose index the loop carries (it starts from the column id): not a row load.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the address of a load depends on a value the loop carries}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum:2 = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero, %p = %j) -> (f32, index) {
        %x = memref.load %a[%i, %p] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %pr = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %pr : f32
        scf.yield %s, %k : f32, index
      }
      memref.store %sum#0, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// A loop over i32: the stages count in indices.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the loop does not count in signed indices}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %z32 = arith.constant 0 : i32
      %o32 = arith.constant 1 : i32
      %n32 = arith.constant 64 : i32
      %sum = scf.for %k32 = %z32 to %n32 step %o32 iter_args(%acc = %zero) -> (f32) : i32 {
        %k = arith.index_cast %k32 : i32 to index
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// An unsigned loop: its trip count is not the signed one the stages use.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the loop does not count in signed indices}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %sum = scf.for unsigned %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// The row index is half the thread's: arithmetic the analysis cannot
// express as an affine form, so it cannot prove what the loads move with.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the analysis does not express the address of a load of the loop as an affine form of the thread and block ids}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %h = arith.divui %i, %c2 : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%h, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// Three loads of f64 staged at S = 128 (A and D move with the rows, B with
// the columns): 3 x 16 x 132 x 8 bytes of tiles exceed 48 KiB; at S = 32
// they fit.
// BIG: error: cannot apply contraction-tile=128 to @three: the tiles would not fit in 48 KiB of shared memory
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @three(%a: memref<128x64xf64>, %b: memref<64x128xf64>, %d: memref<128x64xf64>, %c: memref<128x128xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f64
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f64) {
        %x = memref.load %a[%i, %k] : memref<128x64xf64>
        %y = memref.load %b[%k, %j] : memref<64x128xf64>
        %z = memref.load %d[%i, %k] : memref<128x64xf64>
        %p = arith.mulf %x, %y : f64
        %q = arith.mulf %p, %z : f64
        %s = arith.addf %acc, %q : f64
        scf.yield %s : f64
      }
      memref.store %sum, %c[%i, %j] : memref<128x128xf64>
      gpu.return
    }
  }
  func.func @main(%a: memref<128x64xf64>, %b: memref<64x128xf64>, %d: memref<128x64xf64>, %c: memref<128x128xf64>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@three blocks in (%c8, %c8, %c1) threads in (%c16, %c16, %c1) args(%a : memref<128x64xf64>, %b : memref<64x128xf64>, %d : memref<128x64xf64>, %c : memref<128x128xf64>)
    return
  }
}

// -----

// A condition around the loop that is not a bounds check on a global
// index (its bound is a kernel argument): the threads of a block may take
// different sides of it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the condition around the loop may differ between threads (every thread of a block must reach the barriers)}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %i = arith.addi %0, %tx : index
      %j = arith.addi %1, %ty : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = memref.load %a[%i, %k] : memref<64x64xf32>
          %y = memref.load %b[%k, %j] : memref<64x64xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>, %n : index)
    return
  }
}

// -----

// Code after a bounds check around the loop: the threads the check skips
// still run it, so the check cannot go.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: code after the bounds check around the loop runs for the threads it skips}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %d: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c48 = arith.constant 48 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %inside = arith.cmpi ult, %j, %c48 : index
      scf.if %inside {
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = memref.load %a[%i, %k] : memref<64x64xf32>
          %y = memref.load %b[%k, %j] : memref<64x64xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      }
      memref.store %zero, %d[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %d: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>, %d : memref<64x64xf32>)
    return
  }
}

// -----

// A versioned loop under a bounds check whose second branch has none: that
// branch runs for every thread.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply contraction-tile=32 to @k: the second branch of the condition around the loop is not under the same bounds check}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %flag: i1) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c48 = arith.constant 48 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      scf.if %flag {
        %inside = arith.cmpi ult, %j, %c48 : index
        scf.if %inside {
          %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
            %x = memref.load %a[%i, %k] : memref<64x64xf32>
            %y = memref.load %b[%k, %j] : memref<64x64xf32>
            %p = arith.mulf %x, %y : f32
            %s = arith.addf %acc, %p : f32
            scf.yield %s : f32
          }
          memref.store %sum, %c[%i, %j] : memref<64x64xf32>
        }
      } else {
        memref.store %zero, %c[%i, %j] : memref<64x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>, %flag : i1)
    return
  }
}
