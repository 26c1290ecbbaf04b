// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s

// Atomics: every memref.atomic_rmw and memref.generic_atomic_rmw counts as one
// atomic per execution whatever its memory space; only global atomics add
// their element size to the global bytes (and so to arith_intensity); atomics
// are not counted as loads or stores. A floating-point atomic_rmw (addf, ...)
// is also one flop.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // By hand:
    //   atomics = 3: atomic_rmw addf (f32), atomic_rmw maxs (i64) and one
    //   generic_atomic_rmw (f32, an exchange), all on global memory.
    //   global_loads = 1 (4 bytes), global_stores = 0
    //   global_bytes_per_thread = 4 (load) + 4 + 8 + 4 (atomics) = 20
    //   flops = 2 (mulf %v, %v and the atomic addf); arith_intensity =
    //   2 / 20 = 0.1
    //   global_bytes_total = 20 * 4 * 256 = 20480
    // CHECK-LABEL: gpu.func @global_atomics
    // CHECK-SAME: arith_intensity = 1.000000e-01 : f64
    // CHECK-SAME: atomics = 3 : i64
    // CHECK-SAME: flops = 2 : i64
    // CHECK-SAME: global_bytes_per_thread = 20 : i64
    // CHECK-SAME: global_bytes_total = 20480 : i64
    // CHECK-SAME: global_load_bytes = 4 : i64, global_loads = 1 : i64
    // CHECK-SAME: global_store_bytes = 0 : i64, global_stores = 0 : i64
    // CHECK-SAME: shared_loads = 0 : i64, shared_stores = 0 : i64
    gpu.func @global_atomics(%x: memref<1024xf32>, %sum: memref<1xf32>, %cnt: memref<4xi64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : i64
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<1024xf32>
      %sq = arith.mulf %v, %v : f32
      %o1 = memref.atomic_rmw addf %sq, %sum[%c0] : (f32, memref<1xf32>) -> f32
      %o2 = memref.atomic_rmw maxs %c7, %cnt[%c1] : (i64, memref<4xi64>) -> i64
      %o3 = memref.generic_atomic_rmw %sum[%c0] : memref<1xf32> {
      ^bb0(%cur: f32):
        memref.atomic_yield %v : f32
      }
      gpu.return
    }

    // By hand: the shared-memory atomic runs in a 4-trip loop: atomics = 4.
    // Shared atomics move no global bytes and are not shared loads/stores:
    //   global_bytes_per_thread = 4 (load of %x) + 4 (store to %out) = 8
    //   shared_loads = 1 (%hist[%tid]), shared_stores = 0
    //   static_shared_bytes = 256 * 4 = 1024; barriers = 1
    //   conversions = 1 (index_cast); branches = 4
    // CHECK-LABEL: gpu.func @shared_atomics
    // CHECK-SAME: atomics = 4 : i64
    // CHECK-SAME: barriers = 1 : i64
    // CHECK-SAME: , branches = 4 : i64
    // CHECK-SAME: conversions = 1 : i64
    // CHECK-SAME: global_bytes_per_thread = 8 : i64
    // CHECK-SAME: global_load_bytes = 4 : i64, global_loads = 1 : i64
    // CHECK-SAME: global_store_bytes = 4 : i64, global_stores = 1 : i64
    // CHECK-SAME: shared_loads = 1 : i64, shared_stores = 0 : i64
    // CHECK-SAME: static_shared_bytes = 1024 : i64
    gpu.func @shared_atomics(%x: memref<1024xi32>, %out: memref<256xi32>)
        workgroup(%hist : memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<1024xi32>
      %b = arith.index_cast %v : i32 to index
      scf.for %k = %c0 to %c4 step %c1 {
        %o = memref.atomic_rmw addi %one, %hist[%b] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
      }
      gpu.barrier
      %h = memref.load %hist[%tid] : memref<256xi32, #gpu.address_space<workgroup>>
      memref.store %h, %out[%tid] : memref<256xi32>
      gpu.return
    }
  }

  func.func @main(%x: memref<1024xf32>, %s: memref<1xf32>, %c: memref<4xi64>,
                  %xi: memref<1024xi32>, %o: memref<256xi32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@global_atomics blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>, %s : memref<1xf32>, %c : memref<4xi64>)
    gpu.launch_func @kernels::@shared_atomics blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%xi : memref<1024xi32>, %o : memref<256xi32>)
    return
  }
}
