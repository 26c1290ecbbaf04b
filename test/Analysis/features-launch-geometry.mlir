// RUN: autoprof-opt %s --autoprof-extract-features=normalize=false | FileCheck %s

// Launch geometry: grid and block sizes, dynamic shared memory and the
// launch-wide totals come from the host gpu.launch_func; arg_bytes follows the
// bare-pointer ABI (a memref is one 8-byte pointer). A kernel that is never
// launched has no launch-dependent features.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // By hand (launch grid (4, 3, 2), block (8, 4, 2), 2048 bytes of dynamic
    // shared memory):
    //   arg_bytes = 8 (memref) + 8 (index) + 4 (f32) + 1 (i8)       = 21
    //   grid_blocks = 4 * 3 * 2 = 24; block_threads = 8 * 4 * 2 = 64
    //   total_threads = 24 * 64 = 1536
    //   per thread: 4-byte load + 4-byte store = 8 bytes, 2 flops (mulf)
    //   arith_intensity = 2 / 8 = 0.25
    //   global_bytes_total = 8 * 1536 = 12288; flops_total = 2 * 1536 = 3072
    // CHECK-LABEL: gpu.func @geometry_3d
    // CHECK-SAME: arg_bytes = 21 : i64
    // CHECK-SAME: arith_intensity = 2.500000e-01 : f64
    // CHECK-SAME: block_threads = 64 : i64, block_x = 8 : i64, block_y = 4 : i64, block_z = 2 : i64
    // CHECK-SAME: dynamic_shared_bytes = 2048 : i64
    // CHECK-SAME: flops = 2 : i64
    // CHECK-SAME: flops_total = 3072 : i64
    // CHECK-SAME: global_bytes_per_thread = 8 : i64, global_bytes_total = 12288 : i64
    // CHECK-SAME: grid_blocks = 24 : i64, grid_x = 4 : i64, grid_y = 3 : i64, grid_z = 2 : i64
    // CHECK-SAME: static_shared_bytes = 0 : i64
    // CHECK-SAME: total_threads = 1536 : i64
    gpu.func @geometry_3d(%buf: memref<4x8x16xf32>, %n: index, %alpha: f32, %flag: i8) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %v = memref.load %buf[%tz, %ty, %tx] : memref<4x8x16xf32>
      %s = arith.mulf %v, %alpha : f32
      %t = arith.mulf %s, %alpha : f32
      memref.store %t, %buf[%tz, %ty, %tx] : memref<4x8x16xf32>
      gpu.return
    }

    // Never launched: the grid, block, dynamic shared memory and launch-wide
    // totals are absent, while per-thread features are still computed. The
    // loop bound %n has no launch to fold it from, so the trip count is
    // unknown and the body weighs 1.
    //   arg_bytes = 8 + 8 = 16; branches = 1; unknown_trip_loops = 1
    //   global_bytes_per_thread = 8; flops = 1; arith_intensity = 0.125
    // CHECK-LABEL: gpu.func @never_launched
    // CHECK-SAME: autoprof.features = {arg_bytes = 16 : i64, arith_intensity = 1.250000e-01 : f64
    // CHECK-NOT: block_
    // CHECK-NOT: dynamic_shared_bytes
    // CHECK-NOT: flops_total
    // CHECK-NOT: global_bytes_total
    // CHECK-NOT: grid_
    // CHECK-NOT: total_threads
    // CHECK-SAME: , branches = 1 : i64
    // CHECK-SAME: flops = 1 : i64
    // CHECK-SAME: global_bytes_per_thread = 8 : i64
    // CHECK-SAME: unknown_trip_loops = 1 : i64, warp_shuffles = 0 : i64}
    gpu.func @never_launched(%buf: memref<16xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        %v = memref.load %buf[%i] : memref<16xf32>
        %s = arith.addf %v, %v : f32
        memref.store %s, %buf[%i] : memref<16xf32>
      }
      gpu.return
    }
  }

  func.func @main(%buf: memref<4x8x16xf32>) {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %alpha = arith.constant 5.000000e-01 : f32
    %flag = arith.constant 1 : i8
    %smem = arith.constant 2048 : i32
    gpu.launch_func @kernels::@geometry_3d blocks in (%c4, %c3, %c2) threads in (%c8, %c4, %c2) dynamic_shared_memory_size %smem args(%buf : memref<4x8x16xf32>, %c16 : index, %alpha : f32, %flag : i8)
    return
  }
}
