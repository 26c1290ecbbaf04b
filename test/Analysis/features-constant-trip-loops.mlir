// RUN: autoprof-opt %s --autoprof-extract-features=normalize=false | FileCheck %s

// Loops: per-thread counts are weighted by constant trip counts
// (ceil((ub - lb) / step)), including bounds that are kernel arguments fed by
// host constants at the launch; every loop counts one exit branch per
// iteration; loops with a non-constant trip count weigh 1 and are counted in
// unknown_trip_loops, and are divergent when their bounds depend on the
// thread id.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // By hand: trips %i = 4, %j = ceil(8/2) = 4, %k = ceil((4-1)/2) = 2, so
    // the three bodies weigh 4, 16 and 32.
    //   global_loads = 4 (4 bytes each: 16 bytes), global_stores = 1 (4 bytes)
    //   flops_f32 = 16 (mulf) + 16 (addf) + 32 (addf)                = 64
    //   branches = 4 + 16 + 32                                       = 52
    //   arith_intensity = 64 / (16 + 4)                              = 3.2
    //   loop_depth = 3; no unknown trip count; the bounds and the values
    //   carried by the loops are uniform, so divergent_branches = 0.
    // CHECK-LABEL: gpu.func @nested_constant_loops
    // CHECK-SAME: arith_intensity = 3.200000e+00 : f64
    // CHECK-SAME: , branches = 52 : i64
    // CHECK-SAME: divergent_branches = 0 : i64
    // CHECK-SAME: flops = 64 : i64
    // CHECK-SAME: flops_f32 = 64 : i64
    // CHECK-SAME: global_load_bytes = 16 : i64, global_loads = 4 : i64
    // CHECK-SAME: global_store_bytes = 4 : i64, global_stores = 1 : i64
    // CHECK-SAME: loop_depth = 3 : i64
    // CHECK-SAME: unknown_trip_loops = 0 : i64
    gpu.func @nested_constant_loops(%A: memref<64xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.000000e+00 : f32
      %tid = gpu.thread_id x
      %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
        %a = memref.load %A[%i] : memref<64xf32>
        %inner = scf.for %j = %c0 to %c8 step %c2 iter_args(%acc2 = %acc) -> (f32) {
          %p = arith.mulf %a, %a : f32
          %s = arith.addf %acc2, %p : f32
          %deep = scf.for %k = %c1 to %c4 step %c2 iter_args(%acc3 = %s) -> (f32) {
            %t = arith.addf %acc3, %a : f32
            scf.yield %t : f32
          }
          scf.yield %deep : f32
        }
        scf.yield %inner : f32
      }
      memref.store %sum, %out[%tid] : memref<256xf32>
      gpu.return
    }

    // The host passes %n = 8 (index) and %m = 3 (i32); the analysis folds
    // them through arith.muli and arith.index_cast: trips %i = 8 * 2 = 16 and
    // %j = 3, so the bodies weigh 16 and 48.
    //   global_loads = 16 (64 bytes), global_stores = 48 (192 bytes)
    //   flops_f32 = 48; arith_intensity = 48 / 256 = 0.1875
    //   branches = 16 + 48 = 64; loop_depth = 2; unknown_trip_loops = 0
    //   int_ops = 1 (muli), conversions = 1 (index_cast), both outside loops
    // CHECK-LABEL: gpu.func @host_constant_bounds
    // CHECK-SAME: arith_intensity = 1.875000e-01 : f64
    // CHECK-SAME: , branches = 64 : i64
    // CHECK-SAME: conversions = 1 : i64
    // CHECK-SAME: divergent_branches = 0 : i64
    // CHECK-SAME: flops = 48 : i64
    // CHECK-SAME: global_load_bytes = 64 : i64, global_loads = 16 : i64
    // CHECK-SAME: global_store_bytes = 192 : i64, global_stores = 48 : i64
    // CHECK-SAME: int_ops = 1 : i64
    // CHECK-SAME: loop_depth = 2 : i64
    // CHECK-SAME: unknown_trip_loops = 0 : i64
    gpu.func @host_constant_bounds(%A: memref<256xf32>, %out: memref<256xf32>, %n: index, %m: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %mi = arith.index_cast %m : i32 to index
      %n2 = arith.muli %n, %c2 : index
      scf.for %i = %c0 to %n2 step %c1 {
        %x = memref.load %A[%i] : memref<256xf32>
        scf.for %j = %c0 to %mi step %c1 {
          %y = arith.mulf %x, %x : f32
          memref.store %y, %out[%j] : memref<256xf32>
        }
      }
      gpu.return
    }

    // The bound is a kernel argument that the host does not know statically:
    // unknown trip count, body weighed once (1 store, 1 branch), but uniform,
    // so not divergent.
    // CHECK-LABEL: gpu.func @runtime_bound
    // CHECK-SAME: , branches = 1 : i64
    // CHECK-SAME: divergent_branches = 0 : i64
    // CHECK-SAME: global_stores = 1 : i64
    // CHECK-SAME: loop_depth = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 1 : i64
    gpu.func @runtime_bound(%out: memref<256xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.000000e+00 : f32
      scf.for %i = %c0 to %n step %c1 {
        memref.store %one, %out[%i] : memref<256xf32>
      }
      gpu.return
    }

    // The inner loop starts at the thread id: its trip count is unknown
    // (unknown_trip_loops = 1, counted once per loop, not per trip) and its
    // exit test is divergent. It runs inside a 2-trip loop, so it weighs 2:
    //   branches = 2 (outer) + 2 (inner) = 4; divergent_branches = 2
    //   global_stores = 2; loop_depth = 2
    // CHECK-LABEL: gpu.func @thread_dependent_lower_bound
    // CHECK-SAME: , branches = 4 : i64
    // CHECK-SAME: divergent_branches = 2 : i64
    // CHECK-SAME: global_stores = 2 : i64
    // CHECK-SAME: loop_depth = 2 : i64
    // CHECK-SAME: unknown_trip_loops = 1 : i64
    gpu.func @thread_dependent_lower_bound(%out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %one = arith.constant 1.000000e+00 : f32
      %tid = gpu.thread_id x
      scf.for %r = %c0 to %c2 step %c1 {
        scf.for %i = %tid to %c256 step %c32 {
          memref.store %one, %out[%i] : memref<256xf32>
        }
      }
      gpu.return
    }

    // A constant zero-trip loop (lb == ub) weighs 0: its body and exit test
    // are not counted, but it still makes the loop nest one deep. With no
    // global bytes, arith_intensity is absent.
    // CHECK-LABEL: gpu.func @zero_trip
    // CHECK-NOT: arith_intensity
    // CHECK-SAME: , branches = 0 : i64
    // CHECK-SAME: global_stores = 0 : i64
    // CHECK-SAME: loop_depth = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 0 : i64
    gpu.func @zero_trip(%out: memref<256xf32>) kernel {
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1.000000e+00 : f32
      scf.for %i = %c4 to %c4 step %c1 {
        memref.store %one, %out[%i] : memref<256xf32>
      }
      gpu.return
    }

    // affine.for 0 to 8 weighs 8 (8 affine.load + 8 affine.store); the 2-D
    // scf.parallel weighs 4 * 2 = 8 (8 memref.load). Both are one level deep
    // and count one branch per iteration: branches = 16.
    //   global_loads = 16 (64 bytes), global_stores = 8 (32 bytes)
    // CHECK-LABEL: gpu.func @affine_and_parallel_loops
    // CHECK-SAME: , branches = 16 : i64
    // CHECK-SAME: global_load_bytes = 64 : i64, global_loads = 16 : i64
    // CHECK-SAME: global_store_bytes = 32 : i64, global_stores = 8 : i64
    // CHECK-SAME: loop_depth = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 0 : i64
    gpu.func @affine_and_parallel_loops(%A: memref<8x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      affine.for %i = 0 to 8 {
        %x = affine.load %A[%i, %i] : memref<8x8xf32>
        affine.store %x, %A[%i, 0] : memref<8x8xf32>
      }
      scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c2) step (%c1, %c1) {
        %y = memref.load %A[%i, %j] : memref<8x8xf32>
        scf.reduce
      }
      gpu.return
    }
  }

  func.func @main(%a: memref<64xf32>, %b: memref<256xf32>, %c: memref<256xf32>,
                  %m: memref<8x8xf32>, %runtime: index) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c3_i32 = arith.constant 3 : i32
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@nested_constant_loops blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<64xf32>, %b : memref<256xf32>)
    gpu.launch_func @kernels::@host_constant_bounds blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%b : memref<256xf32>, %c : memref<256xf32>, %c8 : index, %c3_i32 : i32)
    gpu.launch_func @kernels::@runtime_bound blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%b : memref<256xf32>, %runtime : index)
    gpu.launch_func @kernels::@thread_dependent_lower_bound blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%b : memref<256xf32>)
    gpu.launch_func @kernels::@zero_trip blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%b : memref<256xf32>)
    gpu.launch_func @kernels::@affine_and_parallel_loops blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%m : memref<8x8xf32>)
    return
  }
}
