// fold-host-loop: a host loop around a launch moves into the kernel. Each
// thread runs the loop over the body, the induction variable in place of its
// argument, and keeps the element it accumulates into in a register across
// the loop; the host launches once. Buffers not proved distinct get a check
// on the host, and the loop as it was (launching a copy of the original
// kernel) runs when they overlap.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=fold-host-loop=1" | FileCheck %s
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=fold-host-loop=1" --autoprof-propose-rewrites | FileCheck %s --check-prefix=AFTER

// A column sum, one launch per row, with host arguments marked noalias: no
// check, one launch without the induction variable. The grid size the loop
// body defines comes along.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @col_sum(
    // CHECK-SAME: %[[A:.*]]: memref<64x256xf32>, %[[OUT:.*]]: memref<256xf32>) kernel
    // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
    // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
    // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
    // CHECK: %[[J:.*]] = arith.addi
    // CHECK-NEXT: %[[INIT:.*]] = memref.load %[[OUT]][%[[J]]]
    // CHECK-NEXT: %[[SUM:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[C64]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
    // CHECK-NEXT: %[[V:.*]] = memref.load %[[A]][%[[K]], %[[J]]]
    // CHECK-NEXT: %[[R:.*]] = arith.addf %[[V]], %[[ACC]]
    // CHECK-NEXT: scf.yield %[[R]]
    // CHECK-NEXT: }
    // CHECK-NEXT: memref.store %[[SUM]], %[[OUT]][%[[J]]]
    // CHECK-NEXT: gpu.return
    // The accumulator is in a register already; the reduction over the loop
    // can be split across rows of threads, as many as possible for 256
    // columns.
    // AFTER-LABEL: gpu.func @col_sum(
    // AFTER-SAME: autoprof.proposals = ["block-reduce=32",
    gpu.func @col_sum(%a: memref<64x256xf32>, %k: index, %out: memref<256xf32>) kernel {
      %c64 = arith.constant 64 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c64 : index
      %j = arith.addi %base, %tid : index
      %v = memref.load %a[%k, %j] : memref<64x256xf32>
      %s = memref.load %out[%j] : memref<256xf32>
      %r = arith.addf %v, %s : f32
      memref.store %r, %out[%j] : memref<256xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @col_sum(
  // CHECK-NOT: scf.for
  // CHECK-NOT: scf.if
  // CHECK-DAG: %[[GRID:.*]] = arith.constant 4 : index
  // CHECK: gpu.launch_func @kernels::@col_sum blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<64x256xf32>, %{{.*}} : memref<256xf32>)
  // CHECK-NEXT: return
  func.func @col_sum(%a: memref<64x256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c64 step %c1 {
      %c4 = arith.constant 4 : index
      gpu.launch_func @kernels::@col_sum blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64x256xf32>, %k : index, %out : memref<256xf32>)
    }
    return
  }
}

// -----

