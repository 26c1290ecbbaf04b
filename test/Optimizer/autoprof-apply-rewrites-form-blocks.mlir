// form-blocks: launches of one-thread blocks (upstream's mapping of a
// parallel loop to blocks) get blocks of N threads along the dimension whose
// consecutive indices walk contiguous memory; the grid is rounded up and the
// threads past the problem skip the body.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=form-blocks=256" --cse | FileCheck %s

// Rows on block x, columns (contiguous) on block y: the columns move to
// threads along x, 1000 of them in 4 blocks of 256 with a guard; the rows
// run along block y. The kernel records its new launch sizes.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @add
    // CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 4, 300, 1>
    // CHECK-DAG: %[[C1000:.*]] = arith.constant 1000 : index
    // CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
    // CHECK-DAG: %[[ROW:.*]] = gpu.block_id y
    // CHECK-DAG: %[[BX:.*]] = gpu.block_id x
    // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
    // CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %[[C256]] : index
    // CHECK: %[[COL:.*]] = arith.addi %[[FIRST]], %[[TX]] : index
    // CHECK: %[[IN:.*]] = arith.cmpi ult, %[[COL]], %[[C1000]] : index
    // CHECK: scf.if %[[IN]] {
    // CHECK: memref.load %{{.*}}[%[[ROW]], %[[COL]]]
    // CHECK: memref.store %{{.*}}, %{{.*}}[%[[ROW]], %[[COL]]]
    // CHECK: }
    // CHECK-NEXT: gpu.return
    gpu.func @add(%a: memref<300x1000xf32>, %b: memref<300x1000xf32>, %c: memref<300x1000xf32>) kernel {
      %i = gpu.block_id x
      %j = gpu.block_id y
      %x = memref.load %a[%i, %j] : memref<300x1000xf32>
      %y = memref.load %b[%i, %j] : memref<300x1000xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i, %j] : memref<300x1000xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @main
  // CHECK-DAG: %[[G4:.*]] = arith.constant 4 : index
  // CHECK-DAG: %[[G300:.*]] = arith.constant 300 : index
  // CHECK-DAG: %[[B256:.*]] = arith.constant 256 : index
  // CHECK: gpu.launch_func @kernels::@add blocks in (%[[G4]], %[[G300]], %{{.*}}) threads in (%[[B256]], %{{.*}}, %{{.*}})
  func.func @main(%a: memref<300x1000xf32>, %b: memref<300x1000xf32>, %c: memref<300x1000xf32>) {
    %c1 = arith.constant 1 : index
    %c300 = arith.constant 300 : index
    %c1000 = arith.constant 1000 : index
    gpu.launch_func @kernels::@add blocks in (%c300, %c1000, %c1) threads in (%c1, %c1, %c1) args(%a : memref<300x1000xf32>, %b : memref<300x1000xf32>, %c : memref<300x1000xf32>)
    return
  }
}

// -----

// A row statistic every element of a row shares (a layernorm's
// normalization): along x it walks contiguous memory too, but each of its
// elements serves the 1000 blocks of a row, so it weighs 1/1000 of a vote
// per element against the rows' elements and stores. The columns move to
// threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @normalize
    // CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 4, 300, 1>
    // CHECK-DAG: %[[ROW:.*]] = gpu.block_id y
    // CHECK-DAG: %[[BX:.*]] = gpu.block_id x
    // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
    // CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %{{.*}} : index
    // CHECK: %[[COL:.*]] = arith.addi %[[FIRST]], %[[TX]] : index
    // CHECK: memref.load %{{.*}}[%[[ROW]], %[[COL]]]
    // CHECK: memref.load %{{.*}}[%[[ROW]]]
    // CHECK: memref.load %{{.*}}[%[[ROW]]]
    // CHECK: memref.store %{{.*}}, %{{.*}}[%[[ROW]], %[[COL]]]
    gpu.func @normalize(%x: memref<300x1000xf32>, %mean: memref<300xf32>, %rstd: memref<300xf32>, %y: memref<300x1000xf32>) kernel {
      %i = gpu.block_id x
      %j = gpu.block_id y
      %v = memref.load %x[%i, %j] : memref<300x1000xf32>
      %m = memref.load %mean[%i] : memref<300xf32>
      %r = memref.load %rstd[%i] : memref<300xf32>
      %d = arith.subf %v, %m : f32
      %n = arith.mulf %d, %r : f32
      memref.store %n, %y[%i, %j] : memref<300x1000xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<300x1000xf32>, %mean: memref<300xf32>, %rstd: memref<300xf32>, %y: memref<300x1000xf32>) {
    %c1 = arith.constant 1 : index
    %c300 = arith.constant 300 : index
    %c1000 = arith.constant 1000 : index
    gpu.launch_func @kernels::@normalize blocks in (%c300, %c1000, %c1) threads in (%c1, %c1, %c1) args(%x : memref<300x1000xf32>, %mean : memref<300xf32>, %rstd : memref<300xf32>, %y : memref<300x1000xf32>)
    return
  }
}

// -----

// The geometry reaches the index through ways no pattern sees: the grid
// size, a literal equal to it, a division. Every original id and size is
// recomputed from the new global index, so the kernel still computes the
// same thing: grid_dim x becomes the constant 512 and block_id x the global
// index (exact: 512 threads fill two blocks of 256, no guard).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @reverse
    // CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
    // CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
    // CHECK-DAG: %[[BX:.*]] = gpu.block_id x
    // CHECK-DAG: %[[TX:.*]] = gpu.thread_id x
    // CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %[[C256]] : index
    // CHECK: %[[G:.*]] = arith.addi %[[FIRST]], %[[TX]] : index
    // CHECK-NOT: scf.if
    // CHECK-NOT: gpu.grid_dim
    // CHECK: arith.subi %[[C512]], %[[G]] : index
    gpu.func @reverse(%a: memref<512xf32>, %b: memref<512xf32>) kernel {
      %bid = gpu.block_id x
      %n = gpu.grid_dim x
      %c1 = arith.constant 1 : index
      %m = arith.subi %n, %bid : index
      %r = arith.subi %m, %c1 : index
      %v = memref.load %a[%r] : memref<512xf32>
      memref.store %v, %b[%bid] : memref<512xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<512xf32>, %b: memref<512xf32>) {
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    gpu.launch_func @kernels::@reverse blocks in (%c512, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<512xf32>, %b : memref<512xf32>)
    return
  }
}
