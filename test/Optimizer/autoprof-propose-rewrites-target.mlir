// The rankings take the GPU's figures from the chip the kernel's gpu.module
// targets (include/autoprof/Target/GpuTarget.h), sm_90 where it names none.
// 1536 x 1536 results are 144 tiles of 128: every one of sm_90's 132 SMs
// gets one, so mma-tile ranks 128 first; sm_100's 148 would not all get
// one, so 64 comes first there.
// RUN: autoprof-opt %s -split-input-file --autoprof-propose-rewrites=remarks -o /dev/null 2>&1 | FileCheck %s
// The pass's chip= names the GPU for every kernel, whatever the module says.
// RUN: autoprof-opt %s -split-input-file --autoprof-propose-rewrites="remarks chip=sm_80" -o /dev/null 2>&1 | FileCheck %s --check-prefix=A100
// A100: remark: @k: proposal 1: mma-tile=128 (score 11.60); products of halves on tensor cores; 144 tiles of 128 on 108 SMs (launch__sm_count not collected: sm_80's, A100)
// A100: remark: @k: proposal 1: mma-tile=128 (score 11.60); products of halves on tensor cores; 144 tiles of 128 on 108 SMs (launch__sm_count not collected: sm_80's, A100)
// RUN: not autoprof-opt %s -split-input-file --autoprof-propose-rewrites="chip=sm_9000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=mma-tile=128 chip=sm_9000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: autoprof-{{apply|propose}}-rewrites: no description of chip 'sm_9000' (described: sm_80, sm_86, sm_89, sm_90, sm_100)

// CHECK: remark: @k: proposal 1: mma-tile=128 (score 11.60); products of halves on tensor cores; 144 tiles of 128 on 132 SMs (launch__sm_count not collected: sm_90's, H100 or H200)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<1536x48xf16>, %b: memref<48x1536xf16>, %c: memref<1536x1536xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 48 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<1536x1536xf32>
      %sum = scf.for %k = %c0 to %cK step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<1536x48xf16>
        %y = memref.load %b[%k, %j] : memref<48x1536xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<1536x1536xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<1536x48xf16>, %b: memref<48x1536xf16>, %c: memref<1536x1536xf32>) {
    %c16 = arith.constant 16 : index
    %c96 = arith.constant 96 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c96, %c96, %c1) threads in (%c16, %c16, %c1) args(%a : memref<1536x48xf16>, %b : memref<48x1536xf16>, %c : memref<1536x1536xf32>)
    return
  }
}

// -----

// CHECK: remark: @k: proposal 1: mma-tile=64 (score 11.50)
// CHECK: remark: @k: proposal 2: mma-tile=128 (score 11.45); products of halves on tensor cores; 144 tiles of 128 on 148 SMs (launch__sm_count not collected: sm_100's, B200)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100">] {
    gpu.func @k(%a: memref<1536x48xf16>, %b: memref<48x1536xf16>, %c: memref<1536x1536xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %cK = arith.constant 48 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<1536x1536xf32>
      %sum = scf.for %k = %c0 to %cK step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<1536x48xf16>
        %y = memref.load %b[%k, %j] : memref<48x1536xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<1536x1536xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<1536x48xf16>, %b: memref<48x1536xf16>, %c: memref<1536x1536xf32>) {
    %c16 = arith.constant 16 : index
    %c96 = arith.constant 96 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c96, %c96, %c1) threads in (%c16, %c16, %c1) args(%a : memref<1536x48xf16>, %b : memref<48x1536xf16>, %c : memref<1536x1536xf32>)
    return
  }
}
