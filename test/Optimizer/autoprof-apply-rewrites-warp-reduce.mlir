// warp-reduce on IR: L lanes of a warp split a reduction loop, combine their
// partial results with shuffles, and lane 0 writes.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=warp-reduce=32" | FileCheck %s
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=warp-reduce=8" | FileCheck %s --check-prefix=LANES8

// A row maximum in the spelling upstream's tiled mapping gives once the
// accumulator is in a register: the block size 16 appears only as a literal
// and in known_block_size.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_max_f32(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c16 overflow<nsw> : index
      %i = arith.addi %tid, %base : index
      %init = memref.load %out[%i] : memref<64xf32>
      %sum = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.maximumf %v, %acc : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@row_max_f32 blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// A guarded integer maximum over rows of 1000 (not a multiple of the lanes)
// whose index uses gpu.block_dim, and which also stores the grid size: 256
// threads per block with 32 lanes each exceed 1024, so every original block
// becomes 8 hardware blocks.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_max(%a: memref<2000x1000xi32>, %out: memref<2000xi32>, %grid: memref<1xindex>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c1000 = arith.constant 1000 : index
      %low = arith.constant -2147483648 : i32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %m = scf.for %k = %c0 to %c1000 step %c1 iter_args(%acc = %low) -> (i32) {
          %v = memref.load %a[%i, %k] : memref<2000x1000xi32>
          %r = arith.maxsi %acc, %v : i32
          scf.yield %r : i32
        }
        memref.store %m, %out[%i] : memref<2000xi32>
      }
      %gdim = gpu.grid_dim x
      memref.store %gdim, %grid[%c0] : memref<1xindex>
      gpu.return
    }
  }
  func.func @main(%a: memref<2000x1000xi32>, %out: memref<2000xi32>, %grid: memref<1xindex>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 2000 : index
    gpu.launch_func @kernels::@row_max blocks in (%c8, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<2000x1000xi32>, %out : memref<2000xi32>, %grid : memref<1xindex>, %n : index)
    return
  }
}

// -----

// A matrix-vector product's rows: a floating-point sum, which the lanes add
// in another order.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matvec(%a: memref<128x512xf32>, %x: memref<512xf32>, %y: memref<128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c512 = arith.constant 512 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %y[%i] : memref<128xf32>
      %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %init) -> (f32) {
        %a_ik = memref.load %a[%i, %k] : memref<128x512xf32>
        %x_k = memref.load %x[%k] : memref<512xf32>
        %p = arith.mulf %a_ik, %x_k : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%i] : memref<128xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<128x512xf32>, %x: memref<512xf32>, %y: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@matvec blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<128x512xf32>, %x : memref<512xf32>, %y : memref<128xf32>)
    return
  }
}

// -----

// A minimum whose combination promises no NaN and no infinity (fast): the
// neutral element is +inf, so the rewritten combinations drop nnan and ninf
// and keep the other flags.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_min_fast(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %init = memref.load %out[%i] : memref<64xf32>
      %m = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.minimumf %acc, %v fastmath<fast> : f32
        scf.yield %s : f32
      }
      memref.store %m, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@row_min_fast blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// A maximum over f16 elements, widened to f32: a chunk is 8 iterations, one
// 128-bit load of 8 halves.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_max_f16(%a: memref<64x256xf16>, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c16 : index
      %i = arith.addi %tid, %base : index
      %init = memref.load %out[%i] : memref<64xf32>
      %m = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %init) -> (f32) {
        %h = memref.load %a[%i, %k] : memref<64x256xf16>
        %v = arith.extf %h : f16 to f32
        %s = arith.maximumf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %m, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf16>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@row_max_f16 blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<64x256xf16>, %out : memref<64xf32>)
    return
  }
}

// -----

// A sum over 255 elements of each row: no chunk of 2 or more iterations
// divides the trip count, so each lane runs single iterations.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_sum_odd(%a: memref<64x256xf32>, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c255 = arith.constant 255 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c16 : index
      %i = arith.addi %tid, %base : index
      %init = memref.load %out[%i] : memref<64xf32>
      %m = scf.for %k = %c0 to %c255 step %c1 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %a[%i, %k] : memref<64x256xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %m, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@row_sum_odd blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// -----

// Two loads per iteration: %b's walks its rows from aligned offsets, %a's
// from one element past them (k + 1), which a 128-bit load could not read.
// Chunks of 4 iterations: %b's 4 loads are one vector load, %a's stay 4
// loads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_max_shifted(%a: memref<64x256xf32>, %b: memref<64x256xf32>, %out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c252 = arith.constant 252 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c16 : index
      %i = arith.addi %tid, %base : index
      %init = memref.load %out[%i] : memref<64xf32>
      %m = scf.for %k = %c0 to %c252 step %c1 iter_args(%acc = %init) -> (f32) {
        %k1 = arith.addi %k, %c1 : index
        %va = memref.load %a[%i, %k1] : memref<64x256xf32>
        %vb = memref.load %b[%i, %k] : memref<64x256xf32>
        %t = arith.maximumf %va, %vb : f32
        %s = arith.maximumf %acc, %t : f32
        scf.yield %s : f32
      }
      memref.store %m, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x256xf32>, %b: memref<64x256xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@row_max_shifted blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<64x256xf32>, %b : memref<64x256xf32>, %out : memref<64xf32>)
    return
  }
}

