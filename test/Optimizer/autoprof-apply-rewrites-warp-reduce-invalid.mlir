// warp-reduce refuses, with the reason, kernels whose loop is not a
// reduction the lanes can split, whose lanes could diverge or write before
// the shuffles, or whose loads would not gain; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=warp-reduce=32" -o /dev/null

// The accumulator goes through memory (register-accumulate comes first).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: no scf.for carries a reduction in iter_args (register-accumulate makes one of an accumulation through memory)}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      scf.for %k = %c0 to %c256 step %c1 {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s0 = memref.load %out[%i] : memref<64xf32>
        %s = arith.addf %v, %s0 : f32
        memref.store %s, %out[%i] : memref<64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// A subtraction is not associative.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: the loop's carried value #0 is not combined once per iteration by an f32 or i32 addition, product, minimum, maximum or bitwise operation}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.subf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// The shuffles move 32-bit values: an f64 sum stays as it is.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: the loop's carried value #0 is not combined once per iteration by an f32 or i32 addition, product, minimum, maximum or bitwise operation}}
    gpu.func @k(%a: memref<64x256xf64>, %out: memref<64xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf64>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f64) {
        %v = memref.load %a[%i, %k] : memref<64x256xf64>
        %s = arith.addf %acc, %v : f64
        scf.yield %s : f64
      }
      memref.store %r, %out[%i] : memref<64xf64>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf64>, %out: memref<64xf64>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf64>, %out : memref<64xf64>)
    return
  }
}

// -----

// The combination is used again in the iteration (not a reduction).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: the loop's carried value #0 is not combined once per iteration by an f32 or i32 addition, product, minimum, maximum or bitwise operation}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.maximumf %acc, %v : f32
        %s2 = arith.minimumf %s, %v : f32
        scf.yield %s2 : f32
      }
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// The loop writes: each lane would write its own iterations' elements, but the rewrite leaves every write to lane 0.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: the loop writes memory ('memref.store')}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        memref.store %v, %a[%i, %k] : memref<64x256xf32>
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// A write before the loop: the other lanes would read before lane 0 wrote.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: 'memref.store' may write memory before the loop}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %out[%i] : memref<64xf32>
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// The reduction runs in an outer loop whose next iteration reads what lane 0 wrote.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: the loop is nested in 'scf.for' (only scf.if may enclose it)}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %c4 = arith.constant 4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %init = memref.load %out[%i] : memref<64xf32>
        %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
          %v = memref.load %a[%i, %k] : memref<64x256xf32>
          %s = arith.maximumf %acc, %v : f32
          scf.yield %s : f32
        }
        memref.store %r, %out[%i] : memref<64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// An upper bound the host passes at run time.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: the loop does not have constant bounds and a positive step}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>, %n : index)
    return
  }
}

// -----

// A column sum: the threads along x already read consecutive elements.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: a load of the loop already walks contiguous memory across the threads along x (splitting the loop would scatter it)}}
    gpu.func @k(%a: memref<256x64xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%k, %i] : memref<256x64xf32>
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<256x64xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<256x64xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// Every other element: the lanes would not read consecutive elements.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: no load of the loop walks contiguous memory from one iteration to the next}}
    gpu.func @k(%a: memref<64x512xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %c512 = arith.constant 512 : index
      %c2 = arith.constant 2 : index
      %r = scf.for %k = %c0 to %c512 step %c2 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x512xf32>
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x512xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x512xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// An atomic whose old value is used cannot be left to lane 0.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: 'memref.atomic_rmw' writes memory and returns a value or holds regions}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      %old = memref.atomic_rmw maximumf %r, %out[%i] : (f32, memref<64xf32>) -> f32
      memref.store %old, %a[%i, %c0] : memref<64x256xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// Threads that cooperate through a barrier.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: it uses 'gpu.barrier', which depends on how threads are grouped}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      gpu.barrier
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// A store whose address is loaded: the other lanes could read another address than lane 0.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: outside the loop, 'memref.store' has an address, bound or condition that depends on memory (the other lanes could read it after lane 0 wrote it)}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>, %perm: memref<64xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      %slot = memref.load %perm[%i] : memref<64xindex>
      memref.store %r, %out[%slot] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>, %perm: memref<64xindex>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>, %perm : memref<64xindex>)
    return
  }
}

// -----

// The exponential of a float sum: the terms' magnitude (the reference on absolute inputs) does not bound its rounding.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=32 to @k: a stored value is computed with 'math.exp', not only with sums, differences and products of loaded values (the magnitude that bounds a reassociated sum's rounding would not hold)}}
    gpu.func @k(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      %e = math.exp %r : f32
      memref.store %e, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 4 : index
    %block = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}
