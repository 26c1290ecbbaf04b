// A CUDA C++ answer through the real pass on a GPU: the scripted model's
// first answer does not compile (NVRTC's error goes back to it in the repair
// round), the second compiles, is verified against the original MLIR kernel
// and timed, and wins; the output module keeps its PTX in a gpu.binary that
// the launch calls, and still lowers.
// REQUIRES: cuda-device
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Optimizer/Inputs/with-llm-server.py %S/Inputs/llm-cuda-repair.json %t/requests.jsonl -- %autoprof_opt %S/optimize-llm.mlir --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:{port}/v1 model=m report=%t/report.json" -o %t/out.mlir 2> %t/stderr.txt
// RUN: FileCheck %s --input-file=%t/stderr.txt --check-prefix=SUMMARY
// RUN: FileCheck %s --input-file=%t/out.mlir --check-prefix=KEPT
// RUN: FileCheck %s --input-file=%t/report.json --check-prefix=REPORT
// RUN: FileCheck %s --input-file=%t/requests.jsonl --check-prefix=PROMPT
// RUN: %autoprof_opt %t/out.mlir --autoprof-lower-to-ptx -o /dev/null

// SUMMARY: autoprof-optimize: @repeat_add llm#1: verified, {{[0-9.]+}} us against {{[0-9.]+}} us (noise {{[0-9.]+}}); re-timed alongside the incumbent: {{[0-9.]+}} us against {{[0-9.]+}} us, accepted
// SUMMARY: autoprof-optimize: @repeat_add: {{[0-9.]+}} us -> {{[0-9.]+}} us ({{[0-9.]+}}x) with llm#1; 1 candidates: 1 verified, 0 rejected, 0 not run

// KEPT: gpu.binary @kernels_repeat_add_cuda [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, assembly = "{{.*}}.visible .entry repeat_add(
// KEPT: gpu.launch_func  @kernels_repeat_add_cuda::@repeat_add

// REPORT: "accepted": [
// REPORT-NEXT: "llm#1"
// REPORT: "language": "cuda",
// REPORT: "repaired": true,
// REPORT: "status": "verified",

// PROMPT: That answer cannot be used: the candidate does not compile: NVRTC could not compile 'repeat_add' for compute_90
