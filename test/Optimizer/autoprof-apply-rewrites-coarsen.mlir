// coarsen on IR: the kernel body and the launch.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=coarsen=4" | FileCheck %s

// y[i] = a * x[i] + y[i] with a bounds check, 64 blocks of 256 threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%x: memref<16384xf32>, %y: memref<16384xf32>, %a: f32, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %one = arith.constant 1.0 : f32
        %xv = memref.load %x[%i] : memref<16384xf32>
        %yv = memref.load %y[%i] : memref<16384xf32>
        %ax = arith.mulf %a, %xv fastmath<contract> : f32
        %r = arith.addf %ax, %yv : f32
        %r1 = arith.addf %r, %one : f32
        memref.store %r1, %y[%i] : memref<16384xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<16384xf32>, %y: memref<16384xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 16384 : index
    %a = arith.constant 2.5 : f32
    gpu.launch_func @kernels::@saxpy blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %y : memref<16384xf32>, %a : f32, %n : index)
    return
  }
}

// Block b runs the work of blocks 4b .. 4b+3 one after the other.
// CHECK-LABEL: gpu.func @saxpy
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[K:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK: %[[FIRST:.*]] = arith.muli %[[BID]], %[[C4]] : index
// CHECK: %[[VB:.*]] = arith.addi %[[FIRST]], %[[K]] : index
// CHECK-NOT: gpu.block_id
// CHECK: %[[BASE:.*]] = arith.muli %[[VB]], %{{.*}} : index
// CHECK: arith.addi %[[BASE]], %{{.*}} : index
// CHECK: memref.store
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
// CHECK-LABEL: func.func @main
// CHECK: %[[GRID:.*]] = arith.constant 16 : index
// CHECK: gpu.launch_func @kernels::@saxpy blocks in (%[[GRID]], %{{.*}}, %{{.*}})

