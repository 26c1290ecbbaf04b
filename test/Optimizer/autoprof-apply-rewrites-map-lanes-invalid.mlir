// map-lanes refuses what its lanes cannot split, with the reason; the kernel
// is left alone. (Kernels that do not raise are refused as by map-nest:
// autoprof-apply-rewrites-map-nest-invalid.mlir.)
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=map-lanes=8" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-lanes=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-lanes=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-lanes=512" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: lanes per point must be a power of two from 2 to 256

// No reduction: an elementwise kernel.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-lanes=8 to @scale: the nest has fewer than 16 reduction points for 8 lanes}}
    gpu.func @scale(%src: memref<256xf32>, %dst: memref<256xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %src[%t] : memref<256xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %dst[%t] : memref<256xf32>
      gpu.return
    }
  }
  func.func @host(%src: memref<256xf32> {llvm.noalias}, %dst: memref<256xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@scale blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<256xf32>, %dst : memref<256xf32>)
    return
  }
}

// -----

// A subtraction is not associative: the lanes cannot combine it.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-lanes=8 to @diff: output #1 is not combined once per point by an addition, product, minimum, maximum or bitwise operation with a contribution of its own}}
    gpu.func @diff(%src: memref<256x64xf32>, %dst: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %t = gpu.thread_id x
      scf.for %j = %c0 to %c64 step %c1 {
        %x = memref.load %src[%t, %j] : memref<256x64xf32>
        %acc = memref.load %dst[%t] : memref<256xf32>
        %d = arith.subf %acc, %x : f32
        memref.store %d, %dst[%t] : memref<256xf32>
      }
      gpu.return
    }
  }
  func.func @host(%src: memref<256x64xf32> {llvm.noalias}, %dst: memref<256xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@diff blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<256x64xf32>, %dst : memref<256xf32>)
    return
  }
}

// -----

// The element so far is used twice (its square is added): the contribution
// is not the point's own.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-lanes=8 to @square: output #1 is not combined once per point}}
    gpu.func @square(%src: memref<256x64xf32>, %dst: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %t = gpu.thread_id x
      scf.for %j = %c0 to %c64 step %c1 {
        %x = memref.load %src[%t, %j] : memref<256x64xf32>
        %acc = memref.load %dst[%t] : memref<256xf32>
        %sq = arith.mulf %acc, %x : f32
        %s = arith.addf %acc, %sq : f32
        memref.store %s, %dst[%t] : memref<256xf32>
      }
      gpu.return
    }
  }
  func.func @host(%src: memref<256x64xf32> {llvm.noalias}, %dst: memref<256xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@square blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<256x64xf32>, %dst : memref<256xf32>)
    return
  }
}
