// RUN: autoprof-opt %s --autoprof-extract-features=normalize=false | FileCheck %s

// Divergence: a branch or loop exit is divergent when its condition (or loop
// bounds) depends on the thread id, lane id or global id, directly or through
// values computed from them (including scf.if results and loop-carried
// values). Branches on block ids, kernel arguments or data loaded at
// block-uniform addresses are uniform. Both sides of a branch are counted.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // By hand (%lt = tid < 32 is thread dependent):
    //   scf.if %lt with else:     1 branch, divergent; stores 1 + 2 = 3
    //                             (both sides counted)
    //   scf.if %lt -> (index):    1 branch, divergent
    //   scf.if %odd:              1 branch, divergent: %odd is computed from
    //                             the previous scf.if's result; 1 store
    //   scf.for 0..3 (uniform):   3 branches, not divergent
    //     scf.if %lt:             3 branches, divergent; 3 stores
    //   branches = 1 + 1 + 1 + 3 + 3 = 9; divergent_branches = 1 + 1 + 1 + 3 = 6
    //   global_stores = 3 + 1 + 3 = 7; int_ops = 2 (two cmpi)
    // CHECK-LABEL: gpu.func @thread_id_branches
    // CHECK-SAME: , branches = 9 : i64
    // CHECK-SAME: divergent_branches = 6 : i64
    // CHECK-SAME: global_stores = 7 : i64
    // CHECK-SAME: int_ops = 2 : i64
    // CHECK-SAME: loop_depth = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 0 : i64
    gpu.func @thread_id_branches(%out: memref<256xf32>, %out2: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c32 = arith.constant 32 : index
      %one = arith.constant 1.000000e+00 : f32
      %two = arith.constant 2.000000e+00 : f32
      %tid = gpu.thread_id x
      %lt = arith.cmpi ult, %tid, %c32 : index
      scf.if %lt {
        memref.store %one, %out[%tid] : memref<256xf32>
      } else {
        memref.store %two, %out[%tid] : memref<256xf32>
        memref.store %two, %out2[%tid] : memref<256xf32>
      }
      %sel = scf.if %lt -> (index) {
        scf.yield %c1 : index
      } else {
        scf.yield %c2 : index
      }
      %odd = arith.cmpi eq, %sel, %c1 : index
      scf.if %odd {
        memref.store %one, %out[%c0] : memref<256xf32>
      }
      scf.for %i = %c0 to %c3 step %c1 {
        scf.if %lt {
          memref.store %one, %out2[%i] : memref<256xf32>
        }
      }
      gpu.return
    }

    // By hand: scf.if on gpu.global_id and cf.cond_br on gpu.lane_id are both
    // divergent: branches = 2, divergent_branches = 2. The cf-based kernel
    // body is counted block by block: global_stores = 2.
    // CHECK-LABEL: gpu.func @global_id_and_lane_branches
    // CHECK-SAME: , branches = 2 : i64
    // CHECK-SAME: divergent_branches = 2 : i64
    // CHECK-SAME: global_stores = 2 : i64
    gpu.func @global_id_and_lane_branches(%out: memref<4096xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %one = arith.constant 1.000000e+00 : f32
      %gid = gpu.global_id x
      %inb = arith.cmpi ult, %gid, %c100 : index
      scf.if %inb {
        memref.store %one, %out[%gid] : memref<4096xf32>
      }
      %lane = gpu.lane_id
      %low = arith.cmpi ult, %lane, %c16 : index
      cf.cond_br %low, ^bb1, ^bb2
    ^bb1:
      memref.store %one, %out[%c0] : memref<4096xf32>
      cf.br ^bb2
    ^bb2:
      gpu.return
    }

    // By hand: three uniform branches, none divergent although the kernel
    // uses the thread id for its addresses:
    //   on the block id, on a kernel argument, and on a value loaded from a
    //   block-uniform address (%flags[%bid]).
    //   branches = 3, divergent_branches = 0; global_loads = 1,
    //   global_stores = 3 (one per branch); int_ops = 3 (cmpi)
    // CHECK-LABEL: gpu.func @uniform_branches
    // CHECK-SAME: , branches = 3 : i64
    // CHECK-SAME: divergent_branches = 0 : i64
    // CHECK-SAME: global_loads = 1 : i64
    // CHECK-SAME: global_stores = 3 : i64
    // CHECK-SAME: int_ops = 3 : i64
    gpu.func @uniform_branches(%out: memref<256xf32>, %flags: memref<64xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1.000000e+00 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %first = arith.cmpi eq, %bid, %c0 : index
      scf.if %first {
        memref.store %one, %out[%tid] : memref<256xf32>
      }
      %pos = arith.cmpi sgt, %n, %c0 : index
      scf.if %pos {
        memref.store %one, %out[%tid] : memref<256xf32>
      }
      %flag = memref.load %flags[%bid] : memref<64xi32>
      %set = arith.cmpi ne, %flag, %zero : i32
      scf.if %set {
        memref.store %one, %out[%tid] : memref<256xf32>
      }
      gpu.return
    }

    // By hand: a linked-list walk starting at the thread's own entry
    // (%next[%tid]): the scf.while exit depends on per-thread data, so it is
    // divergent. Unknown trip count: the loop weighs 1.
    //   branches = 1, divergent_branches = 1, unknown_trip_loops = 1,
    //   loop_depth = 1; global_loads = 1 + 1 (before the loop, in the
    //   body); global_stores = 1; int_ops = 1 (cmpi); conversions = 1
    // CHECK-LABEL: gpu.func @while_per_thread_data
    // CHECK-SAME: , branches = 1 : i64
    // CHECK-SAME: conversions = 1 : i64
    // CHECK-SAME: divergent_branches = 1 : i64
    // CHECK-SAME: global_loads = 2 : i64
    // CHECK-SAME: global_stores = 1 : i64
    // CHECK-SAME: int_ops = 1 : i64
    // CHECK-SAME: loop_depth = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 1 : i64
    gpu.func @while_per_thread_data(%next: memref<256xi32>, %out: memref<256xi32>) kernel {
      %c0_i32 = arith.constant 0 : i32
      %tid = gpu.thread_id x
      %start = memref.load %next[%tid] : memref<256xi32>
      %end = scf.while (%p = %start) : (i32) -> i32 {
        %more = arith.cmpi sge, %p, %c0_i32 : i32
        scf.condition(%more) %p : i32
      } do {
      ^bb0(%q: i32):
        %qi = arith.index_cast %q : i32 to index
        %n = memref.load %next[%qi] : memref<256xi32>
        scf.yield %n : i32
      }
      memref.store %end, %out[%tid] : memref<256xi32>
      gpu.return
    }

    // By hand: the same walk started at the block's entry (%next[%bid]): the
    // exit is data dependent (unknown trip count) but the same for all the
    // threads of a block, so it is not divergent.
    //   branches = 1, divergent_branches = 0, unknown_trip_loops = 1
    // CHECK-LABEL: gpu.func @while_block_uniform_data
    // CHECK-SAME: , branches = 1 : i64
    // CHECK-SAME: divergent_branches = 0 : i64
    // CHECK-SAME: global_loads = 2 : i64
    // CHECK-SAME: loop_depth = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 1 : i64
    gpu.func @while_block_uniform_data(%next: memref<256xi32>, %out: memref<256xi32>) kernel {
      %c0_i32 = arith.constant 0 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %start = memref.load %next[%bid] : memref<256xi32>
      %end = scf.while (%p = %start) : (i32) -> i32 {
        %more = arith.cmpi sge, %p, %c0_i32 : i32
        scf.condition(%more) %p : i32
      } do {
      ^bb0(%q: i32):
        %qi = arith.index_cast %q : i32 to index
        %n = memref.load %next[%qi] : memref<256xi32>
        scf.yield %n : i32
      }
      memref.store %end, %out[%tid] : memref<256xi32>
      gpu.return
    }
  }

  func.func @main(%a: memref<256xf32>, %b: memref<256xf32>, %big: memref<4096xf32>,
                  %f: memref<64xi32>, %next: memref<256xi32>, %o: memref<256xi32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@thread_id_branches blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>)
    gpu.launch_func @kernels::@global_id_and_lane_branches blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%big : memref<4096xf32>)
    gpu.launch_func @kernels::@uniform_branches blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>, %f : memref<64xi32>, %c8 : index)
    gpu.launch_func @kernels::@while_per_thread_data blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%next : memref<256xi32>, %o : memref<256xi32>)
    gpu.launch_func @kernels::@while_block_uniform_data blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%next : memref<256xi32>, %o : memref<256xi32>)
    return
  }
}
