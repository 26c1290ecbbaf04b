// contraction-tile=128 on f64: one buffer of the two 16 x 132 tiles takes
// 33 KiB, two would take 66 of the 48 KiB of static shared memory, so the
// tiles keep one buffer: each stage stores its elements from registers,
// waits, loads the next stage's and computes, and waits again.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=contraction-tile=128" | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul(
    // CHECK-SAME: workgroup(%[[AS:.*]] : memref<16x132xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BS:.*]] : memref<16x132xf64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
    // The stages carry the 64 sums and the 16 staged elements of each tile.
    // CHECK: %{{.*}}:80 = scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args
    // CHECK-NOT: gpu.barrier
    // CHECK: memref.store %{{.*}}, %[[AS]][%{{.*}}, %{{.*}}] : memref<16x132xf64
    // CHECK: gpu.barrier
    // CHECK: scf.for
    // CHECK: gpu.barrier
    // CHECK-NEXT: scf.yield
    // CHECK: gpu.return
    gpu.func @matmul(%a: memref<128x128xf64>, %b: memref<128x128xf64>, %c: memref<128x128xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<128x128xf64>
      %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %init) -> (f64) {
        %x = memref.load %a[%i, %k] : memref<128x128xf64>
        %y = memref.load %b[%k, %j] : memref<128x128xf64>
        %p = arith.mulf %x, %y : f64
        %s = arith.addf %acc, %p : f64
        scf.yield %s : f64
      }
      memref.store %sum, %c[%i, %j] : memref<128x128xf64>
      gpu.return
    }
  }
  func.func @main(%a: memref<128x128xf64>, %b: memref<128x128xf64>, %c: memref<128x128xf64>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul blocks in (%c8, %c8, %c1) threads in (%c16, %c16, %c1) args(%a : memref<128x128xf64>, %b : memref<128x128xf64>, %c : memref<128x128xf64>)
    return
  }
}
