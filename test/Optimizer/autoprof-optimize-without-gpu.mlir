// Without a GPU the optimizer says why, fails, and leaves the module as it
// was (no partial rewrite).
// RUN: not autoprof-opt %s --autoprof-optimize="worker=/bin/false" -o %t.mlir 2>&1 | FileCheck %s
// CHECK: error: cannot measure @scale: autoprof-worker exited with status 1 without writing a result

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4096xf32>
      memref.store %v, %y[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<4096xf32>
    %y = memref.alloc() : memref<4096xf32>
    gpu.launch_func @kernels::@scale blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4096xf32>, %y : memref<4096xf32>)
    return
  }
}
