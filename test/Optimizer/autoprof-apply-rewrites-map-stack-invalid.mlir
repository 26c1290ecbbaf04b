// map-stack refuses what its chunks cannot combine and reductions too short
// for its rows, with the reason; the kernel is left alone. (Kernels that do
// not raise are refused as by map-nest:
// autoprof-apply-rewrites-map-nest-invalid.mlir; outputs that are not
// combined once per point as by map-lanes:
// autoprof-apply-rewrites-map-lanes-invalid.mlir.)
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=map-stack=8" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-stack=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-stack=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-stack=8192" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: chunks per point must be a power of two from 1 to 4096

// A product has no atomic form: the chunks' totals cannot go in.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-stack=8 to @prod: output #1 is combined by 'arith.mulf', which has no atomic form to combine the chunks}}
    gpu.func @prod(%src: memref<1024x256xf32>, %dst: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c1024 = arith.constant 1024 : index
      %t = gpu.thread_id x
      scf.for %i = %c0 to %c1024 step %c1 {
        %x = memref.load %src[%i, %t] : memref<1024x256xf32>
        %acc = memref.load %dst[%t] : memref<256xf32>
        %p = arith.mulf %acc, %x : f32
        memref.store %p, %dst[%t] : memref<256xf32>
      }
      gpu.return
    }
  }
  func.func @host(%src: memref<1024x256xf32> {llvm.noalias}, %dst: memref<256xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@prod blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<1024x256xf32>, %dst : memref<256xf32>)
    return
  }
}

// -----

// Too few reduction points: 8 rows in 8 chunks need 128.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-stack=8 to @short: the nest has fewer than 128 reduction points for 8 lanes in 8 chunks}}
    gpu.func @short(%src: memref<64x256xf32>, %dst: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %t = gpu.thread_id x
      scf.for %i = %c0 to %c64 step %c1 {
        %x = memref.load %src[%i, %t] : memref<64x256xf32>
        %acc = memref.load %dst[%t] : memref<256xf32>
        %s = arith.addf %acc, %x : f32
        memref.store %s, %dst[%t] : memref<256xf32>
      }
      gpu.return
    }
  }
  func.func @host(%src: memref<64x256xf32> {llvm.noalias}, %dst: memref<256xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@short blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<64x256xf32>, %dst : memref<256xf32>)
    return
  }
}
