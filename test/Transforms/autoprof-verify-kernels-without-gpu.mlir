// Without a GPU the normalized module cannot be verified against the
// original: the pass fails with the worker's reason.
// REQUIRES: autoprof-worker
// UNSUPPORTED: cuda-device
// RUN: autoprof-opt %s --autoprof-normalize-kernels -o %t.mlir
// RUN: not autoprof-opt %t.mlir --autoprof-verify-kernels="reference=%s" 2>&1 | FileCheck %s

// CHECK: error: @scale failed verification against the reference (error): no usable GPU: the CUDA driver library libcuda.so.1 could not be loaded

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%step: index, %x: memref<1048576xf32>, %y: memref<1048576xf32>, %a: f32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %offset = arith.addi %base, %tid : index
      %i = arith.muli %offset, %step : index
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
    gpu.launch_func @kernels::@scale blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%c1 : index, %x : memref<1048576xf32>, %y : memref<1048576xf32>, %a : f32)
    return
  }
}
