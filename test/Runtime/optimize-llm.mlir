// The LLM proposer through the real pass on a GPU: the scripted loopback
// model first answers with a kernel that computes the wrong thing (the
// worker rejects it, and the second prompt says why), then with a correct
// one that is much faster (verified, timed and kept in the output module).
// REQUIRES: cuda-device
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Optimizer/Inputs/with-llm-server.py %S/Inputs/llm-wrong-then-right.json %t/requests.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=2 endpoint=http://127.0.0.1:{port}/v1 model=m report=%t/report.json" -o %t/out.mlir 2> %t/stderr.txt
// RUN: FileCheck %s --input-file=%t/stderr.txt --check-prefix=SUMMARY
// RUN: FileCheck %s --input-file=%t/out.mlir --check-prefix=KEPT
// RUN: FileCheck %s --input-file=%t/report.json --check-prefix=REPORT
// RUN: FileCheck %s --input-file=%t/requests.jsonl --check-prefix=PROMPT
// RUN: %autoprof_opt %t/out.mlir --autoprof-lower-to-ptx -o /dev/null

// SUMMARY: autoprof-optimize: @repeat_add llm#1: rejected (wrong result: parameter 1 (f32 output) element
// SUMMARY: autoprof-optimize: @repeat_add llm#2: verified, {{[0-9.]+}} us against {{[0-9.]+}} us (noise {{[0-9.]+}}); re-timed alongside the incumbent: {{[0-9.]+}} us against {{[0-9.]+}} us, accepted
// SUMMARY: autoprof-optimize: @repeat_add: {{[0-9.]+}} us -> {{[0-9.]+}} us ({{[0-9.]+}}x) with llm#2; 2 candidates: 1 verified, 1 rejected, 0 not run

// KEPT-LABEL: gpu.func @repeat_add
// KEPT-NOT: scf.for
// KEPT: arith.constant 2.560000e+02 : f32
// KEPT: gpu.return

// REPORT: "accepted": [
// REPORT-NEXT: "llm#2"
// REPORT: "reason": "wrong result: parameter 1 (f32 output)
// REPORT: "rewrite": "llm#1",
// REPORT: "status": "rejected"
// REPORT: "accepted": true,
// REPORT: "rewrite": "llm#2",
// REPORT: "status": "verified",
// REPORT: "gpu": "NVIDIA {{.+}}",

// The second prompt tells the model how the first answer ended.
// PROMPT: gpu.func @repeat_add
// PROMPT: llm#1: rejected, wrong result

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y[i] = x[i] added 256 times, reloading x[i] every time.
    gpu.func @repeat_add(%x: memref<1048576xf32>, %y: memref<1048576xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %r = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %x[%i] : memref<1048576xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %y[%i] : memref<1048576xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4096 = arith.constant 4096 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<1048576xf32>
    %y = memref.alloc() : memref<1048576xf32>
    gpu.launch_func @kernels::@repeat_add blocks in (%c4096, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1048576xf32>, %y : memref<1048576xf32>)
    return
  }
}
