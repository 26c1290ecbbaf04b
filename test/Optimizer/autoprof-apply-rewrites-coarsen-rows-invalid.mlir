// Kernels coarsen-rows refuses, each with the reason.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=coarsen-rows=4" -o /dev/null

// An elementwise kernel: no thread reads what its neighbours along y read,
// there is nothing to share.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{cannot apply coarsen-rows=4 to @scale: no load reads a window that overlaps the windows of neighbouring threads}}
    gpu.func @scale(%in: memref<64x128xf32>, %out: memref<64x128xf32>) kernel {
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
      %x = memref.load %in[%i, %j] : memref<64x128xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<64x128xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@scale blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<64x128xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// A 3-tap column sum on a grid of 6 blocks along y: 6 is not a multiple of 4.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{cannot apply coarsen-rows=4 to @col3: the grid along y (6 blocks) is not a multiple of 4}}
    gpu.func @col3(%in: memref<50x128xf32>, %out: memref<48x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %by, %c8 : index
      %i = arith.addi %0, %ty : index
      %1 = arith.muli %bx, %c32 : index
      %j = arith.addi %1, %tx : index
      %sum = scf.for %t = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (f32) {
        %r = arith.addi %i, %t : index
        %x = memref.load %in[%r, %j] : memref<50x128xf32>
        %s = arith.addf %a, %x : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%i, %j] : memref<48x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<50x128xf32>, %out: memref<48x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@col3 blocks in (%c4, %c6, %c1) threads in (%c32, %c8, %c1) args(%in : memref<50x128xf32>, %out : memref<48x128xf32>)
    return
  }
}

// -----

// A store before the row is known: every original thread of a row group
// would run it, the coarsened thread once.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{cannot apply coarsen-rows=4 to @flagged: 'memref.store' writes memory before the thread's index along the coarsened dimension is known}}
    gpu.func @flagged(%in: memref<66x128xf32>, %out: memref<64x128xf32>, %seen: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %1 = arith.muli %bx, %c32 : index
      %j = arith.addi %1, %tx : index
      memref.store %one, %seen[%j] : memref<128xf32>
      %by = gpu.block_id y
      %ty = gpu.thread_id y
      %0 = arith.muli %by, %c8 : index
      %i = arith.addi %0, %ty : index
      %sum = scf.for %t = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (f32) {
        %r = arith.addi %i, %t : index
        %x = memref.load %in[%r, %j] : memref<66x128xf32>
        %s = arith.addf %a, %x : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<66x128xf32>, %out: memref<64x128xf32>, %seen: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@flagged blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x128xf32>, %out : memref<64x128xf32>, %seen : memref<128xf32>)
    return
  }
}

// -----

// Threads of a block that meet at a barrier cooperate: one thread cannot
// stand for several of them.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{cannot apply coarsen-rows=4 to @synced: it uses 'gpu.barrier', which depends on how threads are grouped}}
    gpu.func @synced(%in: memref<66x128xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %by, %c8 : index
      %i = arith.addi %0, %ty : index
      %1 = arith.muli %bx, %c32 : index
      %j = arith.addi %1, %tx : index
      %sum = scf.for %t = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (f32) {
        %r = arith.addi %i, %t : index
        %x = memref.load %in[%r, %j] : memref<66x128xf32>
        %s = arith.addf %a, %x : f32
        scf.yield %s : f32
      }
      gpu.barrier
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<66x128xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@synced blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x128xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// A 3-tap window along x whose accumulator is stored every iteration: the
// 4 neighbours' loads would be separated by the stores and could not merge.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{cannot apply coarsen-rows=4 to @acc_x: every window loop along x writes memory in its iterations, so that the neighbours' loads could not merge (an accumulator kept in memory: register-accumulate first)}}
    gpu.func @acc_x(%in: memref<4098xf32>, %out: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %c64 : index
      %i = arith.addi %0, %tx : index
      scf.for %t = %c0 to %c3 step %c1 {
        %j = arith.addi %i, %t : index
        %x = memref.load %in[%j] : memref<4098xf32>
        %a = memref.load %out[%i] : memref<4096xf32>
        %s = arith.addf %a, %x : f32
        memref.store %s, %out[%i] : memref<4096xf32>
      }
      gpu.return
    }
  }
  func.func @main(%in: memref<4098xf32>, %out: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@acc_x blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<4098xf32>, %out : memref<4096xf32>)
    return
  }
}

// -----

// A 40-tap window along x, its accumulator in a register: a loop that long
// is not unrolled, and without unrolling the neighbours' loads stay apart.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{cannot apply coarsen-rows=4 to @long_x: no window loop along x is an innermost loop of at most 32 iterations, which the neighbours' loads need to merge}}
    gpu.func @long_x(%in: memref<4135xf32>, %out: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c40 = arith.constant 40 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %c64 : index
      %i = arith.addi %0, %tx : index
      %sum = scf.for %t = %c0 to %c40 step %c1 iter_args(%a = %zero) -> (f32) {
        %j = arith.addi %i, %t : index
        %x = memref.load %in[%j] : memref<4135xf32>
        %s = arith.addf %a, %x : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<4135xf32>, %out: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@long_x blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<4135xf32>, %out : memref<4096xf32>)
    return
  }
}
