// A kernel whose search fails costs that kernel only. A stand-in worker
// cannot measure @broken; @good is still searched and reported. By default
// the pass then fails, names the failed kernel and leaves the module as it
// was; with keep-going=true it succeeds and the module takes @good's winner.
// An unreachable language model fails every kernel it is asked about, each
// with the reason.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env AUTOPROF_FAKE_FAIL_ENTRY=broken not %autoprof_opt %s --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py report=%t/report.json" -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: FileCheck %s --input-file=%t/report.json --check-prefix=REPORT
// RUN: env AUTOPROF_FAKE_FAIL_ENTRY=broken %autoprof_opt %s --autoprof-optimize="budget=1 keep-going=true worker=%S/Inputs/fake-worker.py" 2>%t/keep.err | FileCheck %s --check-prefix=KEEP
// RUN: FileCheck %s --input-file=%t/keep.err --check-prefix=KEEP-ERR
// RUN: not %autoprof_opt %s --autoprof-optimize="budget=1 proposer=llm endpoint=http://127.0.0.1:1 model=m llm-retries=0 worker=%S/Inputs/fake-worker.py report=%t/llm.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LLM
// RUN: FileCheck %s --input-file=%t/llm.json --check-prefix=LLM-REPORT

// FAIL: error: cannot measure @broken (error): the stand-in device is lost
// FAIL: autoprof-optimize: @good: 100.00 us -> 50.00 us (2.00x) with form-blocks=256
// FAIL: error: 1 of 2 kernels failed (@kernels::broken); the module is left as it was (keep-going=true keeps the other kernels' winners)

// REPORT: "failed_kernels": [
// REPORT-NEXT: {
// REPORT-NEXT: "kernel": "kernels::broken",
// REPORT-NEXT: "reason": "cannot measure @broken (error): the stand-in device is lost"
// REPORT: "kernel": "kernels::good",

// KEEP-ERR: warning: cannot measure @broken (error): the stand-in device is lost
// KEEP-ERR: warning: 1 of 2 kernels failed (@kernels::broken); they keep the winners found before their failure
// @broken keeps its one-thread blocks; @good has blocks of 256 threads.
// KEEP-LABEL: func.func @main(
// KEEP: gpu.launch_func @kernels::@broken blocks in (%c1024, {{.*}}) threads in (%c1, %c1, %c1)
// KEEP: gpu.launch_func @kernels::@good blocks in (%c4, {{.*}}) threads in (%c256,

// LLM: error: the language model could not be asked about @broken:
// LLM: error: the language model could not be asked about @good:
// LLM: error: 2 of 2 kernels failed (@kernels::broken, @kernels::good)
// LLM-REPORT: "failed_kernels": [
// LLM-REPORT: "kernel": "kernels::broken",
// LLM-REPORT-NEXT: "reason": "the llm proposer failed after 0 candidates: the language model could not be asked about @broken: {{.*}}127.0.0.1:1
// LLM-REPORT: "kernel": "kernels::good",
// LLM-REPORT: "failed": "the llm proposer failed after 0 candidates: the language model could not be asked about @broken:
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @broken(%x: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %v = memref.load %x[%bid] : memref<1024xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %x[%bid] : memref<1024xf32>
      gpu.return
    }
    gpu.func @good(%y: memref<1024xf32>) kernel {
      %bid = gpu.block_id x
      %v = memref.load %y[%bid] : memref<1024xf32>
      %r = arith.mulf %v, %v : f32
      memref.store %r, %y[%bid] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>, %y: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch_func @kernels::@broken blocks in (%c1024, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<1024xf32>)
    gpu.launch_func @kernels::@good blocks in (%c1024, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<1024xf32>)
    return
  }
}
