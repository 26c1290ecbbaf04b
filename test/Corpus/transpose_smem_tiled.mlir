// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: transpose
// out[c][r] = in[r][c] for an 8192 x 4096 f32 matrix through a 32x32 workgroup tile; grid (128, 256) x
// block (32, 8), each thread moves 4 rows of the tile (blockDim must be (32, 8)).
// Slow as written: the tile is unpadded (32x32), so the column-wise tile reads are 32-way bank conflicts.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose_smem_tiled(%in: memref<8192x4096xf32>, %out: memref<4096x8192xf32>)
        workgroup(%tile : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %colbase = arith.muli %bx, %c32 : index
      %rowbase = arith.muli %by, %c32 : index
      %c = arith.addi %colbase, %tx : index
      scf.for %r = %c0 to %c32 step %c8 {
        %tr = arith.addi %ty, %r : index
        %row = arith.addi %rowbase, %tr : index
        %v = memref.load %in[%row, %c] : memref<8192x4096xf32>
        memref.store %v, %tile[%tr, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %ocol = arith.addi %rowbase, %tx : index
      scf.for %r = %c0 to %c32 step %c8 {
        %tr = arith.addi %ty, %r : index
        %orow = arith.addi %colbase, %tr : index
        %v = memref.load %tile[%tx, %tr] : memref<32x32xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%orow, %ocol] : memref<4096x8192xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 256 : index
    %in = gpu.alloc () : memref<8192x4096xf32>
    %out = gpu.alloc () : memref<4096x8192xf32>
    gpu.launch_func @kernels::@transpose_smem_tiled blocks in (%gx, %gy, %c1) threads in (%c32, %c8, %c1) args(%in : memref<8192x4096xf32>, %out : memref<4096x8192xf32>)
    return
  }
}

// CHECK-LABEL: gpu.func @transpose_smem_tiled
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 1 : i64
// CHECK-SAME: divergent_branches = 0 : i64
// CHECK-SAME: flops = 0 : i64
// CHECK-SAME: global_bytes_per_thread = 32 : i64
// CHECK-SAME: global_loads = 4 : i64
// CHECK-SAME: global_stores = 4 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 0 : i64
