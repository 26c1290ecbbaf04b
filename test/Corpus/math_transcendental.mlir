// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: math
// y = exp(-x^2)*sin(x) + log(1+|x|)*cos(x) + tanh(x) + erf(x) + sqrt(|x|) + atan(x) + |x|^1.5 over 25M f32
// (25000000, not a multiple of 256: grid 97657 x block 256 overshoots and is guarded).
// Slow as written: full-precision libdevice-style sin/cos/log/erf/atan/pow sequences, sin and cos computed separately.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transcendental_mix(%x: memref<25000000xf32>, %y: memref<25000000xf32>, %n: index) kernel {
      %one = arith.constant 1.000000e+00 : f32
      %p15 = arith.constant 1.500000e+00 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %v = memref.load %x[%i] : memref<25000000xf32>
        %ax = math.absf %v : f32
        %sq = arith.mulf %v, %v : f32
        %nsq = arith.negf %sq : f32
        %g = math.exp %nsq : f32
        %s = math.sin %v : f32
        %t0 = arith.mulf %g, %s : f32
        %l1 = arith.addf %ax, %one : f32
        %l = math.log %l1 : f32
        %c = math.cos %v : f32
        %t1 = arith.mulf %l, %c : f32
        %th = math.tanh %v : f32
        %ef = math.erf %v : f32
        %rt = math.sqrt %ax : f32
        %at = math.atan %v : f32
        %pw = math.powf %ax, %p15 : f32
        %a0 = arith.addf %t0, %t1 : f32
        %a1 = arith.addf %a0, %th : f32
        %a2 = arith.addf %a1, %ef : f32
        %a3 = arith.addf %a2, %rt : f32
        %a4 = arith.addf %a3, %at : f32
        %a5 = arith.addf %a4, %pw : f32
        memref.store %a5, %y[%i] : memref<25000000xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 97657 : index
    %bx = arith.constant 256 : index
    %n = arith.constant 25000000 : index
    %x = gpu.alloc () : memref<25000000xf32>
    %y = gpu.alloc () : memref<25000000xf32>
    gpu.launch_func @kernels::@transcendental_mix blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<25000000xf32>, %y : memref<25000000xf32>, %n : index)
    return
  }
}

// CHECK-LABEL: gpu.func @transcendental_mix
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 12 : i64
// CHECK-SAME: global_bytes_per_thread = 8 : i64
// CHECK-SAME: global_loads = 1 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
