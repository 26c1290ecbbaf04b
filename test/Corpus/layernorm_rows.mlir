// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: reduction
// LayerNorm over rows of a 16384 x 1024 f32 matrix: y = (x - mean) * rsqrt(var + eps) * gamma + beta;
// one 256-thread block per row (grid 16384 x block 256, blockDim must be 256), two shared-memory tree reductions.
// Slow as written: x is re-read from global in 3 passes, two-pass variance, 16 barriers, no warp shuffles.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @layernorm_rows(%x: memref<16384x1024xf32>, %gamma: memref<1024xf32>, %beta: memref<1024xf32>, %y: memref<16384x1024xf32>, %ncols: index, %ncols_f: f32, %eps: f32)
        workgroup(%sh : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %zero = arith.constant 0.000000e+00 : f32
      %row = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      // mean
      %psum = scf.for %c = %tid to %ncols step %bdim iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %x[%row, %c] : memref<16384x1024xf32>
        %a2 = arith.addf %acc, %v : f32
        scf.yield %a2 : f32
      }
      memref.store %psum, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c8 step %c1 {
        %s = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %ab = arith.addf %a, %b : f32
          memref.store %ab, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %tot = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %mean = arith.divf %tot, %ncols_f : f32
      gpu.barrier
      // variance
      %psq = scf.for %c = %tid to %ncols step %bdim iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %x[%row, %c] : memref<16384x1024xf32>
        %d = arith.subf %v, %mean : f32
        %d2 = arith.mulf %d, %d : f32
        %a2 = arith.addf %acc, %d2 : f32
        scf.yield %a2 : f32
      }
      memref.store %psq, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c8 step %c1 {
        %s = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sh[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %ab = arith.addf %a, %b : f32
          memref.store %ab, %sh[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %sq = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %var = arith.divf %sq, %ncols_f : f32
      %ve = arith.addf %var, %eps : f32
      %rstd = math.rsqrt %ve : f32
      // normalize
      scf.for %c = %tid to %ncols step %bdim {
        %v = memref.load %x[%row, %c] : memref<16384x1024xf32>
        %g = memref.load %gamma[%c] : memref<1024xf32>
        %bt = memref.load %beta[%c] : memref<1024xf32>
        %d = arith.subf %v, %mean : f32
        %nrm = arith.mulf %d, %rstd : f32
        %sc = arith.mulf %nrm, %g : f32
        %o = arith.addf %sc, %bt : f32
        memref.store %o, %y[%row, %c] : memref<16384x1024xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 16384 : index
    %bx = arith.constant 256 : index
    %ncols = arith.constant 1024 : index
    %ncols_f = arith.constant 1.024000e+03 : f32
    %eps = arith.constant 9.99999974E-6 : f32
    %x = memref.alloc() : memref<16384x1024xf32>
    %gamma = memref.alloc() : memref<1024xf32>
    %beta = memref.alloc() : memref<1024xf32>
    %y = memref.alloc() : memref<16384x1024xf32>
    gpu.launch_func @kernels::@layernorm_rows blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<16384x1024xf32>, %gamma : memref<1024xf32>, %beta : memref<1024xf32>, %y : memref<16384x1024xf32>, %ncols : index, %ncols_f : f32, %eps : f32)
    return
  }
}

// CHECK-LABEL: gpu.func @layernorm_rows
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 19 : i64
// CHECK-SAME: divergent_branches = 19 : i64
// CHECK-SAME: flops = 27 : i64
// CHECK-SAME: global_bytes_per_thread = 24 : i64
// CHECK-SAME: global_loads = 5 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 3 : i64