// Each thread of the 512 is lane t mod 32 of original thread t / 32, which
// takes the place of the thread id in the index (the literal 16 stays true:
// there are still 16 original threads per block); the row's load walks it
// one element per iteration from aligned offsets, so lane l runs chunks of
// 4 iterations (128 bits): from iteration 4l, from -inf, the neutral
// element of the maximum, striding by 4*32, the chunk's loads one vector
// load and its iterations in order; five butterfly shuffles among all 32 lanes and a broadcast from the
// first give every lane the row's maximum, which is combined with the
// loop's initial value; lane 0 alone stores.
// A maximum is exact in any order: the kernel is not marked reassociated.
// CHECK-LABEL: gpu.func @row_max_f32
// CHECK-NOT: autoprof.reassociated
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>, known_grid_size = array<i32: 4, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : index
// CHECK: %[[THREAD:.*]] = arith.divui %[[TID]], %[[C32]] : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK: %[[BASE:.*]] = arith.muli %[[BID]], %c16 overflow<nsw> : index
// CHECK: %[[I:.*]] = arith.addi %[[THREAD]], %[[BASE]] : index
// CHECK: %[[INIT:.*]] = memref.load %{{.*}}[%[[I]]] : memref<64xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[CHUNK:.*]] = arith.muli %{{.*}}, %[[C4]] : index
// CHECK: %[[OFFSET:.*]] = arith.muli %[[LANE]], %[[CHUNK]] : index
// CHECK: %[[LB:.*]] = arith.addi %{{.*}}, %[[OFFSET]] : index
// CHECK: %[[STEP:.*]] = arith.muli %[[CHUNK]], %[[C32]] : index
// CHECK: %[[NEUTRAL:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PARTIAL:.*]] = scf.for %[[K:.*]] = %[[LB]] to %c256 step %[[STEP]] iter_args(%[[ACC:.*]] = %[[NEUTRAL]]) -> (f32) {
// CHECK-NEXT: %[[V:.*]] = vector.load %{{.*}}[%[[I]], %[[K]]] {alignment = 16 : i64} : memref<64x256xf32>, vector<4xf32>
// CHECK-NEXT: %[[V0:.*]] = vector.extract %[[V]][0]
// CHECK-NEXT: %[[V1:.*]] = vector.extract %[[V]][1]
// CHECK-NEXT: %[[V2:.*]] = vector.extract %[[V]][2]
// CHECK-NEXT: %[[V3:.*]] = vector.extract %[[V]][3]
// CHECK-NEXT: %[[M0:.*]] = arith.maximumf %[[V0]], %[[ACC]] : f32
// CHECK-NEXT: %[[M1:.*]] = arith.maximumf %[[V1]], %[[M0]] : f32
// CHECK-NEXT: %[[M2:.*]] = arith.maximumf %[[V2]], %[[M1]] : f32
// CHECK-NEXT: %[[M3:.*]] = arith.maximumf %[[V3]], %[[M2]] : f32
// CHECK-NEXT: scf.yield %[[M3]] : f32
// CHECK: %[[MASK:.*]] = arith.constant -1 : i32
// CHECK: %[[SOURCE:.*]] = nvvm.shfl.sync bfly %[[MASK]], %[[PARTIAL]], %c16_i32, %c31_i32 : f32 -> f32
// CHECK: arith.maximumf %[[PARTIAL]], %[[SOURCE]] : f32
// CHECK-COUNT-4: nvvm.shfl.sync bfly %[[MASK]]
// CHECK: %[[TOTAL:.*]] = nvvm.shfl.sync idx %[[MASK]]
// CHECK: %[[RESULT:.*]] = arith.maximumf %[[INIT]], %[[TOTAL]] : f32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %[[RESULT]], %{{.*}}[%[[I]]] : memref<64xf32>
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@row_max_f32 blocks in (%c4{{(_[0-9]+)?}}, %c1, %c1) threads in (%c512, %c1, %c1)

