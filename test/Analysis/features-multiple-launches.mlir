// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: autoprof-opt %s --autoprof-extract-features -verify-diagnostics -o /dev/null

// Several kernels launched from one host function each take the geometry of
// their own launch. A kernel launched more than once is described by its
// first launch (geometry and host-constant loop bounds), with a warning on
// the later launch when its grid or block size differs; identical launches
// do not warn (the -verify-diagnostics RUN fails on any unexpected warning).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Launched with 16 x 256 threads: total_threads = 4096; one 4-byte
    // store per thread: global_bytes_total = 4 * 4096 = 16384.
    // CHECK-LABEL: gpu.func @producer
    // CHECK-SAME: block_threads = 256 : i64, block_x = 256 : i64
    // CHECK-SAME: global_bytes_per_thread = 4 : i64, global_bytes_total = 16384 : i64
    // CHECK-SAME: grid_blocks = 16 : i64, grid_x = 16 : i64
    // CHECK-SAME: total_threads = 4096 : i64
    gpu.func @producer(%x: memref<4096xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %one = arith.constant 1.000000e+00 : f32
      memref.store %one, %x[%i] : memref<4096xf32>
      gpu.return
    }

    // Launched from the same host function with 32 x 128 threads:
    // total_threads = 4096; a 4-byte load and an 8-byte store per thread:
    // global_bytes_total = 12 * 4096 = 49152.
    // CHECK-LABEL: gpu.func @consumer
    // CHECK-SAME: block_threads = 128 : i64, block_x = 128 : i64
    // CHECK-SAME: global_bytes_per_thread = 12 : i64, global_bytes_total = 49152 : i64
    // CHECK-SAME: grid_blocks = 32 : i64, grid_x = 32 : i64
    // CHECK-SAME: total_threads = 4096 : i64
    gpu.func @consumer(%x: memref<4096xf32>, %y: memref<4096xf64>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4096xf32>
      %w = arith.extf %v : f32 to f64
      memref.store %w, %y[%i] : memref<4096xf64>
      gpu.return
    }

    // First launch: 8 x 128 threads with %n = 4; second launch: 16 x 64
    // threads with %n = 16. The features describe the first launch:
    //   trips = 4: global_loads = 4 (16 bytes), flops = 4, branches = 4
    //   global_bytes_per_thread = 16 + 4 (store) = 20
    //   total_threads = 1024; global_bytes_total = 20480; flops_total = 4096
    // CHECK-LABEL: gpu.func @launched_twice
    // CHECK-SAME: block_threads = 128 : i64, block_x = 128 : i64
    // CHECK-SAME: , branches = 4 : i64
    // CHECK-SAME: flops = 4 : i64
    // CHECK-SAME: flops_total = 4096 : i64
    // CHECK-SAME: global_bytes_per_thread = 20 : i64, global_bytes_total = 20480 : i64
    // CHECK-SAME: global_loads = 4 : i64
    // CHECK-SAME: grid_blocks = 8 : i64, grid_x = 8 : i64
    // CHECK-SAME: total_threads = 1024 : i64
    // CHECK-SAME: unknown_trip_loops = 0 : i64
    gpu.func @launched_twice(%x: memref<4096xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %acc0 = arith.constant 0.000000e+00 : f32
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (f32) {
        %v = memref.load %x[%k] : memref<4096xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %sum, %x[%tid] : memref<4096xf32>
      gpu.return
    }

    // Launched twice with the same configuration: no warning.
    // CHECK-LABEL: gpu.func @same_launch_twice
    // CHECK-SAME: block_threads = 256 : i64
    // CHECK-SAME: grid_blocks = 16 : i64
    // CHECK-SAME: total_threads = 4096 : i64
    gpu.func @same_launch_twice(%x: memref<4096xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<4096xf32>
      memref.store %v, %x[%tid] : memref<4096xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<4096xf32>, %y: memref<4096xf64>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@producer blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4096xf32>)
    gpu.launch_func @kernels::@consumer blocks in (%c32, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<4096xf32>, %y : memref<4096xf64>)
    gpu.launch_func @kernels::@launched_twice blocks in (%c8, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<4096xf32>, %c4 : index)
    // expected-warning @below {{kernel @launched_twice is launched with several configurations; its features describe the first launch}}
    gpu.launch_func @kernels::@launched_twice blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<4096xf32>, %c16 : index)
    gpu.launch_func @kernels::@same_launch_twice blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4096xf32>)
    gpu.launch_func @kernels::@same_launch_twice blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4096xf32>)
    return
  }
}
