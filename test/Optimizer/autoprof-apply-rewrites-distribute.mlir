// distribute-loop on IR: lanes of a thread split its loop's iterations.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=distribute-loop=32" | FileCheck %s

// Row gather: each thread copies one 64-float row, 4 blocks of 256 threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather(%table: memref<4096x64xf32>, %idx: memref<1024xi32>, %out: memref<1024x64xf32>, %n: index, %dim: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %raw = memref.load %idx[%i] : memref<1024xi32>
        %r = arith.index_castui %raw : i32 to index
        scf.for %d = %c0 to %dim step %c1 {
          %v = memref.load %table[%r, %d] : memref<4096x64xf32>
          memref.store %v, %out[%i, %d] : memref<1024x64xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%table: memref<4096x64xf32>, %idx: memref<1024xi32>, %out: memref<1024x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1024 : index
    gpu.launch_func @kernels::@gather blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%table : memref<4096x64xf32>, %idx : memref<1024xi32>, %out : memref<1024x64xf32>, %n : index, %c64 : index)
    return
  }
}

// Thread t is lane t mod 32 of original thread t / 32; the global index is
// built from the original thread and block size, and lane l starts at
// iteration l and strides by 32.
// CHECK-LABEL: gpu.func @gather
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BDIM:.*]] = gpu.block_dim x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : index
// CHECK: %[[OTID:.*]] = arith.divui %[[TID]], %[[C32]] : index
// CHECK: %[[OBDIM:.*]] = arith.divui %[[BDIM]], %[[C32]] : index
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[BASE:.*]] = arith.muli %[[BID]], %[[OBDIM]] : index
// CHECK: %[[G:.*]] = arith.addi %[[BASE]], %[[OTID]] : index
// CHECK: %[[OFFSET:.*]] = arith.muli %[[LANE]], %{{.*}} : index
// CHECK: %[[LB:.*]] = arith.addi %{{.*}}, %[[OFFSET]] : index
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %[[C32]] : index
// CHECK: scf.for %[[D:.*]] = %[[LB]] to %{{.*}} step %[[STEP]] {
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[G]], %[[D]]]
// 1024 original threads in blocks of 32 of them, 1024 hardware threads each.
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@gather blocks in (%c32{{(_[0-9]+)?}}, %{{.*}}, %{{.*}}) threads in (%c1024{{(_[0-9]+)?}}, %{{.*}}, %{{.*}})
