// job-dir= keeps one file per job: kernels of one name in two gpu.modules
// get <kernel>.json and <gpu.module>.<kernel>.json, not one file written
// twice; a symbol that is no file name (an imported binary @"../esc") is
// made one inside job-dir. The stand-in worker (/bin/false) writes no
// result, so the pass fails after writing the jobs.
// RUN: rm -rf %t && mkdir -p %t/jobs && not autoprof-opt %s -split-input-file --autoprof-profile="job-dir=%t/jobs worker=/bin/false metrics=gpu__time_duration.sum" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: FileCheck %s --check-prefix=FIRST --input-file=%t/jobs/k.json
// RUN: FileCheck %s --check-prefix=SECOND --input-file=%t/jobs/b.k.json
// RUN: FileCheck %s --check-prefix=ESCAPE --input-file=%t/jobs/_.._esc.json
// RUN: not ls %t/esc.json

// ERROR-COUNT-2: error: cannot profile @k: autoprof-worker exited with status 1 without writing a result
// ERROR: error: cannot profile @../esc: autoprof-worker exited with status 1 without writing a result

// FIRST: "count": 64,
// SECOND: "count": 128,
// ESCAPE: "entry": "k"

module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @k(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @b {
    gpu.func @k(%x: memref<128xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<128xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %x[%i] : memref<128xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>, %y: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%y : memref<128xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @"../esc" {autoprof.imported = {entry = "k", format = "ptx", params = [{kind = "buffer", dtype = "f32", count = 64, role = "input"}]}} [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".visible .entry k(.param .u64 x) { ret; }">]
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @"../esc"::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}
