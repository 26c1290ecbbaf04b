// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s

// Mixed precision and special functions: flops are split by element type
// (f64, f32, f16, bf16) with math.fma counted as 2; transcendental math ops
// (exp, sqrt, powf, tanh, ...) are special functions and not flops; other
// math ops (absf, floor) are ordinary flops; arith casts are conversions.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // By hand:
    //   flops_f64  = 2 (math.fma) + 1 (mulf)                        = 3
    //   flops_f16  = 1 (addf) + 2 (math.fma)                        = 3
    //   flops_bf16 = 1 (mulf) + 1 (maximumf)                        = 2
    //   flops_f32  = 3 (addf)                                       = 3
    //   flops = 11
    //   special_functions = 3: math.sqrt (f64), math.exp (f16), math.exp (f32)
    //   conversions = 5: extf f16, extf bf16, truncf f64, fptosi, sitofp
    //   global bytes: loads 8 + 2 + 2 + 4 = 16, store 4: 20 per thread
    //   arith_intensity = 11 / 20 = 0.55; flops_total = 11 * 256 = 2816
    //   int_ops = 0: no integer arithmetic (casts are conversions)
    // CHECK-LABEL: gpu.func @mixed_precision
    // CHECK-SAME: arith_intensity = 5.500000e-01 : f64
    // CHECK-SAME: conversions = 5 : i64
    // CHECK-SAME: flops = 11 : i64
    // CHECK-SAME: flops_bf16 = 2 : i64, flops_f16 = 3 : i64, flops_f32 = 3 : i64, flops_f64 = 3 : i64
    // CHECK-SAME: flops_total = 2816 : i64
    // CHECK-SAME: global_bytes_per_thread = 20 : i64
    // CHECK-SAME: global_load_bytes = 16 : i64
    // CHECK-SAME: global_store_bytes = 4 : i64
    // CHECK-SAME: int_ops = 0 : i64
    // CHECK-SAME: special_functions = 3 : i64
    gpu.func @mixed_precision(%d: memref<256xf64>, %h: memref<256xf16>, %b: memref<256xbf16>,
                              %s: memref<256xf32>, %out: memref<256xf32>) kernel {
      %tid = gpu.thread_id x
      %xd = memref.load %d[%tid] : memref<256xf64>
      %xh = memref.load %h[%tid] : memref<256xf16>
      %xb = memref.load %b[%tid] : memref<256xbf16>
      %xs = memref.load %s[%tid] : memref<256xf32>
      %d1 = math.fma %xd, %xd, %xd : f64
      %d2 = arith.mulf %d1, %xd : f64
      %d3 = math.sqrt %d2 : f64
      %h1 = arith.addf %xh, %xh : f16
      %h2 = math.fma %h1, %h1, %xh : f16
      %h3 = math.exp %h2 : f16
      %b1 = arith.mulf %xb, %xb : bf16
      %b2 = arith.maximumf %b1, %xb : bf16
      %e1 = arith.extf %h3 : f16 to f32
      %e2 = arith.extf %b2 : bf16 to f32
      %e3 = arith.truncf %d3 : f64 to f32
      %i = arith.fptosi %xs : f32 to i32
      %e4 = arith.sitofp %i : i32 to f32
      %s1 = arith.addf %e1, %e2 : f32
      %s2 = arith.addf %s1, %e3 : f32
      %s3 = arith.addf %s2, %e4 : f32
      %s4 = math.exp %s3 : f32
      memref.store %s4, %out[%tid] : memref<256xf32>
      gpu.return
    }

    // By hand:
    //   special_functions = 4 (math.exp on vector<4xf32>, one per lane)
    //                     + 1 (sqrt) + 1 (powf) + 1 (tanh)          = 7
    //   flops_f32 = 2: math.absf and math.floor are ordinary flops
    //   int_ops = 1 (muli); global bytes 16 (vector load) + 4 (store)
    //   arith_intensity = 2 / 20 = 0.1
    // CHECK-LABEL: gpu.func @special_functions
    // CHECK-SAME: arith_intensity = 1.000000e-01 : f64
    // CHECK-SAME: flops = 2 : i64
    // CHECK-SAME: flops_f32 = 2 : i64
    // CHECK-SAME: int_ops = 1 : i64
    // CHECK-SAME: special_functions = 7 : i64
    gpu.func @special_functions(%x: memref<1024xf32>, %out: memref<1024xf32>) kernel {
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c4 : index
      %v = vector.load %x[%i] : memref<1024xf32>, vector<4xf32>
      %ev = math.exp %v : vector<4xf32>
      %s = vector.extract %ev[0] : f32 from vector<4xf32>
      %r = math.sqrt %s : f32
      %p = math.powf %r, %s : f32
      %t = math.tanh %p : f32
      %a = math.absf %t : f32
      %f = math.floor %a : f32
      memref.store %f, %out[%tid] : memref<1024xf32>
      gpu.return
    }
  }

  func.func @main(%d: memref<256xf64>, %h: memref<256xf16>, %b: memref<256xbf16>, %s: memref<256xf32>,
                  %o: memref<256xf32>, %x: memref<1024xf32>, %y: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@mixed_precision blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%d : memref<256xf64>, %h : memref<256xf16>, %b : memref<256xbf16>, %s : memref<256xf32>, %o : memref<256xf32>)
    gpu.launch_func @kernels::@special_functions blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>, %y : memref<1024xf32>)
    return
  }
}
