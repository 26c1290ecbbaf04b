// The precision policy through the real pass, on any machine: a scripted
// loopback server plays a model whose answer computes an f32 kernel's
// product in f16, and a stand-in worker plays the GPU (every candidate it
// runs is verified at 50 us against 100 us). The PTX of both kernels says
// the candidate multiplies f16 operands where the original's are f32: it is
// rejected before it runs, unless precision=f16 allows it; tf32 does not.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-half.json %t/same.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py report=%t/same.report" -o %t/same.mlir 2> %t/same.log
// RUN: FileCheck %s --input-file=%t/same.log --check-prefix=SAME
// RUN: FileCheck %s --input-file=%t/same.report --check-prefix=SAME-REPORT
// RUN: FileCheck %s --input-file=%t/same.mlir --check-prefix=KEPT
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-half.json %t/tf32.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 precision=tf32 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py" -o %t/tf32.mlir 2> %t/tf32.log
// RUN: FileCheck %s --input-file=%t/tf32.log --check-prefix=SAME
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-half.json %t/f16.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 precision=f16 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py report=%t/f16.report" -o %t/f16.mlir 2> %t/f16.log
// RUN: FileCheck %s --input-file=%t/f16.report --check-prefix=F16-REPORT
// RUN: FileCheck %s --input-file=%t/f16.log --check-prefix=ALLOWED
// RUN: FileCheck %s --input-file=%t/f16.mlir --check-prefix=HALVES
// RUN: not %autoprof_opt %s --autoprof-optimize="precision=f8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// SAME: @scale llm#1: rejected (computes in a lower precision: its products' operands are f16 where the original's are f32 at the least; precision=f16 allows it)
// SAME-REPORT: "reason": "computes in a lower precision: its products' operands are f16 where the original's are f32 at the least; precision=f16 allows it",
// SAME-REPORT: "source": "llm",
// SAME-REPORT-NEXT: "status": "rejected"
// The report records the math of the original and of the result.
// SAME-REPORT: "precision": {
// SAME-REPORT-NEXT: "original": {
// SAME-REPORT-NEXT: "accumulations": "",
// SAME-REPORT-NEXT: "product_operands": "f32",
// SAME-REPORT-NEXT: "products": "f32"
// SAME-REPORT-NEXT: },
// SAME-REPORT-NEXT: "policy": "same",
// SAME-REPORT-NEXT: "result": {
// SAME-REPORT-NEXT: "accumulations": "",
// SAME-REPORT-NEXT: "product_operands": "f32",
// SAME-REPORT-NEXT: "products": "f32"
// KEPT: arith.mulf %{{.*}}, %{{.*}} : f32
// KEPT-NOT: f16

// ALLOWED: @scale llm#1: verified, 50.00 us against 100.00 us
// HALVES: arith.mulf %{{.*}}, %{{.*}} : f16
// F16-REPORT: "precision": {
// F16-REPORT: "policy": "f16",
// F16-REPORT-NEXT: "result": {
// F16-REPORT-NEXT: "accumulations": "",
// F16-REPORT-NEXT: "product_operands": "f16",
// F16-REPORT-NEXT: "products": "f16"

// BAD: for the --precision option: Cannot find option named 'f8'!

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4096xf32>
      %three = arith.constant 3.000000e+00 : f32
      %r = arith.mulf %v, %three : f32
      memref.store %r, %y[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<4096xf32>
    %y = memref.alloc() : memref<4096xf32>
    gpu.launch_func @kernels::@scale blocks in (%c16, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<4096xf32>, %y : memref<4096xf32>)
    return
  }
}
