// map-nest refuses kernels that do not raise or whose buffers may overlap,
// with the reason; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=map-nest=256" -o /dev/null

// An index loaded from memory.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-nest=256 to @gather: the kernel does not raise: an index is loaded from memory (a gather or scatter)}}
    gpu.func @gather(%idx: memref<256xi32>, %src: memref<4096xf32>, %dst: memref<256xf32>) kernel {
      %t = gpu.thread_id x
      %i32 = memref.load %idx[%t] : memref<256xi32>
      %i = arith.index_cast %i32 : i32 to index
      %v = memref.load %src[%i] : memref<4096xf32>
      memref.store %v, %dst[%t] : memref<256xf32>
      gpu.return
    }
  }
  func.func @host(%idx: memref<256xi32>, %src: memref<4096xf32>, %dst: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@gather blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%idx : memref<256xi32>, %src : memref<4096xf32>, %dst : memref<256xf32>)
    return
  }
}

// -----

// The same buffer passed twice: the raised nest would reorder the points of
// an in-place update.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-nest=256 to @shift: a launch passes one buffer to two arguments}}
    gpu.func @shift(%src: memref<256x256xf32>, %dst: memref<256x256xf32>) kernel {
      %c1 = arith.constant 1 : index
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %src[%t, %b] : memref<256x256xf32>
      memref.store %v, %dst[%b, %t] : memref<256x256xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<256x256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@shift blocks in (%c256, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256x256xf32>, %a : memref<256x256xf32>)
    return
  }
}

// -----

// Launch bounds promise the block size: the schedule may not change it.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-nest=256 to @bounded: the kernel has workgroup memory or launch bounds tied to its block size}}
    gpu.func @bounded(%src: memref<64x64xf32>, %dst: memref<64x64xf32>) kernel attributes {nvvm.maxntid = array<i32: 64, 1, 1>} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %src[%t, %b] : memref<64x64xf32>
      memref.store %v, %dst[%t, %b] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64x64xf32> {llvm.noalias}, %b: memref<64x64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@bounded blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>)
    return
  }
}
