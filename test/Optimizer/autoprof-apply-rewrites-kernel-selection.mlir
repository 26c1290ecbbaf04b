// Which kernel autoprof-apply-rewrites rewrites: NAME, or MODULE::NAME where
// several GPU modules hold a kernel of that name (upstream outlining names
// every kernel of a function after it, as the optimizer's report does).
// RUN: autoprof-opt %s --autoprof-apply-rewrites="kernel=second::k rewrites=launch-bounds=1" | FileCheck %s
// RUN: not autoprof-opt %s --autoprof-apply-rewrites="kernel=k rewrites=launch-bounds=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEVERAL
// RUN: not autoprof-opt %s --autoprof-apply-rewrites="rewrites=launch-bounds=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNNAMED
// RUN: not autoprof-opt %s --autoprof-apply-rewrites="kernel=third::k rewrites=launch-bounds=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE

// SEVERAL: error: several kernels named 'k'; pick one with kernel=MODULE::NAME
// UNNAMED: error: the module has several kernels; pick one with kernel=NAME or kernel=MODULE::NAME
// NONE: error: no kernel named 'third::k'

module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @k(%x: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<64xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%tid] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @k(%x: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<64xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %x[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @first::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>)
    gpu.launch_func @second::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}

// Only the second module's kernel promises its block size.
// CHECK-LABEL: gpu.module @first
// CHECK-NOT: nvvm.maxntid
// CHECK-LABEL: gpu.module @second
// CHECK: gpu.func @k({{.*}}) kernel attributes {{{.*}}nvvm.maxntid = array<i32: 64, 1, 1>
