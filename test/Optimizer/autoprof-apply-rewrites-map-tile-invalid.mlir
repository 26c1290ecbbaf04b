// map-tile refuses a nest whose points share no loads, or whose reuse
// dimension the tile's rows do not divide, with the reason (as map-reuse); the
// kernel is left alone. (Kernels that do not raise are refused as by
// map-nest: autoprof-apply-rewrites-map-nest-invalid.mlir.)
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=map-tile=4" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-tile=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-tile=32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: rows per tile must be a power of two from 2 to 16

// A row sum: every point reads its own row; no point shares another's
// loads.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-tile=4 to @rows: no parallel dimension's points share the loads of a reduction point}}
    gpu.func @rows(%src: memref<256x64xf32>, %dst: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %t = gpu.thread_id x
      scf.for %j = %c0 to %c64 step %c1 {
        %x = memref.load %src[%t, %j] : memref<256x64xf32>
        %acc = memref.load %dst[%t] : memref<256xf32>
        %s = arith.addf %acc, %x : f32
        memref.store %s, %dst[%t] : memref<256xf32>
      }
      gpu.return
    }
  }
  func.func @host(%src: memref<256x64xf32> {llvm.noalias}, %dst: memref<256xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@rows blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<256x64xf32>, %dst : memref<256xf32>)
    return
  }
}

// -----

// A product of 6 rows: the rows share the other operand's loads, but 4
// does not divide 6.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-tile=4 to @mm: the reuse 4 does not divide the reuse dimension's extent 6}}
    gpu.func @mm(%a: memref<6x32xf32>, %b: memref<32x128xf32>, %c: memref<6x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      scf.for %k = %c0 to %c32 step %c1 {
        %x = memref.load %a[%i, %k] : memref<6x32xf32>
        %y = memref.load %b[%k, %j] : memref<32x128xf32>
        %acc = memref.load %c[%i, %j] : memref<6x128xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<6x128xf32>
      }
      gpu.return
    }
  }
  func.func @host(%a: memref<6x32xf32> {llvm.noalias}, %b: memref<32x128xf32> {llvm.noalias}, %c: memref<6x128xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @m::@mm blocks in (%c6, %c1, %c1) threads in (%c128, %c1, %c1) args(%a : memref<6x32xf32>, %b : memref<32x128xf32>, %c : memref<6x128xf32>)
    return
  }
}
