// A candidate timed faster than the device can move the problem's bytes is
// rejected as faster than physically possible: it skips work the
// verification did not catch. The stand-in worker times the baseline at
// 100 us and every candidate at 50 us; at 4 TB/s (and an L2 of 1 byte),
// copying 2^25 floats moves 256 MiB, a floor of 67.11 us. A baseline already
// below 90% of its floor (2^26 floats: 134 us) shows that the floor does not
// describe the kernel (it counts every element of every buffer once), and
// the check is left out for it; so it is with the stand-in device's default
// 400 TB/s. Flops give no floor: the static count includes both sides of
// every branch, and tensor cores outrun the FP32 peak.
// RUN: env AUTOPROF_FAKE_BANDWIDTH=4e12 %autoprof_opt %s --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: %autoprof_opt %s --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAUSIBLE

// BYTES: autoprof-optimize: @copy form-blocks=256: rejected (faster than physically possible: 50.00 us, below 90% of the floor of 67.11 us (268435455 bytes that must move at the measured 4000 GB/s))
// BYTES: autoprof-optimize: @copy: 100.00 us -> 100.00 us (1.00x) (original kept); 1 candidates: 0 verified, 1 rejected
// BYTES: autoprof-optimize: @big_copy {{.*}}: verified, 50.00 us
// BYTES: autoprof-optimize: @fma_chain block-size=256: verified, 50.00 us
// PLAUSIBLE: autoprof-optimize: @copy form-blocks=256: verified, 50.00 us
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%x: memref<33554432xf32>, %y: memref<33554432xf32>) kernel {
      %bid = gpu.block_id x
      %v = memref.load %x[%bid] : memref<33554432xf32>
      memref.store %v, %y[%bid] : memref<33554432xf32>
      gpu.return
    }
    gpu.func @big_copy(%x: memref<67108864xf32>, %y: memref<67108864xf32>) kernel {
      %bid = gpu.block_id x
      %v = memref.load %x[%bid] : memref<67108864xf32>
      memref.store %v, %y[%bid] : memref<67108864xf32>
      gpu.return
    }
    gpu.func @fma_chain(%z: memref<1024xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 16777216 : index
      %tid = gpu.thread_id x
      %a = memref.load %z[%tid] : memref<1024xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (f32) {
        %m = math.fma %acc, %a, %a : f32
        scf.yield %m : f32
      }
      memref.store %r, %z[%tid] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<33554432xf32>, %y: memref<33554432xf32>, %bx: memref<67108864xf32>, %by: memref<67108864xf32>, %z: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %n = arith.constant 33554432 : index
    %big = arith.constant 67108864 : index
    gpu.launch_func @kernels::@copy blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<33554432xf32>, %y : memref<33554432xf32>)
    gpu.launch_func @kernels::@big_copy blocks in (%big, %c1, %c1) threads in (%c1, %c1, %c1) args(%bx : memref<67108864xf32>, %by : memref<67108864xf32>)
    gpu.launch_func @kernels::@fma_chain blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1) args(%z : memref<1024xf32>)
    return
  }
}
