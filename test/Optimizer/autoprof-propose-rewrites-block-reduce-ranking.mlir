// block-reduce ranks its thread counts by how they fill the GPU's resident
// thread slots: the fewest threads per column that give 90% of the slots a
// thread come first (each doubling adds a level of combining), then the
// larger counts, then the smaller ones. The slots are the SMs and warps per
// SM the profile counted, else the target's (sm_90: 132 SMs of 2048
// threads).
// RUN: autoprof-opt %s --autoprof-propose-rewrites | FileCheck %s
// RUN: autoprof-opt %s --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// 16384 columns: 16 threads each fill 97% of sm_90's slots.
// CHECK-LABEL: gpu.func @vecmat
// CHECK-SAME: autoprof.proposals = [{{.*}}"block-reduce=16", "block-reduce=32", "block-reduce=8", "block-reduce=4"
// REMARK: remark: @vecmat: proposal {{[0-9]+}}: block-reduce=16 (score 10.30); 262144 threads fill 0.97 of 270336 resident thread slots (launch__sm_count not collected: sm_90's, H100 or H200);
// REMARK: remark: @vecmat: proposal {{[0-9]+}}: block-reduce=8 (score 10.10); 131072 threads fill 0.48 of 270336 resident thread slots

// The same columns on a GPU of 16 SMs: 4 threads each are enough.
// CHECK-LABEL: gpu.func @vecmat_on_few_sms
// CHECK-SAME: autoprof.proposals = [{{.*}}"block-reduce=4", "block-reduce=8", "block-reduce=16", "block-reduce=32"
// REMARK: remark: @vecmat_on_few_sms: proposal {{[0-9]+}}: block-reduce=4 (score 10.30); 65536 threads fill 2.00 of 32768 resident thread slots;
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vecmat(%x: memref<4096xf32>, %a: memref<4096x16384xf32>, %y: memref<16384xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c4096 = arith.constant 4096 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c256 overflow<nsw> : index
      %j = arith.addi %tid, %base : index
      %init = memref.load %y[%j] : memref<16384xf32>
      %sum = scf.for %k = %c0 to %c4096 step %c1 iter_args(%acc = %init) -> (f32) {
        %x_k = memref.load %x[%k] : memref<4096xf32>
        %a_kj = memref.load %a[%k, %j] : memref<4096x16384xf32>
        %p = arith.mulf %x_k, %a_kj : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%j] : memref<16384xf32>
      gpu.return
    }
    gpu.func @vecmat_on_few_sms(%x: memref<4096xf32>, %a: memref<4096x16384xf32>, %y: memref<16384xf32>) kernel attributes {autoprof.measurement = {gpu = "a GPU of 16 SMs", median_us = 100.0 : f64, metrics = {"launch__sm_count" = 16.0 : f64, "device__attribute_max_warps_per_multiprocessor" = 64.0 : f64}}} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c4096 = arith.constant 4096 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c256 overflow<nsw> : index
      %j = arith.addi %tid, %base : index
      %init = memref.load %y[%j] : memref<16384xf32>
      %sum = scf.for %k = %c0 to %c4096 step %c1 iter_args(%acc = %init) -> (f32) {
        %x_k = memref.load %x[%k] : memref<4096xf32>
        %a_kj = memref.load %a[%k, %j] : memref<4096x16384xf32>
        %p = arith.mulf %x_k, %a_kj : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%j] : memref<16384xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<4096xf32>, %a: memref<4096x16384xf32>, %y: memref<16384xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@vecmat blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4096xf32>, %a : memref<4096x16384xf32>, %y : memref<16384xf32>)
    gpu.launch_func @kernels::@vecmat_on_few_sms blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4096xf32>, %a : memref<4096x16384xf32>, %y : memref<16384xf32>)
    return
  }
}
