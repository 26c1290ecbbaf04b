// A kernel no built-in rewrite can touch: the pass says so, keeps the
// original, and succeeds (the report shows no candidate).
// RUN: autoprof-opt %s --autoprof-optimize="worker=%S/Inputs/fake-worker.py report=%t.json" -o %t.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=KEPT
// CHECK: remark: no built-in rewrite applies to @staged; the original is kept
// CHECK: autoprof-optimize: @staged: 100.00 us -> 100.00 us (1.00x) (original kept); 0 candidates: 0 verified, 0 rejected, 0 not run
// KEPT: gpu.func @staged
// KEPT-SAME: nvvm.maxnreg = 32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @staged(%x: memref<1024xf32> {llvm.noalias, llvm.readonly}, %y: memref<1024xf32> {llvm.noalias})
        workgroup(%t: memref<256xf32, #gpu.address_space<workgroup>>)
        kernel attributes {nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 2 : i32, nvvm.maxnreg = 32 : i32} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<1024xf32>
      memref.store %v, %t[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %t[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %y[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %x = gpu.alloc() : memref<1024xf32>
    %y = gpu.alloc() : memref<1024xf32>
    gpu.launch_func @kernels::@staged blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>, %y : memref<1024xf32>)
    return
  }
}
