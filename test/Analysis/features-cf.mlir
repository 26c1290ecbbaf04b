// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s

// Thread dependence flows through cf block arguments: the loop counter
// starts at the thread id, so the exit test is divergent although it only
// compares the block argument with a constant.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @cf_loop
    // CHECK-SAME: , branches = 1 : i64
    // CHECK-SAME: divergent_branches = 1 : i64
    gpu.func @cf_loop(%x: memref<256xf32>) kernel {
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %tid = gpu.thread_id x
      cf.br ^loop(%tid : index)
    ^loop(%i: index):
      %done = arith.cmpi uge, %i, %c10 : index
      cf.cond_br %done, ^exit, ^body
    ^body:
      %v = memref.load %x[%i] : memref<256xf32>
      memref.store %v, %x[%i] : memref<256xf32>
      %next = arith.addi %i, %c1 : index
      cf.br ^loop(%next : index)
    ^exit:
      gpu.return
    }
    // The same loop from a uniform start is not divergent.
    // CHECK-LABEL: gpu.func @cf_uniform
    // CHECK-SAME: , branches = 1 : i64
    // CHECK-SAME: divergent_branches = 0 : i64
    gpu.func @cf_uniform(%x: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      cf.br ^loop(%c0 : index)
    ^loop(%i: index):
      %done = arith.cmpi uge, %i, %c10 : index
      cf.cond_br %done, ^exit, ^body
    ^body:
      %v = memref.load %x[%i] : memref<256xf32>
      memref.store %v, %x[%i] : memref<256xf32>
      %next = arith.addi %i, %c1 : index
      cf.br ^loop(%next : index)
    ^exit:
      gpu.return
    }
  }
}
