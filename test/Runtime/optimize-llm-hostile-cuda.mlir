// Hostile CUDA C++ answers through the real pass on a GPU, with
// sanitize=all: each is rejected with its reason, the correct answer is
// accepted after memcheck and racecheck find nothing in it.
// 1. A shared-memory race that is usually right (pairs of threads swap
//    through shared memory without a __syncwarp): verified on results, a
//    would-be winner, and rejected by racecheck.
// 2. Faster than physically possible: it computes in its first launches and
//    after its 180th, and skips the work while it is timed; every check of
//    results passes, its timing is below the floor of moving its bytes.
// 3. A skipped tail block: the poison stays in the last block's outputs.
// 4. The right answer: accepted.
// REQUIRES: cuda-device, compute-sanitizer
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Optimizer/Inputs/with-llm-server.py %S/Inputs/llm-hostile-cuda.json %t/requests.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=4 time-budget=0.2 sanitize=all endpoint=http://127.0.0.1:{port}/v1 model=m report=%t/report.json" -o %t/out.mlir 2> %t/stderr.txt
// RUN: FileCheck %s --input-file=%t/stderr.txt
// RUN: FileCheck %s --input-file=%t/report.json --check-prefix=REPORT

// CHECK: @repeat_add llm#1: rejected (compute-sanitizer --tool racecheck reported: {{.*}}Race reported between
// CHECK: @repeat_add llm#2: rejected (faster than physically possible: {{[0-9.]+}} us, below 90% of the floor of {{[0-9.]+}} us ({{[0-9]+}} bytes that must move at the measured {{[0-9]+}} GB/s))
// CHECK: @repeat_add llm#3: rejected (did not write: parameter 1 (f32 output) element 524032 still holds the poison value
// CHECK: @repeat_add llm#4: verified, {{[0-9.]+}} us against {{[0-9.]+}} us (noise {{[0-9.]+}}); re-timed alongside the incumbent: {{[0-9.]+}} us against {{[0-9.]+}} us, accepted
// CHECK: @repeat_add: {{[0-9.]+}} us -> {{[0-9.]+}} us ({{[0-9.]+}}x) with llm#4; 4 candidates: 1 verified, 3 rejected, 0 not run

// The race passed memcheck before racecheck found it; the winner passed both.
// REPORT: "rewrite": "llm#1",
// REPORT-NEXT: "sanitizer": "memcheck: no error; racecheck: {{.*}}Race reported
// REPORT: "rewrite": "llm#4",
// REPORT-NEXT: "sanitizer": "memcheck: no error; racecheck: no error",
// REPORT: "sanitizer": "memcheck, racecheck ({{.*}}compute-sanitizer)"

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y[i] = x[i] added 256 times, reloading x[i] every time; each thread
    // takes 32 elements, 524288 apart.
    gpu.func @repeat_add(%x: memref<16777216xf32>, %y: memref<16777216xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %stride = arith.constant 524288 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %g = arith.addi %base, %tid : index
      scf.for %j = %c0 to %c32 step %c1 {
        %offset = arith.muli %j, %stride : index
        %i = arith.addi %g, %offset : index
        %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %x[%i] : memref<16777216xf32>
          %s = arith.addf %acc, %v : f32
          scf.yield %s : f32
        }
        memref.store %r, %y[%i] : memref<16777216xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2048 = arith.constant 2048 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<16777216xf32>
    %y = memref.alloc() : memref<16777216xf32>
    gpu.launch_func @kernels::@repeat_add blocks in (%c2048, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16777216xf32>, %y : memref<16777216xf32>)
    return
  }
}
