// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: reduction
// Row softmax y[r][c] = exp(x[r][c] - max_r) / sum_r over a 16384 x 1024 f32 matrix; one thread per
// row (grid 64 x block 256): pass 1 max, pass 2 sum of exp, pass 3 normalize (exp recomputed).
// Slow as written: adjacent threads walk rows 4 KB apart (uncoalesced), x is read 3 times, 64 blocks only.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @softmax_rows(%x: memref<16384x1024xf32>, %y: memref<16384x1024xf32>, %nrows: index, %ncols: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.000000e+00 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %row = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %row, %nrows : index
      scf.if %inb {
        %mx = scf.for %c = %c0 to %ncols step %c1 iter_args(%m = %ninf) -> (f32) {
          %v = memref.load %x[%row, %c] : memref<16384x1024xf32>
          %m2 = arith.maximumf %m, %v : f32
          scf.yield %m2 : f32
        }
        %sum = scf.for %c = %c0 to %ncols step %c1 iter_args(%s = %zero) -> (f32) {
          %v = memref.load %x[%row, %c] : memref<16384x1024xf32>
          %d = arith.subf %v, %mx : f32
          %e = math.exp %d : f32
          %s2 = arith.addf %s, %e : f32
          scf.yield %s2 : f32
        }
        scf.for %c = %c0 to %ncols step %c1 {
          %v = memref.load %x[%row, %c] : memref<16384x1024xf32>
          %d = arith.subf %v, %mx : f32
          %e = math.exp %d : f32
          %q = arith.divf %e, %sum : f32
          memref.store %q, %y[%row, %c] : memref<16384x1024xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<16384x1024xf32>, %y: memref<16384x1024xf32>) {
    %c1 = arith.constant 1 : index
    %gx = arith.constant 64 : index
    %bx = arith.constant 256 : index
    %nrows = arith.constant 16384 : index
    %ncols = arith.constant 1024 : index
    gpu.launch_func @kernels::@softmax_rows blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) args(%x : memref<16384x1024xf32>, %y : memref<16384x1024xf32>, %nrows : index, %ncols : index)
    return
  }
}

// CHECK-LABEL: gpu.func @softmax_rows
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 1 : i64
// CHECK-SAME: flops = 5120 : i64
// CHECK-SAME: global_bytes_per_thread = 16384 : i64
// CHECK-SAME: global_loads = 3072 : i64
// CHECK-SAME: global_stores = 1024 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
