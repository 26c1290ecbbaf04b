// warp-reduce's parameter and the blocks it would form: refusals with the
// reason; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=warp-reduce=16" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=warp-reduce=12" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAMETER
// PARAMETER: the number of lanes must be 4, 8, 16 or 32

// Blocks of 3 threads: 16 lanes each would leave partial warps (the lanes of a shuffle must all exist).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply warp-reduce=16 to @k: blocks of 48 threads would not fill whole warps}}
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
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %grid = arith.constant 21 : index
    %block = arith.constant 3 : index
    gpu.launch_func @kernels::@k blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}
