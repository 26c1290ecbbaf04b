// Without a GPU the pass fails with the worker's reason and leaves the module
// unchanged.
// REQUIRES: autoprof-worker
// UNSUPPORTED: cuda-device
// RUN: not autoprof-opt %s --autoprof-profile 2>&1 | FileCheck %s
// RUN: not autoprof-opt %s --autoprof-profile="worker=%t.none" 2>&1 | FileCheck %s --check-prefix=NO-WORKER

// CHECK: autoprof-profile-without-gpu.mlir:[[# @LINE + 5]]:5: error: profiling @scale failed (error): no usable GPU: the CUDA driver library libcuda.so.1 could not be loaded
// NO-WORKER: error: cannot profile @scale: worker '{{.*}}.none' is not an executable file

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<1048576xf32>, %y: memref<1048576xf32>, %a: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<1048576xf32>
      %r = arith.mulf %v, %a : f32
      memref.store %r, %y[%i] : memref<1048576xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1048576xf32>, %y: memref<1048576xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    %a = arith.constant 2.0 : f32
    gpu.launch_func @kernels::@scale blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1048576xf32>, %y : memref<1048576xf32>, %a : f32)
    return
  }
}
