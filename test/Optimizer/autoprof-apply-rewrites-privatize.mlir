// privatize-atomics on IR: atomic adds into a small buffer go to a zeroed
// shared copy per block, which is added into the buffer at the end; with a
// parameter the kernel is coarsened first.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=privatize-atomics normalize=false" | FileCheck %s --check-prefix=PRIV
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=privatize-atomics=4 normalize=false" | FileCheck %s --check-prefix=PRIV4

// A 64-bin histogram of 16384 samples, 64 blocks of 256 threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @histogram(%x: memref<16384xi32>, %bins: memref<64xi32>, %n: index) kernel {
      %one = arith.constant 1 : i32
      %mask = arith.constant 63 : i32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %x[%i] : memref<16384xi32>
        %b32 = arith.andi %v, %mask : i32
        %b = arith.index_cast %b32 : i32 to index
        %old = memref.atomic_rmw addi %one, %bins[%b] : (i32, memref<64xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<16384xi32>, %bins: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 16384 : index
    gpu.launch_func @kernels::@histogram blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xi32>, %bins : memref<64xi32>, %n : index)
    return
  }
}

// PRIV-LABEL: gpu.func @histogram
// PRIV-SAME: (%{{.*}}: memref<16384xi32>, %[[BINS:.*]]: memref<64xi32>, %{{.*}}: index) workgroup(%[[SH:.*]] : memref<64xi32, #gpu.address_space<workgroup>>) kernel
// PRIV: %[[TID:.*]] = gpu.thread_id x
// PRIV: %[[BDIM:.*]] = gpu.block_dim x
// PRIV: %[[C64:.*]] = arith.constant 64 : index
// PRIV: scf.for %[[E:.*]] = %[[TID]] to %[[C64]] step %[[BDIM]] {
// PRIV: %[[ZERO:.*]] = arith.constant 0 : i32
// PRIV: memref.store %[[ZERO]], %[[SH]][%[[E]]] : memref<64xi32, #gpu.address_space<workgroup>>
// PRIV: }
// PRIV-NEXT: gpu.barrier
// PRIV: memref.atomic_rmw addi %{{.*}}, %[[SH]][%{{.*}}] : (i32, memref<64xi32, #gpu.address_space<workgroup>>) -> i32
// PRIV: gpu.barrier
// PRIV: scf.for %[[F:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// PRIV: %[[PART:.*]] = memref.load %[[SH]][%[[F]]]
// PRIV: %[[NZ:.*]] = arith.cmpi ne, %[[PART]], %{{.*}} : i32
// PRIV: scf.if %[[NZ]] {
// PRIV: memref.atomic_rmw addi %[[PART]], %[[BINS]][%[[F]]] : (i32, memref<64xi32>) -> i32
// PRIV: gpu.return
// PRIV-LABEL: func.func @main
// PRIV: gpu.launch_func @kernels::@histogram blocks in (%c64,

// The coarsening loop sits between the two barriers, so one shared copy
// collects the updates of four of the original blocks.
// PRIV4-LABEL: gpu.func @histogram
// PRIV4: gpu.barrier
// PRIV4: scf.for
// PRIV4: memref.atomic_rmw addi %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<64xi32, #gpu.address_space<workgroup>>) -> i32
// PRIV4: gpu.barrier
// PRIV4-LABEL: func.func @main
// PRIV4: %[[GRID:.*]] = arith.constant 16 : index
// PRIV4: gpu.launch_func @kernels::@histogram blocks in (%[[GRID]],

// -----

// A float sum into one element: the shared copy is f32 and the final adds
// skip elements no thread of the block touched.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @total(%x: memref<16384xf32>, %sum: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<16384xf32>
      %old = memref.atomic_rmw addf %v, %sum[%c0] : (f32, memref<1xf32>) -> f32
      gpu.return
    }
  }
  func.func @main(%x: memref<16384xf32>, %sum: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@total blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %sum : memref<1xf32>)
    return
  }
}

// PRIV-LABEL: gpu.func @total
// PRIV-SAME: workgroup(%[[SH:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// PRIV: memref.atomic_rmw addf %{{.*}}, %[[SH]][%{{.*}}] : (f32, memref<1xf32, #gpu.address_space<workgroup>>) -> f32
// PRIV: arith.cmpf une
// PRIV: memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}] : (f32, memref<1xf32>) -> f32
// PRIV4-LABEL: gpu.func @total
