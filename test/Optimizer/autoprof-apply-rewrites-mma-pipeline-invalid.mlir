// mma-pipeline refuses two buffers that do not fit in the 48 KiB of static
// shared memory: tiles of 128 whose A and B both run along k (B stored
// transposed) take 40 KiB in two buffers and the tile of sums 8.25 KiB
// more. At 64 they fit.
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-pipeline=128" -o /dev/null -verify-diagnostics
// RUN: autoprof-opt %s --autoprof-apply-rewrites="rewrites=mma-pipeline=64" | FileCheck %s

// C[i][j] += sum_k f32(A[i][k]) * f32(B[j][k]): both tiles along k.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul_bt(
    // CHECK-SAME: workgroup(%{{.*}} : memref<2x64x40xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %{{.*}} : memref<2x64x40xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}
    // expected-error @below {{cannot apply mma-pipeline=128 to @matmul_bt: two buffers of the tiles would not fit in 48 KiB of shared memory (49408 bytes)}}
    gpu.func @matmul_bt(%a: memref<256x64xf16>, %b: memref<256x64xf16>, %c: memref<256x256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<256x256xf32>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<256x64xf16>
        %y = memref.load %b[%j, %k] : memref<256x64xf16>
        %xe = arith.extf %x : f16 to f32
        %ye = arith.extf %y : f16 to f32
        %p = arith.mulf %xe, %ye : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<256x256xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<256x64xf16>, %b: memref<256x64xf16>, %c: memref<256x256xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@matmul_bt blocks in (%c16, %c16, %c1) threads in (%c16, %c16, %c1) args(%a : memref<256x64xf16>, %b : memref<256x64xf16>, %c : memref<256x256xf32>)
    return
  }
}
