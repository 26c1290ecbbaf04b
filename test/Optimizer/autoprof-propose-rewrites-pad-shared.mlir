// autoprof-propose-rewrites proposes pad-shared only where the profile
// establishes the fact shared-bank-conflicts (docs/diagnosis.md): the
// smallest padding first, ahead of the families no fact speaks for. Not
// measured, or measured without conflicts, it is not proposed.
// RUN: autoprof-opt %s --autoprof-propose-rewrites | FileCheck %s
// RUN: autoprof-opt %s --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A 32 x 32 tile of floats read along its columns (the tiled transpose of
// test/Corpus/transpose_smem_tiled.mlir), under three profiles.
// CHECK-LABEL: gpu.func @unprofiled
// CHECK-SAME: autoprof.proposals = ["unroll=4", "min-blocks=2", "launch-bounds=1"]
// 15.5 conflicts per shared-memory instruction:
// CHECK-LABEL: gpu.func @conflicts
// CHECK-SAME: autoprof.proposals = ["pad-shared=4", "pad-shared=8", "pad-shared=16", "pad-shared=32", "unroll=4", "min-blocks=2", "launch-bounds=1"]
// REMARK: remark: @conflicts: proposal 1: pad-shared=4 (score 10.80); addresses shared-bank-conflicts: true (15.50 conflicts per shared-memory instruction > 0.1)
// None:
// CHECK-LABEL: gpu.func @conflict_free
// CHECK-SAME: autoprof.proposals = ["unroll=4", "min-blocks=2", "launch-bounds=1"]
// REMARK-NOT: @conflict_free: proposal {{[0-9]+}}: pad-shared
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @unprofiled(%in: memref<8192x4096xf32>, %out: memref<4096x8192xf32>) workgroup(%tile : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel {
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

    gpu.func @conflicts(%in: memref<8192x4096xf32>, %out: memref<4096x8192xf32>) workgroup(%tile : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 100.0 : f64, metrics = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum" = 126976000.0 : f64, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum" = 0.0 : f64, "smsp__sass_inst_executed_op_shared_ld.sum" = 4096000.0 : f64, "smsp__sass_inst_executed_op_shared_st.sum" = 4096000.0 : f64}}} {
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

    gpu.func @conflict_free(%in: memref<8192x4096xf32>, %out: memref<4096x8192xf32>) workgroup(%tile : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel attributes {autoprof.measurement = {gpu = "NVIDIA H200", median_us = 60.0 : f64, metrics = {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum" = 0.0 : f64, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum" = 0.0 : f64, "smsp__sass_inst_executed_op_shared_ld.sum" = 4096000.0 : f64, "smsp__sass_inst_executed_op_shared_st.sum" = 4096000.0 : f64}}} {
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
  func.func @main(%in: memref<8192x4096xf32>, %out: memref<4096x8192xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %gx = arith.constant 128 : index
    %gy = arith.constant 256 : index
    gpu.launch_func @kernels::@unprofiled blocks in (%gx, %gy, %c1) threads in (%c32, %c8, %c1) args(%in : memref<8192x4096xf32>, %out : memref<4096x8192xf32>)
    gpu.launch_func @kernels::@conflicts blocks in (%gx, %gy, %c1) threads in (%c32, %c8, %c1) args(%in : memref<8192x4096xf32>, %out : memref<4096x8192xf32>)
    gpu.launch_func @kernels::@conflict_free blocks in (%gx, %gy, %c1) threads in (%c32, %c8, %c1) args(%in : memref<8192x4096xf32>, %out : memref<4096x8192xf32>)
    return
  }
}
