// form-blocks refuses what it cannot remap, with the reason; the kernel is
// left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=form-blocks=256" -o /dev/null

// The blocks already have threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply form-blocks=256 to @threaded: the launches do not have one-thread blocks}}
    gpu.func @threaded(%a: memref<1024xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %a[%tid] : memref<1024xf32>
      memref.store %v, %a[%tid] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @kernels::@threaded blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%a : memref<1024xf32>)
    return
  }
}

// -----

// A subgroup operation depends on which threads share a warp.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply form-blocks=256 to @lanes: it uses 'gpu.lane_id', which depends on how threads are grouped}}
    gpu.func @lanes(%a: memref<1024xindex>) kernel {
      %bid = gpu.block_id x
      %lane = gpu.lane_id
      memref.store %lane, %a[%bid] : memref<1024xindex>
      gpu.return
    }
  }
  func.func @main(%a: memref<1024xindex>) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @kernels::@lanes blocks in (%c1024, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1024xindex>)
    return
  }
}

// -----

// Two launches with different grids: the ids cannot be recomputed from one
// constant grid.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply form-blocks=256 to @twice: the launches do not share one grid}}
    gpu.func @twice(%a: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %v = memref.load %a[%bid] : memref<1024xf32>
      memref.store %v, %a[%bid] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @kernels::@twice blocks in (%c1024, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1024xf32>)
    gpu.launch_func @kernels::@twice blocks in (%c512, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1024xf32>)
    return
  }
}

// -----

// A body of several blocks cannot be guarded by one scf.if.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply form-blocks=256 to @branches: the kernel's body is not a single block}}
    gpu.func @branches(%a: memref<1024xf32>, %flag: i1) kernel {
      %bid = gpu.block_id x
      cf.cond_br %flag, ^store, ^done
    ^store:
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %a[%bid] : memref<1024xf32>
      cf.br ^done
    ^done:
      gpu.return
    }
  }
  func.func @main(%a: memref<1024xf32>, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @kernels::@branches blocks in (%c1024, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1024xf32>, %flag : i1)
    return
  }
}

// -----

// A launch of zero blocks runs no thread: no rewrite looks at its kernel
// (autoprof-apply-rewrites-launch-geometry-invalid.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply form-blocks=256 to @empty_grid: a launch's grid has 0 blocks along x (a GPU launches 1 to 2147483647)}}
    gpu.func @empty_grid(%a: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %a[%bid] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@empty_grid blocks in (%c0, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1024xf32>)
    return
  }
}
