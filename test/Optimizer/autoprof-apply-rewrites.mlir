// Each built-in rewrite on IR: what it changes in the kernel and its launch.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=block-size=128 normalize=false" | FileCheck %s --check-prefix=BLOCK
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=launch-bounds normalize=false" | FileCheck %s --check-prefix=BOUNDS
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=min-blocks=4 normalize=false" | FileCheck %s --check-prefix=MINBLOCKS
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=max-registers=32 normalize=false" | FileCheck %s --check-prefix=MAXREG
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=restrict normalize=false" | FileCheck %s --check-prefix=RESTRICT
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=unroll=4 normalize=false" | FileCheck %s --check-prefix=UNROLL

// A 1-D kernel that indexes only with block_id * block_dim + thread_id, on
// buffers the host allocates itself, with a loop bound fed by a constant.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @row_sum(%x: memref<16384xf32>, %y: memref<1024xf32>, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %row = arith.muli %i, %c16 : index
      %sum = scf.for %j = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %idx = arith.addi %row, %j : index
        %v = memref.load %x[%idx] : memref<16384xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %sum, %y[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<16384xf32>
    %y = gpu.alloc() : memref<1024xf32>
    gpu.launch_func @kernels::@row_sum blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %y : memref<1024xf32>, %c16 : index)
    return
  }
}

// Same 1024 threads as 8 blocks of 128.
// BLOCK-LABEL: gpu.func @row_sum
// BLOCK-LABEL: func.func @main
// BLOCK-DAG: %[[GRID:.*]] = arith.constant 8 : index
// BLOCK-DAG: %[[BLOCK:.*]] = arith.constant 128 : index
// BLOCK: gpu.launch_func @kernels::@row_sum blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%[[BLOCK]], %{{.*}}, %{{.*}})

// BOUNDS-LABEL: gpu.func @row_sum
// BOUNDS-SAME: attributes {nvvm.maxntid = array<i32: 256, 1, 1>}

// MINBLOCKS-LABEL: gpu.func @row_sum
// MINBLOCKS-SAME: attributes {nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 4 : i32}

// MAXREG-LABEL: gpu.func @row_sum
// MAXREG-SAME: attributes {nvvm.maxnreg = 32 : i32}

// The input becomes no-alias and read-only, the output no-alias only.
// RESTRICT-LABEL: gpu.func @row_sum
// RESTRICT-SAME: (%{{.*}}: memref<16384xf32> {llvm.noalias, llvm.readonly}, %{{.*}}: memref<1024xf32> {llvm.noalias}, %{{.*}}: index)

// Four loads per iteration of the unrolled loop, plus the epilogue's one.
// UNROLL-LABEL: gpu.func @row_sum
// UNROLL: scf.for
// UNROLL-COUNT-4: memref.load
// UNROLL: scf.yield
// UNROLL: scf.for
// UNROLL: memref.load
// UNROLL: scf.yield
// UNROLL-NOT: memref.load
// UNROLL: gpu.return
