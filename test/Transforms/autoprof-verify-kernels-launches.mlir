// A kernel launched twice, with other sizes each time, has both launches
// verified: launch i of the module against launch i of the reference (here
// the module itself), each with its own scalars. A stand-in worker rejects
// every job with a description of it.
// RUN: autoprof-opt %s -verify-diagnostics --autoprof-verify-kernels="reference=%s worker=%S/Inputs/describe-job-worker.py" -o /dev/null

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{@scale failed verification against the reference (rejected): reference (f32:input f32:output i64=128), candidate (f32:input f32:output i64=128)}}
    // expected-error @below {{@scale failed verification against the reference (rejected): reference (f32:input f32:output i64=256), candidate (f32:input f32:output i64=256)}}
    gpu.func @scale(%x: memref<256xf32>, %y: memref<256xf32>, %n: i64) kernel {
      %cst = arith.constant 2.0 : f32
      %bid = gpu.block_id x
      %i = arith.index_cast %bid : index to i64
      %in = arith.cmpi slt, %i, %n : i64
      scf.if %in {
        %v = memref.load %x[%bid] : memref<256xf32>
        %r = arith.mulf %v, %cst : f32
        memref.store %r, %y[%bid] : memref<256xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %y: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %n128 = arith.constant 128 : i64
    %n256 = arith.constant 256 : i64
    gpu.launch_func @kernels::@scale blocks in (%c128, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<256xf32>, %y : memref<256xf32>, %n128 : i64)
    gpu.launch_func @kernels::@scale blocks in (%c256, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<256xf32>, %y : memref<256xf32>, %n256 : i64)
    return
  }
}