// Original block b is hardware blocks 8b .. 8b+7, each with 32 of its 256
// threads; block_dim and grid_dim become the original sizes (256 and 8,
// which lane 0 stores); the maximum starts from INT_MIN and is combined
// with the loop's initial value; both writes are lane 0's.
// CHECK-LABEL: gpu.func @row_max
// CHECK-SAME: known_block_size = array<i32: 1024, 1, 1>, known_grid_size = array<i32: 64, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32 : index
// CHECK: %[[LOCAL:.*]] = arith.divui %[[TID]], %c32 : index
// CHECK: %[[PART:.*]] = arith.remui %[[BID]], %c8 : index
// CHECK: %[[SKIP:.*]] = arith.muli %[[PART]], %c32{{.*}} : index
// CHECK: %[[THREAD:.*]] = arith.addi %[[SKIP]], %[[LOCAL]] : index
// CHECK: %[[BLOCK:.*]] = arith.divui %[[BID]], %c8 : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]]
// CHECK: %[[BASE:.*]] = arith.muli %[[BLOCK]], %c256 : index
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[THREAD]] : index
// CHECK: scf.if
// CHECK: %[[LOW:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[PARTIAL:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[LOW]]) -> (i32) {
// CHECK: arith.maxsi
// CHECK-COUNT-5: nvvm.shfl.sync bfly %{{.*}} : i32 -> i32
// CHECK: %[[TOTAL:.*]] = nvvm.shfl.sync idx
// CHECK: %[[RESULT:.*]] = arith.maxsi %{{.*}}, %[[TOTAL]] : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %[[RESULT]], %{{.*}}[%[[I]]]
// CHECK: %[[GRID:.*]] = arith.constant 8 : index
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %[[GRID]]
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @kernels::@row_max blocks in (%c64, %c1, %c1) threads in (%c1024, %c1, %c1)

// With 8 lanes, the shuffles name the 8 lanes of the group (255 shifted to
// the group's first lane, lane id & 24) and take three steps.
// LANES8-LABEL: gpu.func @row_max_f32
// LANES8-SAME: known_block_size = array<i32: 128, 1, 1>
// LANES8: %[[LANEID:.*]] = gpu.lane_id
// LANES8: %[[LANE32:.*]] = arith.index_castui %[[LANEID]] : index to i32
// LANES8: %[[GROUP:.*]] = arith.andi %[[LANE32]], %c24_i32 : i32
// LANES8: %[[MASK:.*]] = arith.shli %c255_i32, %[[GROUP]] : i32
// LANES8: nvvm.shfl.sync bfly %[[MASK]], %{{.*}}, %c4_i32, %c31_i32
// LANES8: nvvm.shfl.sync bfly %[[MASK]], %{{.*}}, %c2_i32, %c31_i32
// LANES8: nvvm.shfl.sync bfly %[[MASK]], %{{.*}}, %c1_i32, %c31_i32
// LANES8: nvvm.shfl.sync idx %[[MASK]], %{{.*}}, %[[GROUP]], %c31_i32
// LANES8-LABEL: gpu.func @row_max
// LANES8-SAME: known_block_size = array<i32: 1024, 1, 1>, known_grid_size = array<i32: 16, 1, 1>
// LANES8: arith.remui %{{.*}}, %c2 : index

// The sum starts from -0.0 in every lane (x + -0.0 is x, even for -0.0),
// its partial results are added by the shuffles, and the kernel is marked
// reassociated: its verification bounds the difference by the magnitude of
// the terms.
// CHECK-LABEL: gpu.func @matvec
// CHECK-SAME: autoprof.reassociated
// CHECK-SAME: known_block_size = array<i32: 1024, 1, 1>, known_grid_size = array<i32: 4, 1, 1>
// CHECK: %[[NEUTRAL:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[PARTIAL:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[NEUTRAL]]) -> (f32) {
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[SOURCE:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[PARTIAL]], %c16_i32
// CHECK-NEXT: arith.addf %[[PARTIAL]], %[[SOURCE]] : f32
// CHECK: %[[TOTAL:.*]] = nvvm.shfl.sync idx
// CHECK: %[[RESULT:.*]] = arith.addf %{{.*}}, %[[TOTAL]] : f32
// CHECK: scf.if
// CHECK-NEXT: memref.store %[[RESULT]]
// LANES8-LABEL: gpu.func @matvec
// LANES8-SAME: autoprof.reassociated

// CHECK-LABEL: gpu.func @row_min_fast
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: scf.for
// CHECK: arith.minimumf %{{.*}}, %{{.*}} fastmath<reassoc,nsz,arcp,contract,afn> : f32
// CHECK-NOT: fastmath<fast>
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @row_max_f16
// CHECK: scf.for
// CHECK-NEXT: %[[H:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<64x256xf16>, vector<8xf16>
// CHECK-COUNT-8: vector.extract %[[H]]
// CHECK-COUNT-8: arith.maximumf
// CHECK-NEXT: scf.yield

// CHECK-LABEL: gpu.func @row_sum_odd
// CHECK: scf.for %{{.*}} to %c255 step
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: scf.yield
// CHECK-NOT: vector.load
// CHECK: gpu.return

// CHECK-LABEL: gpu.func @row_max_shifted
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c252 step
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K]], %c1
// CHECK-NEXT: memref.load %{{.*}}[%{{.*}}, %[[K1]]] : memref<64x256xf32>
// CHECK-NEXT: %[[VB:.*]] = vector.load %{{.*}}[%{{.*}}, %[[K]]] {alignment = 16 : i64} : memref<64x256xf32>, vector<4xf32>
// CHECK-COUNT-4: vector.extract %[[VB]]
// CHECK-COUNT-3: memref.load %{{.*}} : memref<64x256xf32>
// CHECK-NOT: vector.load
// CHECK: scf.yield
