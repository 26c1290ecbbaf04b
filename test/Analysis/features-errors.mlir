// RUN: autoprof-opt %s --autoprof-extract-features=normalize=false -split-input-file -verify-diagnostics

// Every diagnostic of the kernel-feature analysis, one per split: kernels it
// cannot model (dynamic, unranked or non-contiguous buffers; unsupported ops)
// and launches without static, valid sizes. Signature errors are reported on
// the gpu.func, launch errors on the gpu.launch_func and op errors on the op.

// A dynamically shaped buffer argument (reported with its index).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{kernel argument #1 has dynamic shape 'memref<?xf32>'; AutoProf needs statically shaped buffers (bare-pointer ABI)}}
    gpu.func @dynamic_shape(%a: memref<16xf32>, %b: memref<?xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// An unranked buffer argument.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{kernel argument #0 has unranked type 'memref<*xf32>'; AutoProf needs statically shaped buffers (bare-pointer ABI)}}
    gpu.func @unranked(%a: memref<*xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A strided (non-contiguous) buffer argument.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{kernel argument #2 has a non-identity layout 'memref<4x4xf32, strided<[8, 1]>>'; the bare-pointer ABI needs contiguous buffers}}
    gpu.func @strided(%a: memref<16xf32>, %n: index, %b: memref<4x4xf32, strided<[8, 1]>>) kernel {
      gpu.return
    }
  }
}

// -----

// A grid size that is not a host constant.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32>, %gx: index) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{launch of @k has a non-constant grid size x; AutoProf needs static launch sizes}}
    gpu.launch_func @kernels::@k blocks in (%gx, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
}

// -----

// A block size that is not a host constant.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32>, %by: index) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{launch of @k has a non-constant block size y; AutoProf needs static launch sizes}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %by, %c1) args(%a : memref<16xf32>)
    return
  }
}

// -----

// A grid size of zero.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    // expected-error @below {{launch of @k has an invalid grid size z of 0}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c0) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
}

// -----

// More than 1024 threads per block (1024 x 2 x 1).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c1024 = arith.constant 1024 : index
    // expected-error @below {{launch of @k uses 2048 threads per block; NVIDIA GPUs allow at most 1024}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1024, %c2, %c1) args(%a : memref<16xf32>)
    return
  }
}

// -----

// A dynamic shared memory size that is not a host constant.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32>, %smem: i32) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{launch of @k has a non-constant dynamic shared memory size; AutoProf needs static launch sizes}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem args(%a : memref<16xf32>)
    return
  }
}

// -----

// A negative dynamic shared memory size.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %smem = arith.constant -16 : i32
    // expected-error @below {{launch of @k has an invalid dynamic shared memory size of -16}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem args(%a : memref<16xf32>)
    return
  }
}

// -----

// A call inside a kernel.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @helper(%x: f32) -> f32 {
      return %x : f32
    }
    gpu.func @calls_function(%a: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<16xf32>
      // expected-error @below {{'func.call' in kernel @calls_function is not supported by AutoProf's kernel analysis}}
      %r = func.call @helper(%v) : (f32) -> f32
      memref.store %r, %a[%c0] : memref<16xf32>
      gpu.return
    }
  }
}

// -----

// A heap allocation inside a kernel, reported at the op even when nested in a loop.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @allocates(%a: memref<16xf32>) kernel {
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      scf.for %i = %c0 to %c4 step %c1 {
        // expected-error @below {{'memref.alloc' in kernel @allocates is not supported by AutoProf's kernel analysis}}
        %buf = memref.alloc() : memref<16xf32>
      }
      gpu.return
    }
  }
}

// -----

// An op of the LLVM dialect inside a kernel.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @uses_llvm(%a: memref<16xf32>) kernel {
      // expected-error @below {{'llvm.mlir.constant' in kernel @uses_llvm is not supported by AutoProf's kernel analysis}}
      %x = llvm.mlir.constant(1.0 : f32) : f32
      gpu.return
    }
  }
}

// -----

// Block z is limited to 64 threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tall_block(%out: memref<256xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%b: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    // expected-error @below {{launch of @tall_block exceeds NVIDIA's limits (grid x < 2^31, grid y and z <= 65535, block x and y <= 1024, block z <= 64): grid (1, 1, 1), block (1, 1, 128)}}
    gpu.launch_func @kernels::@tall_block blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c128) args(%b : memref<256xf32>)
    return
  }
}
