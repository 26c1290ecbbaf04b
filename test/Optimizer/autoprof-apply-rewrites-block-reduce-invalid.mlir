// block-reduce refuses, with the reason, kernels whose loop its threads
// cannot share or would not gain from sharing; the kernel is left alone.
// (The conditions it shares with warp-reduce are refused in
// autoprof-apply-rewrites-warp-reduce-invalid.mlir.)
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=block-reduce=8" -o /dev/null

// Blocks of 16 x 2 threads: the rows along y are taken.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply block-reduce=8 to @k: the launches' blocks are not one-dimensional along x}}
    gpu.func @k(%x: memref<512xf32>, %a: memref<512x64xf32>, %y: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %j = arith.addi %base, %tid : index
      %init = memref.load %y[%j] : memref<64xf32>
      %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
        %x_k = memref.load %x[%k] : memref<512xf32>
        %a_kj = memref.load %a[%k, %j] : memref<512x64xf32>
        %p = arith.mulf %x_k, %a_kj : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%j] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<512xf32>, %a: memref<512x64xf32>, %y: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 4 : index
    %g1 = arith.constant 1 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 2 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%x : memref<512xf32>, %a : memref<512x64xf32>, %y : memref<64xf32>)
    return
  }
}

// -----

// 131 threads per block, 8 rows of them: 1048 threads, and no divisor of
// 131 of at least 32 columns leaves a block within 1024.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply block-reduce=8 to @k: blocks of 131 threads with 8 along y each would exceed 1024 threads, and no divisor of 131 of at least 32 leaves them within}}
    gpu.func @k(%x: memref<512xf32>, %a: memref<512x131xf32>, %y: memref<131xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %j = arith.addi %base, %tid : index
      %init = memref.load %y[%j] : memref<131xf32>
      %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
        %x_k = memref.load %x[%k] : memref<512xf32>
        %a_kj = memref.load %a[%k, %j] : memref<512x131xf32>
        %p = arith.mulf %x_k, %a_kj : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%j] : memref<131xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<512xf32>, %a: memref<512x131xf32>, %y: memref<131xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 1 : index
    %g1 = arith.constant 1 : index
    %b0 = arith.constant 131 : index
    %b1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%x : memref<512xf32>, %a : memref<512x131xf32>, %y : memref<131xf32>)
    return
  }
}

// -----

// A guard on the thread id: some threads of a block would skip the barrier.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply block-reduce=8 to @k: the loop is under a condition that the threads of a block may not share (they must all reach the barrier)}}
    gpu.func @k(%x: memref<512xf32>, %a: memref<512x64xf32>, %y: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %j = arith.addi %base, %tid : index
      %c32 = arith.constant 32 : index
      %low = arith.cmpi ult, %tid, %c32 : index
      scf.if %low {
        %init = memref.load %y[%j] : memref<64xf32>
        %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
          %x_k = memref.load %x[%k] : memref<512xf32>
          %a_kj = memref.load %a[%k, %j] : memref<512x64xf32>
          %p = arith.mulf %x_k, %a_kj : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %y[%j] : memref<64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<512xf32>, %a: memref<512x64xf32>, %y: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 4 : index
    %g1 = arith.constant 1 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%x : memref<512xf32>, %a : memref<512x64xf32>, %y : memref<64xf32>)
    return
  }
}

// -----

// A row sum: the loop walks contiguous memory itself, not across the threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply block-reduce=8 to @k: no load of the loop is contiguous across the threads along x (warp-reduce serves a loop that walks contiguous memory itself)}}
    gpu.func @k(%x: memref<512xf32>, %a: memref<64x512xf32>, %y: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %j = arith.addi %base, %tid : index
      %init = memref.load %y[%j] : memref<64xf32>
      %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
        %a_jk = memref.load %a[%j, %k] : memref<64x512xf32>
        %s = arith.addf %acc, %a_jk : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%j] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<512xf32>, %a: memref<64x512xf32>, %y: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %g0 = arith.constant 4 : index
    %g1 = arith.constant 1 : index
    %b0 = arith.constant 16 : index
    %b1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%g0, %g1, %c1) threads in (%b0, %b1, %c1) args(%x : memref<512xf32>, %a : memref<64x512xf32>, %y : memref<64xf32>)
    return
  }
}

// -----

// A 9-tap window: 8 rows of threads would run one or two taps each, the
// combination costing more than the loop (on an H200 such a split of a 1-D
// convolution ran 465.8 us against 69.9 us).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply block-reduce=8 to @k: the loop has 9 iterations, fewer than 2 for each of 8 threads}}
    gpu.func @k(%x: memref<1032xf32>, %w: memref<9xf32>, %y: memref<1024xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c9 = arith.constant 9 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %j = arith.addi %base, %tid : index
      %sum = scf.for %k = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> (f32) {
        %i = arith.addi %j, %k : index
        %x_i = memref.load %x[%i] : memref<1032xf32>
        %w_k = memref.load %w[%k] : memref<9xf32>
        %p = arith.mulf %x_i, %w_k : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%j] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1032xf32>, %w: memref<9xf32>, %y: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1032xf32>, %w : memref<9xf32>, %y : memref<1024xf32>)
    return
  }
}
