// map-vector refuses widths that do not divide the contiguous extent, with
// the reason; the kernel is left alone. (Kernels that do not raise are
// refused as by map-nest: autoprof-apply-rewrites-map-nest-invalid.mlir.)
// RUN: autoprof-opt %s -verify-diagnostics --autoprof-apply-rewrites="rewrites=map-vector=8" -o /dev/null
// RUN: not autoprof-opt %s --autoprof-apply-rewrites="rewrites=map-vector=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not autoprof-opt %s --autoprof-apply-rewrites="rewrites=map-vector=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: points per thread must be 2, 4, 8 or 16

// 12 channels, contiguous.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<32x12xf32> {llvm.noalias}, %out: memref<32x12xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c12 = arith.constant 12 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @m::@copy blocks in (%c32, %c12, %c1) threads in (%c1, %c1, %c1) args(%a : memref<32x12xf32>, %out : memref<32x12xf32>)
    return
  }
  gpu.module @m {
    // expected-error @below {{cannot apply map-vector=8 to @copy: the vector width 8 does not divide the contiguous extent 12}}
    gpu.func @copy(%a: memref<32x12xf32>, %out: memref<32x12xf32>) kernel {
      %h = gpu.block_id x
      %c = gpu.block_id y
      %x = memref.load %a[%h, %c] : memref<32x12xf32>
      memref.store %x, %out[%h, %c] : memref<32x12xf32>
      gpu.return
    }
  }
}
