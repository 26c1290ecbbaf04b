// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: stencil
// One Jacobi sweep of a 5-point stencil on an 8192 x 4096 f32 grid: interior out = 0.2*(c+n+s+w+e),
// boundary cells copied; grid (128, 1024) x block (32, 8), thread x walks columns.
// Slow as written: 5 global loads per point with no shared-memory/register reuse, branchy boundary test.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @jacobi_5pt(%in: memref<8192x4096xf32>, %out: memref<8192x4096xf32>, %nrows: index, %ncols: index, %w: f32) kernel {
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %j0 = arith.muli %bx, %dx : index
      %j = arith.addi %j0, %tx : index
      %i0 = arith.muli %by, %dy : index
      %i = arith.addi %i0, %ty : index
      %iok = arith.cmpi ult, %i, %nrows : index
      %jok = arith.cmpi ult, %j, %ncols : index
      %ok = arith.andi %iok, %jok : i1
      scf.if %ok {
        %rlast = arith.subi %nrows, %c1 : index
        %clast = arith.subi %ncols, %c1 : index
        %i_lo = arith.cmpi uge, %i, %c1 : index
        %i_hi = arith.cmpi ult, %i, %rlast : index
        %j_lo = arith.cmpi uge, %j, %c1 : index
        %j_hi = arith.cmpi ult, %j, %clast : index
        %a = arith.andi %i_lo, %i_hi : i1
        %b = arith.andi %j_lo, %j_hi : i1
        %interior = arith.andi %a, %b : i1
        scf.if %interior {
          %im = arith.subi %i, %c1 : index
          %ip = arith.addi %i, %c1 : index
          %jm = arith.subi %j, %c1 : index
          %jp = arith.addi %j, %c1 : index
          %vc = memref.load %in[%i, %j] : memref<8192x4096xf32>
          %vn = memref.load %in[%im, %j] : memref<8192x4096xf32>
          %vs = memref.load %in[%ip, %j] : memref<8192x4096xf32>
          %vw = memref.load %in[%i, %jm] : memref<8192x4096xf32>
          %ve = memref.load %in[%i, %jp] : memref<8192x4096xf32>
          %s1 = arith.addf %vc, %vn : f32
          %s2 = arith.addf %s1, %vs : f32
          %s3 = arith.addf %s2, %vw : f32
          %s4 = arith.addf %s3, %ve : f32
          %r = arith.mulf %s4, %w : f32
          memref.store %r, %out[%i, %j] : memref<8192x4096xf32>
        } else {
          %v = memref.load %in[%i, %j] : memref<8192x4096xf32>
          memref.store %v, %out[%i, %j] : memref<8192x4096xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 1024 : index
    %nrows = arith.constant 8192 : index
    %ncols = arith.constant 4096 : index
    %w = arith.constant 2.000000e-01 : f32
    %in = gpu.alloc () : memref<8192x4096xf32>
    %out = gpu.alloc () : memref<8192x4096xf32>
    gpu.launch_func @kernels::@jacobi_5pt blocks in (%gx, %gy, %c1) threads in (%c32, %c8, %c1) args(%in : memref<8192x4096xf32>, %out : memref<8192x4096xf32>, %nrows : index, %ncols : index, %w : f32)
    return
  }
}

// CHECK-LABEL: gpu.func @jacobi_5pt
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 2 : i64
// CHECK-SAME: flops = 5 : i64
// CHECK-SAME: global_bytes_per_thread = 32 : i64
// CHECK-SAME: global_loads = 6 : i64
// CHECK-SAME: global_stores = 2 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