// Host arguments of unknown origin, an i32 induction variable from 1 in
// steps of 2, one-thread blocks: the host compares the written buffer with
// the other one; when they overlap, the loop launches the original kernel,
// kept as a fallback that no rewrite touches.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @scaled(
    // CHECK-SAME: %[[X:.*]]: memref<512xf32>, %[[Y:.*]]: memref<512xf32>) kernel
    // CHECK-DAG: %[[LB:.*]] = arith.constant 1 : index
    // CHECK-DAG: %[[UB:.*]] = arith.constant 9 : index
    // CHECK-DAG: %[[STEP:.*]] = arith.constant 2 : index
    // CHECK: %[[BID:.*]] = gpu.block_id x
    // CHECK: %[[INIT:.*]] = memref.load %[[Y]][%[[BID]]]
    // CHECK: %[[SUM:.*]] = scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%{{.*}} = %[[INIT]]) -> (f32) {
    // CHECK-NEXT: %[[KI:.*]] = arith.index_cast %[[K]] : index to i32
    // CHECK-NEXT: arith.sitofp %[[KI]] : i32 to f32
    // CHECK-NOT: memref.store
    // CHECK: scf.yield
    // CHECK-NEXT: }
    // CHECK-NEXT: memref.store %[[SUM]], %[[Y]][%[[BID]]]
    // CHECK: gpu.func @scaled_unfolded(%{{.*}}: memref<512xf32>, %{{.*}}: i32, %{{.*}}: memref<512xf32>) kernel attributes {autoprof.fallback_of = @scaled,
    // AFTER-LABEL: gpu.func @scaled_unfolded(
    // AFTER-SAME: autoprof.proposals = []
    gpu.func @scaled(%x: memref<512xf32>, %k: i32, %y: memref<512xf32>) kernel {
      %bid = gpu.block_id x
      %f = arith.sitofp %k : i32 to f32
      %v = memref.load %x[%bid] : memref<512xf32>
      %s = memref.load %y[%bid] : memref<512xf32>
      %m = arith.mulf %v, %f : f32
      %r = arith.addf %m, %s : f32
      memref.store %r, %y[%bid] : memref<512xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @scaled(
  // CHECK-SAME: %[[HX:.*]]: memref<512xf32>, %[[HY:.*]]: memref<512xf32>)
  // CHECK-DAG: memref.extract_aligned_pointer_as_index %[[HY]]
  // CHECK-DAG: memref.extract_aligned_pointer_as_index %[[HX]]
  // CHECK: %[[APART:.*]] = arith.ori
  // CHECK-NEXT: scf.if %[[APART]] {
  // CHECK-NEXT: gpu.launch_func @kernels::@scaled blocks in {{.*}} args(%[[HX]] : memref<512xf32>, %[[HY]] : memref<512xf32>)
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
  // CHECK-NEXT: gpu.launch_func @kernels::@scaled_unfolded blocks in {{.*}} args(%[[HX]] : memref<512xf32>, %[[K]] : i32, %[[HY]] : memref<512xf32>)
  func.func @scaled(%x: memref<512xf32>, %y: memref<512xf32>) {
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %lb = arith.constant 1 : i32
    %ub = arith.constant 9 : i32
    %step = arith.constant 2 : i32
    scf.for %k = %lb to %ub step %step : i32 {
      gpu.launch_func @kernels::@scaled blocks in (%c512, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<512xf32>, %k : i32, %y : memref<512xf32>)
    }
    return
  }
}

// -----

// A 2-D launch whose written element is a mixed radix of thread and block
// ids (16 threads along x, 4 along y, 8 blocks along y): every thread owns
// its element, read and written at the same address.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @tiles(
    // CHECK: scf.for
    // CHECK: gpu.return
    gpu.func @tiles(%a: memref<8x32x16xf32>, %k: index, %out: memref<32x16xf32>) kernel {
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c4 : index
      %row = arith.addi %row0, %ty : index
      %v = memref.load %a[%k, %row, %tx] : memref<8x32x16xf32>
      %s = memref.load %out[%row, %tx] : memref<32x16xf32>
      %r = arith.maximumf %v, %s : f32
      memref.store %r, %out[%row, %tx] : memref<32x16xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @tiles(
  // CHECK: scf.if
  func.func @tiles(%a: memref<8x32x16xf32>, %out: memref<32x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    scf.for %k = %c0 to %c8 step %c1 {
      gpu.launch_func @kernels::@tiles blocks in (%c1, %c8, %c1) threads in (%c16, %c4, %c1) args(%a : memref<8x32x16xf32>, %k : index, %out : memref<32x16xf32>)
    }
    return
  }
}

// -----

// The written element is only stored, the last launch's value kept: there
// is no accumulator to carry, and the store stays in the loop.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @last_row(
    // CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
    // CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[K]], %[[T:.*]]]
    // CHECK-NEXT: memref.store %[[V]], %{{.*}}[%[[T]]]
    // CHECK-NEXT: }
    gpu.func @last_row(%a: memref<16x128xf32>, %k: index, %out: memref<128xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %a[%k, %tid] : memref<16x128xf32>
      memref.store %v, %out[%tid] : memref<128xf32>
      gpu.return
    }
  }
  func.func @last_row(%a: memref<16x128xf32> {llvm.noalias}, %out: memref<128xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    scf.for %k = %c0 to %c16 step %c1 {
      gpu.launch_func @kernels::@last_row blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%a : memref<16x128xf32>, %k : index, %out : memref<128xf32>)
    }
    return
  }
}
