// The evaluation job autoprof-profile builds for a kernel: PTX, launch
// configuration and the parameters in order, with roles inferred from the
// kernel body. The stand-in worker (/bin/false) writes no result, so the pass
// fails after writing the job.
// RUN: rm -rf %t && not autoprof-opt %s --autoprof-profile="job-dir=%t worker=/bin/false metrics=gpu__time_duration.sum" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: FileCheck %s --input-file=%t/gather_scale.json

// ERROR: error: cannot profile @gather_scale: autoprof-worker exited with status 1 without writing a result

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Workgroup memory is not a parameter; %idx is an integer input used as
    // indices (its attributes ask for sorted values below 4096); %acc is read
    // and written; %out is only written.
    gpu.func @gather_scale(%idx: memref<1024xi32> {autoprof.index_bound = 4096 : i64, autoprof.sorted},
                           %table: memref<4096xf32>,
                           %acc: memref<1024xf32>, %out: memref<1024xf32>,
                           %scale: f32, %n: index)
        workgroup(%tile: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %j32 = memref.load %idx[%i] : memref<1024xi32>
      %j = arith.index_cast %j32 : i32 to index
      %v = memref.load %table[%j] : memref<4096xf32>
      memref.store %v, %tile[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %t = memref.load %tile[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      %a = memref.load %acc[%i] : memref<1024xf32>
      %s = arith.mulf %t, %scale : f32
      %r = arith.addf %a, %s : f32
      memref.store %r, %acc[%i] : memref<1024xf32>
      memref.store %s, %out[%i] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%idx: memref<1024xi32>, %table: memref<4096xf32>, %acc: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %scale = arith.constant 0.5 : f32
    %out = memref.alloc() : memref<1024xf32>
    gpu.launch_func @kernels::@gather_scale blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%idx : memref<1024xi32>, %table : memref<4096xf32>, %acc : memref<1024xf32>, %out : memref<1024xf32>, %scale : f32, %c1024 : index)
    return
  }
}

// CHECK:      "entry": "gather_scale",
// CHECK:      "format": "ptx",
// CHECK:      "launch": {
// CHECK-NEXT:   "block": [
// CHECK-NEXT:     256,
// CHECK-NEXT:     1,
// CHECK-NEXT:     1
// CHECK-NEXT:   ],
// CHECK-NEXT:   "dynamic_shared_bytes": 0,
// CHECK-NEXT:   "grid": [
// CHECK-NEXT:     4,
// CHECK:        "params": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "count": 1024,
// CHECK-NEXT:       "dtype": "i32",
// CHECK-NEXT:       "index_bound": 4096,
// CHECK-NEXT:       "kind": "buffer",
// CHECK-NEXT:       "role": "input",
// CHECK-NEXT:       "sorted": true
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "count": 4096,
// CHECK-NEXT:       "dtype": "f32",
// CHECK-NEXT:       "kind": "buffer",
// CHECK-NEXT:       "role": "input"
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "count": 1024,
// CHECK-NEXT:       "dtype": "f32",
// CHECK-NEXT:       "kind": "buffer",
// CHECK-NEXT:       "role": "inout"
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "count": 1024,
// CHECK-NEXT:       "dtype": "f32",
// CHECK-NEXT:       "kind": "buffer",
// CHECK-NEXT:       "role": "output"
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "dtype": "f32",
// CHECK-NEXT:       "kind": "scalar",
// CHECK-NEXT:       "value": 0.5
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "dtype": "i64",
// CHECK-NEXT:       "kind": "scalar",
// CHECK-NEXT:       "value": 1024
// CHECK-NEXT:     }
// CHECK-NEXT:   ]
// CHECK:      "profile": {
// CHECK-NEXT:   "metrics": [
// CHECK-NEXT:     "gpu__time_duration.sum"
