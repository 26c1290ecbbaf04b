// A kernel launched in a host loop whose only varying argument is the
// induction variable is measured as the loop's sequence of launches (the job
// repeats the launch), and the built-in proposer tries fold-host-loop first.
// The folded variant takes one parameter less: it receives the reference's
// buffers through a parameter map, and runs once. A stand-in worker measures
// every candidate as twice as fast.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env AUTOPROF_FAKE_JOBS=%t/jobs.jsonl %autoprof_opt %s --autoprof-optimize="budget=2 worker=%S/Inputs/fake-worker.py report=%t/report.json" | FileCheck %s
// RUN: FileCheck %s --input-file=%t/jobs.jsonl --check-prefix=JOBS
// RUN: FileCheck %s --input-file=%t/report.json --check-prefix=REPORT

// The baseline: the launch repeated 64 times, the induction variable (#1)
// from 0 in steps of 1, timed, then profiled in a job of its own (on its
// first launch, by the worker).
// JOBS: {"device": 0, "kernel":
// JOBS-SAME: "repeat": {"count": 64, "param": 1, "start": 0, "step": 1}}}, "time":
// JOBS-NEXT: {"device": 0, "kernel":
// JOBS-SAME: "repeat": {"count": 64, "param": 1, "start": 0, "step": 1}}}, "profile":
// The folded candidate: its launch ends with its parameters (no repetition)
// and receives reference parameters 0 and 2; the reference still repeats.
// JOBS: {"candidate":
// JOBS-SAME: }]}, "reference_params": [0, 2]}, "device": 0, "kernel":
// JOBS-SAME: "repeat": {"count": 64, "param": 1, "start": 0, "step": 1}}}, "time":

// REPORT: "accepted": [
// REPORT-NEXT: "fold-host-loop=1"

// CHECK-LABEL: func.func @col_sum(
// CHECK: scf.if
// CHECK: gpu.launch_func @kernels::@col_sum blocks
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK-NEXT: gpu.launch_func @kernels::@col_sum_unfolded blocks
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @col_sum(%a: memref<64x256xf32>, %k: index, %out: memref<256xf32>) kernel {
      %c64 = arith.constant 64 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c64 : index
      %j = arith.addi %base, %tid : index
      %v = memref.load %a[%k, %j] : memref<64x256xf32>
      %s = memref.load %out[%j] : memref<256xf32>
      %r = arith.addf %v, %s : f32
      memref.store %r, %out[%j] : memref<256xf32>
      gpu.return
    }
  }
  func.func @col_sum(%a: memref<64x256xf32>, %out: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c64 step %c1 {
      gpu.launch_func @kernels::@col_sum blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64x256xf32>, %k : index, %out : memref<256xf32>)
    }
    return
  }
}
