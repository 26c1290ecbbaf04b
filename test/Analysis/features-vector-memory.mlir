// RUN: autoprof-opt %s --autoprof-extract-features=normalize=false | FileCheck %s

// Vector memory accesses: vector.load / vector.store count as one access of
// the whole vector's bytes; max_vector_bits is the widest vector access in any
// memory space; arithmetic and conversions on vectors count one per lane.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // By hand:
    //   loads:  vector<4xf32> (16 B) + vector<8xf16> (16 B) + vector<2xf16>
    //           (4 B): global_loads = 3, global_load_bytes = 36
    //   stores: the same three types: global_stores = 3, bytes = 36
    //   max_vector_bits = 128 (vector<4xf32> and vector<8xf16>; the 32-bit
    //   vector<2xf16> does not lower it)
    //   flops_f32 = 4 (mulf) + 4 * 2 (math.fma)                     = 12
    //   flops_f16 = 8 (addf) + 8 * 2 (math.fma)                     = 24
    //   flops = 36; arith_intensity = 36 / 72 = 0.5
    //   conversions = 8 (one extf of 8 lanes); int_ops = 2 (muli)
    // CHECK-LABEL: gpu.func @vector_global
    // CHECK-SAME: arith_intensity = 5.000000e-01 : f64
    // CHECK-SAME: conversions = 8 : i64
    // CHECK-SAME: flops = 36 : i64
    // CHECK-SAME: flops_f16 = 24 : i64, flops_f32 = 12 : i64
    // CHECK-SAME: global_bytes_per_thread = 72 : i64
    // CHECK-SAME: global_load_bytes = 36 : i64, global_loads = 3 : i64
    // CHECK-SAME: global_store_bytes = 36 : i64, global_stores = 3 : i64
    // CHECK-SAME: int_ops = 2 : i64
    // CHECK-SAME: max_vector_bits = 128 : i64
    gpu.func @vector_global(%x: memref<1024xf32>, %h: memref<2048xf16>,
                            %out: memref<1024xf32>, %hout: memref<2048xf16>) kernel {
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %i4 = arith.muli %tid, %c4 : index
      %i8 = arith.muli %tid, %c8 : index
      %xv = vector.load %x[%i4] : memref<1024xf32>, vector<4xf32>
      %hv = vector.load %h[%i8] : memref<2048xf16>, vector<8xf16>
      %pv = vector.load %h[%i8] : memref<2048xf16>, vector<2xf16>
      %m = arith.mulf %xv, %xv : vector<4xf32>
      %f = math.fma %m, %xv, %xv : vector<4xf32>
      %a = arith.addf %hv, %hv : vector<8xf16>
      %g = math.fma %a, %hv, %hv : vector<8xf16>
      %e = arith.extf %g : vector<8xf16> to vector<8xf32>
      vector.store %f, %out[%i4] : memref<1024xf32>, vector<4xf32>
      vector.store %g, %hout[%i8] : memref<2048xf16>, vector<8xf16>
      vector.store %pv, %hout[%i4] : memref<2048xf16>, vector<2xf16>
      gpu.return
    }

    // By hand: the widest access is the vector<8xf32> shared load/store:
    // max_vector_bits = 256 although it moves no global bytes. Global bytes
    // come only from the vector<4xf32> load: 16. flops_f32 = 8 (addf on 8
    // lanes); arith_intensity = 8 / 16 = 0.5.
    // shared_loads = 1, shared_stores = 2.
    // CHECK-LABEL: gpu.func @vector_shared_wide
    // CHECK-SAME: arith_intensity = 5.000000e-01 : f64
    // CHECK-SAME: flops_f32 = 8 : i64
    // CHECK-SAME: global_bytes_per_thread = 16 : i64
    // CHECK-SAME: global_load_bytes = 16 : i64, global_loads = 1 : i64
    // CHECK-SAME: global_store_bytes = 0 : i64, global_stores = 0 : i64
    // CHECK-SAME: max_vector_bits = 256 : i64
    // CHECK-SAME: shared_loads = 1 : i64, shared_stores = 2 : i64
    gpu.func @vector_shared_wide(%x: memref<1024xf32>)
        workgroup(%s : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c4 : index
      %v = vector.load %x[%i] : memref<1024xf32>, vector<4xf32>
      vector.store %v, %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %w = vector.load %s[%c0] : memref<256xf32, #gpu.address_space<workgroup>>, vector<8xf32>
      %sum = arith.addf %w, %w : vector<8xf32>
      vector.store %sum, %s[%c0] : memref<256xf32, #gpu.address_space<workgroup>>, vector<8xf32>
      gpu.return
    }

    // Scalar accesses only: max_vector_bits = 0. One 4-byte load and store,
    // one flop: arith_intensity = 1 / 8 = 0.125.
    // CHECK-LABEL: gpu.func @scalar_only
    // CHECK-SAME: arith_intensity = 1.250000e-01 : f64
    // CHECK-SAME: global_load_bytes = 4 : i64
    // CHECK-SAME: global_store_bytes = 4 : i64
    // CHECK-SAME: max_vector_bits = 0 : i64
    gpu.func @scalar_only(%x: memref<1024xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<1024xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %x[%tid] : memref<1024xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<1024xf32>, %h: memref<2048xf16>, %o: memref<1024xf32>, %ho: memref<2048xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@vector_global blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>, %h : memref<2048xf16>, %o : memref<1024xf32>, %ho : memref<2048xf16>)
    gpu.launch_func @kernels::@vector_shared_wide blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<1024xf32>)
    gpu.launch_func @kernels::@scalar_only blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>)
    return
  }
}
