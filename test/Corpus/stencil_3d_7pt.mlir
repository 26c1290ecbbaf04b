// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: stencil
// One 7-point heat-equation step on a 256^3 f32 grid: interior out = c0*u + c1*(sum of 6 neighbours),
// boundary copied; grid (32, 32, 64) x block (8, 8, 4), mapped like gpu-map-parallel-loops (i -> x, k -> z).
// Slow as written: thread x walks the slowest dimension (256 KB apart), so every load/store is uncoalesced.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @heat_7pt(%in: memref<256x256x256xf32>, %out: memref<256x256x256xf32>, %n: index, %c0f: f32, %c1f: f32) kernel {
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %dz = gpu.block_dim z
      %i0 = arith.muli %bx, %dx : index
      %i = arith.addi %i0, %tx : index
      %j0 = arith.muli %by, %dy : index
      %j = arith.addi %j0, %ty : index
      %k0 = arith.muli %bz, %dz : index
      %k = arith.addi %k0, %tz : index
      %iok = arith.cmpi ult, %i, %n : index
      %jok = arith.cmpi ult, %j, %n : index
      %kok = arith.cmpi ult, %k, %n : index
      %ok0 = arith.andi %iok, %jok : i1
      %ok = arith.andi %ok0, %kok : i1
      scf.if %ok {
        %last = arith.subi %n, %c1 : index
        %i_lo = arith.cmpi uge, %i, %c1 : index
        %i_hi = arith.cmpi ult, %i, %last : index
        %j_lo = arith.cmpi uge, %j, %c1 : index
        %j_hi = arith.cmpi ult, %j, %last : index
        %k_lo = arith.cmpi uge, %k, %c1 : index
        %k_hi = arith.cmpi ult, %k, %last : index
        %a0 = arith.andi %i_lo, %i_hi : i1
        %a1 = arith.andi %j_lo, %j_hi : i1
        %a2 = arith.andi %k_lo, %k_hi : i1
        %a3 = arith.andi %a0, %a1 : i1
        %interior = arith.andi %a3, %a2 : i1
        scf.if %interior {
          %im = arith.subi %i, %c1 : index
          %ip = arith.addi %i, %c1 : index
          %jm = arith.subi %j, %c1 : index
          %jp = arith.addi %j, %c1 : index
          %km = arith.subi %k, %c1 : index
          %kp = arith.addi %k, %c1 : index
          %u = memref.load %in[%i, %j, %k] : memref<256x256x256xf32>
          %v0 = memref.load %in[%im, %j, %k] : memref<256x256x256xf32>
          %v1 = memref.load %in[%ip, %j, %k] : memref<256x256x256xf32>
          %v2 = memref.load %in[%i, %jm, %k] : memref<256x256x256xf32>
          %v3 = memref.load %in[%i, %jp, %k] : memref<256x256x256xf32>
          %v4 = memref.load %in[%i, %j, %km] : memref<256x256x256xf32>
          %v5 = memref.load %in[%i, %j, %kp] : memref<256x256x256xf32>
          %s0 = arith.addf %v0, %v1 : f32
          %s1 = arith.addf %s0, %v2 : f32
          %s2 = arith.addf %s1, %v3 : f32
          %s3 = arith.addf %s2, %v4 : f32
          %s4 = arith.addf %s3, %v5 : f32
          %t0 = arith.mulf %u, %c0f : f32
          %t1 = arith.mulf %s4, %c1f : f32
          %r = arith.addf %t0, %t1 : f32
          memref.store %r, %out[%i, %j, %k] : memref<256x256x256xf32>
        } else {
          %u = memref.load %in[%i, %j, %k] : memref<256x256x256xf32>
          memref.store %u, %out[%i, %j, %k] : memref<256x256x256xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main() {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %gx = arith.constant 32 : index
    %gy = arith.constant 32 : index
    %gz = arith.constant 64 : index
    %n = arith.constant 256 : index
    %c0f = arith.constant 4.000000e-01 : f32
    %c1f = arith.constant 1.000000e-01 : f32
    %in = memref.alloc() : memref<256x256x256xf32>
    %out = memref.alloc() : memref<256x256x256xf32>
    gpu.launch_func @kernels::@heat_7pt blocks in (%gx, %gy, %gz) threads in (%c8, %c8, %c4) args(%in : memref<256x256x256xf32>, %out : memref<256x256x256xf32>, %n : index, %c0f : f32, %c1f : f32)
    return
  }
}

// CHECK-LABEL: gpu.func @heat_7pt
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 2 : i64
// CHECK-SAME: flops = 8 : i64
// CHECK-SAME: global_bytes_per_thread = 40 : i64
// CHECK-SAME: global_loads = 8 : i64
// CHECK-SAME: global_stores = 2 : i64
// CHECK-SAME: loop_depth = 0 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
