// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: elementwise
// f64 polynomial evaluation y[i] = sum_{j<=12} c[j] * x[i]^j by Horner's rule over 16M f64 (16777216);
// coefficients in a 13-entry global buffer, grid 65536 x block 256.
// Slow as written: the degree is a runtime loop bound, so each coefficient is re-loaded from global per element.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @horner_f64(%x: memref<16777216xf64>, %coef: memref<13xf64>, %y: memref<16777216xf64>, %n: index, %deg: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %xv = memref.load %x[%i] : memref<16777216xf64>
        %top = memref.load %coef[%deg] : memref<13xf64>
        %r = scf.for %k = %c0 to %deg step %c1 iter_args(%acc = %top) -> (f64) {
          %d1 = arith.subi %deg, %c1 : index
          %j = arith.subi %d1, %k : index
          %cj = memref.load %coef[%j] : memref<13xf64>
          %m = arith.mulf %acc, %xv : f64
          %a = arith.addf %m, %cj : f64
          scf.yield %a : f64
        }
        memref.store %r, %y[%i] : memref<16777216xf64>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 65536 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 16777216 : index
    %deg = arith.constant 12 : index
    %x = memref.alloc() : memref<16777216xf64>
    %coef = memref.alloc() : memref<13xf64>
    %y = memref.alloc() : memref<16777216xf64>
    gpu.launch_func @kernels::@horner_f64 blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<16777216xf64>, %coef : memref<13xf64>, %y : memref<16777216xf64>, %n : index, %deg : index)
    return
  }
}

// CHECK-LABEL: gpu.func @horner_f64
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 24 : i64
// CHECK-SAME: global_bytes_per_thread = 120 : i64
// CHECK-SAME: global_loads = 14 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
