// halo-tile refuses, with the reason, window loops whose input box it cannot
// stage once per block or that gain nothing from it; the kernel is left
// alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=halo-tile=1" -o /dev/null

// One-thread blocks: form-blocks first.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: the launches have one-thread blocks (form-blocks applies)}}
    gpu.func @k(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
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
      %init = memref.load %out[%i, %j] : memref<64x128xf32>
      %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
        %row = scf.for %kw = %c0 to %c3 step %c1 iter_args(%b = %a) -> (f32) {
          %r = arith.addi %i, %kh : index
          %c = arith.addi %j, %kw : index
          %x = memref.load %in[%r, %c] : memref<66x130xf32>
          %w = memref.load %k[%kh, %kw] : memref<3x3xf32>
          %p = arith.mulf %x, %w : f32
          %s = arith.addf %b, %p : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c1, %c1, %c1) args(%in : memref<66x130xf32>, %k : memref<3x3xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// The window loops accumulate through memory: register-accumulate first.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: the window loops store to memory (an accumulation through memory: register-accumulate first)}}
    gpu.func @k(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
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
      scf.for %kh = %c0 to %c3 step %c1 {
        scf.for %kw = %c0 to %c3 step %c1 {
          %r = arith.addi %i, %kh : index
          %c = arith.addi %j, %kw : index
          %x = memref.load %in[%r, %c] : memref<66x130xf32>
          %w = memref.load %k[%kh, %kw] : memref<3x3xf32>
          %o = memref.load %out[%i, %j] : memref<64x128xf32>
          %p = arith.mulf %x, %w : f32
          %s = arith.addf %o, %p : f32
          memref.store %s, %out[%i, %j] : memref<64x128xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x130xf32>, %k : memref<3x3xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// A 2x2 pooling of stride 2 reads each input element once.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: the threads of a block read each element of the box fewer than twice (no reuse to stage)}}
    gpu.func @k(%in: memref<128x256xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
      %i2 = arith.muli %i, %c2 : index
      %j2 = arith.muli %j, %c2 : index
      %init = memref.load %out[%i, %j] : memref<64x128xf32>
      %m = scf.for %kh = %c0 to %c2 step %c1 iter_args(%a = %init) -> (f32) {
        %row = scf.for %kw = %c0 to %c2 step %c1 iter_args(%b = %a) -> (f32) {
          %r = arith.addi %i2, %kh : index
          %c = arith.addi %j2, %kw : index
          %x = memref.load %in[%r, %c] : memref<128x256xf32>
          %y = arith.maximumf %b, %x : f32
          scf.yield %y : f32
        }
        scf.yield %row : f32
      }
      memref.store %m, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<128x256xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<128x256xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// A 96 x 96 window: the box of 103 x 127 elements does not fit.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: the box a block reads takes 52324 bytes, more than the 32768 shared memory may take}}
    gpu.func @k(%in: memref<159x223xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c96 = arith.constant 96 : index
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
      %init = memref.load %out[%i, %j] : memref<64x128xf32>
      %sum = scf.for %kh = %c0 to %c96 step %c1 iter_args(%a = %init) -> (f32) {
        %row = scf.for %kw = %c0 to %c96 step %c1 iter_args(%b = %a) -> (f32) {
          %r = arith.addi %i, %kh : index
          %c = arith.addi %j, %kw : index
          %x = memref.load %in[%r, %c] : memref<159x223xf32>
          %s = arith.addf %b, %x : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<159x223xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<159x223xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// An in-place stencil writes the buffer it reads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: the kernel writes the buffer the window loops read}}
    gpu.func @k(%in: memref<66x130xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
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
      %init = memref.load %in[%i, %j] : memref<66x130xf32>
      %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
        %row = scf.for %kw = %c0 to %c3 step %c1 iter_args(%b = %a) -> (f32) {
          %r = arith.addi %i, %kh : index
          %c = arith.addi %j, %kw : index
          %x = memref.load %in[%r, %c] : memref<66x130xf32>
          %s = arith.addf %b, %x : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      memref.store %sum, %in[%i, %j] : memref<66x130xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<66x130xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x130xf32>)
    return
  }
}

// -----

// The window loops run in another loop: the box would be staged again in every iteration.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: the window loops sit in another loop or region than conditions (the staging must run once per block)}}
    gpu.func @k(%in: memref<66x130xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
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
      %c4 = arith.constant 4 : index
      scf.for %rep = %c0 to %c4 step %c1 {
        %init = memref.load %out[%i, %j] : memref<64x128xf32>
        %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
          %row = scf.for %kw = %c0 to %c3 step %c1 iter_args(%b = %a) -> (f32) {
            %r = arith.addi %i, %kh : index
            %c = arith.addi %j, %kw : index
            %x = memref.load %in[%r, %c] : memref<66x130xf32>
            %s = arith.addf %b, %x : f32
            scf.yield %s : f32
          }
          scf.yield %row : f32
        }
        memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      }
      gpu.return
    }
  }
  func.func @main(%in: memref<66x130xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x130xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// A row offset read from memory: the box is not an affine form.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: index 0 of the load depends on}}
    gpu.func @k(%in: memref<66x130xf32>, %idx: memref<3xindex>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
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
      %init = memref.load %out[%i, %j] : memref<64x128xf32>
      %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
        %off = memref.load %idx[%kh] : memref<3xindex>
        %r = arith.addi %i, %off : index
        %x = memref.load %in[%r, %j] : memref<66x130xf32>
        %s = arith.addf %a, %x : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<66x130xf32>, %idx: memref<3xindex>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x130xf32>, %idx : memref<3xindex>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// Only the filter is read in the window loops: every thread reads the same
// taps, which one broadcast request serves.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: the load in window loops reads the same element in every thread of a block}}
    gpu.func @k(%k: memref<3x3xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
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
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %zero) -> (f32) {
        %row = scf.for %kw = %c0 to %c3 step %c1 iter_args(%b = %a) -> (f32) {
          %w = memref.load %k[%kh, %kw] : memref<3x3xf32>
          %s = arith.addf %b, %w : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%k: memref<3x3xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%k : memref<3x3xf32>, %out : memref<64x128xf32>)
    return
  }
}

// -----

// A kernel that synchronizes its threads already (staged once, or split by
// another rewrite) is left alone.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply halo-tile=1 to @k: the kernel already synchronizes its threads (a barrier)}}
    gpu.func @k(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      gpu.barrier
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %by, %c8 : index
      %i = arith.addi %0, %ty : index
      %1 = arith.muli %bx, %c32 : index
      %j = arith.addi %1, %tx : index
      %init = memref.load %out[%i, %j] : memref<64x128xf32>
      %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
        %row = scf.for %kw = %c0 to %c3 step %c1 iter_args(%b = %a) -> (f32) {
          %r = arith.addi %i, %kh : index
          %c = arith.addi %j, %kw : index
          %x = memref.load %in[%r, %c] : memref<66x130xf32>
          %w = memref.load %k[%kh, %kw] : memref<3x3xf32>
          %p = arith.mulf %x, %w : f32
          %s = arith.addf %b, %p : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x130xf32>, %k : memref<3x3xf32>, %out : memref<64x128xf32>)
    return
  }
}

