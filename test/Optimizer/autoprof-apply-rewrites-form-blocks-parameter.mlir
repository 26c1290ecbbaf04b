// The block size form-blocks takes is one of 64, 128, 256 and 512.
// RUN: autoprof-opt %s -verify-diagnostics --autoprof-apply-rewrites="rewrites=form-blocks=100" -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply form-blocks=100 to @copy: the block size must be 64, 128, 256 or 512}}
    gpu.func @copy(%a: memref<1024xf32>, %b: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %v = memref.load %a[%bid] : memref<1024xf32>
      memref.store %v, %b[%bid] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<1024xf32>, %b: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @kernels::@copy blocks in (%c1024, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1024xf32>, %b : memref<1024xf32>)
    return
  }
}
