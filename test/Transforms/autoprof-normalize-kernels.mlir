// RUN: autoprof-opt %s -split-input-file --autoprof-normalize-kernels | FileCheck %s

// Upstream's spelling: the step and lower bound reach the kernel as
// arguments every launch feeds the same constants, the index goes through
// affine.apply and the grid size is an affine map on the host. After
// normalization the constants are in the body, the index is the block id,
// the launch passes only the buffer and the float, and the kernel records
// its launch sizes.
#map = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @scale
    // CHECK-SAME: (%[[A:.*]]: memref<256xf32>) kernel
    // CHECK-SAME: known_block_size = array<i32: 1, 1, 1>
    // CHECK-SAME: known_grid_size = array<i32: 256, 1, 1>
    // CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
    // CHECK-DAG: %[[BID:.*]] = gpu.block_id x
    // CHECK-NOT: affine.apply
    // CHECK: %[[V:.*]] = memref.load %[[A]][%[[BID]]]
    // CHECK: arith.mulf %[[V]], %[[TWO]]
    gpu.func @scale(%step: index, %lb: index, %a: memref<256xf32>, %factor: f32) kernel {
      %bid = gpu.block_id x
      %i = affine.apply #map(%bid)[%step, %lb]
      %v = memref.load %a[%i] : memref<256xf32>
      %s = arith.mulf %v, %factor : f32
      memref.store %s, %a[%i] : memref<256xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @main
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
  // CHECK: gpu.launch_func @kernels::@scale blocks in (%[[C256]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%{{.*}} : memref<256xf32>)
  func.func @main(%a: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %two = arith.constant 2.0 : f32
    %n = affine.apply affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>(%c256)[%c0, %c1]
    gpu.launch_func @kernels::@scale blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%c1 : index, %c0 : index, %a : memref<256xf32>, %two : f32)
    return
  }
}

// -----

// Two launches that feed an argument different constants keep it; the one
// they agree on is sunk. Their grids differ, so no grid size is recorded;
// their blocks agree.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @offset
    // CHECK-SAME: (%[[A:.*]]: memref<1024xf32>, %[[OFF:.*]]: index) kernel
    // CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
    // CHECK-NOT: known_grid_size
    // CHECK: %[[C7:.*]] = arith.constant 7.000000e+00 : f32
    // CHECK: memref.store %[[C7]], %[[A]]
    gpu.func @offset(%a: memref<1024xf32>, %off: index, %v: f32) kernel {
      %tid = gpu.thread_id x
      %i = arith.addi %tid, %off : index
      memref.store %v, %a[%i] : memref<1024xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @main
  // CHECK-COUNT-2: gpu.launch_func @kernels::@offset {{.*}} args(%{{.*}} : memref<1024xf32>, %{{.*}} : index)
  func.func @main(%a: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %seven = arith.constant 7.0 : f32
    gpu.launch_func @kernels::@offset blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%a : memref<1024xf32>, %c0 : index, %seven : f32)
    gpu.launch_func @kernels::@offset blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1) args(%a : memref<1024xf32>, %c128 : index, %seven : f32)
    return
  }
}

// -----

// A launch in a host loop (a reduction dimension upstream turned into a host
// scf.for): its trip count and the operand fed by the induction variable are
// recorded; that operand stays an argument.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @accumulate
    // CHECK-SAME: (%{{.*}}: memref<64x256xf32>, %{{.*}}: index, %{{.*}}: memref<256xf32>) kernel
    gpu.func @accumulate(%a: memref<64x256xf32>, %i: index, %out: memref<256xf32>) kernel {
      %bid = gpu.block_id x
      %v = memref.load %a[%i, %bid] : memref<64x256xf32>
      %o = memref.load %out[%bid] : memref<256xf32>
      %s = arith.addf %o, %v : f32
      memref.store %s, %out[%bid] : memref<256xf32>
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @main
  // CHECK: scf.for
  // CHECK: gpu.launch_func @kernels::@accumulate
  // CHECK-SAME: autoprof.host_loop = {trip_count = 64 : i64, varying_operands = array<i64: 1>}
  func.func @main(%a: memref<64x256xf32>, %out: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c64 step %c1 {
      gpu.launch_func @kernels::@accumulate blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64x256xf32>, %i : index, %out : memref<256xf32>)
    }
    return
  }
}

// -----

// A kernel that is never launched is left as written.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @unused
    // CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: index) kernel {
    gpu.func @unused(%a: memref<4xf32>, %n: index) kernel {
      gpu.return
    }
  }
}

// -----

// Workgroup and private attributions stay behind the remaining arguments
// when a leading argument is sunk.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @staged
    // CHECK-SAME: (%[[A:.*]]: memref<256xf32>) workgroup(%[[T:.*]] : memref<256xf32, #gpu.address_space<workgroup>>) private(%{{.*}} : memref<1xf32, #gpu.address_space<private>>) kernel
    // CHECK: %[[LAST:.*]] = arith.constant 255 : index
    // CHECK: %[[TID:.*]] = gpu.thread_id x
    // CHECK: gpu.barrier
    // CHECK: %[[J:.*]] = arith.subi %[[LAST]], %[[TID]] : index
    // CHECK: memref.load %[[T]][%[[J]]]
    gpu.func @staged(%a: memref<256xf32>, %n: index) workgroup(%t: memref<256xf32, #gpu.address_space<workgroup>>) private(%p: memref<1xf32, #gpu.address_space<private>>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %a[%tid] : memref<256xf32>
      memref.store %v, %t[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c1 = arith.constant 1 : index
      %m = arith.subi %n, %c1 : index
      %j = arith.subi %m, %tid : index
      %w = memref.load %t[%j] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %a[%tid] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@staged blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>, %c256 : index)
    return
  }
}
