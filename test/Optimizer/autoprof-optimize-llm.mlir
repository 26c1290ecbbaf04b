// The LLM proposer through the real pass, on any machine: a scripted
// loopback server plays the model and a stand-in worker plays the GPU (the
// baseline takes 100 us, every candidate is verified at 50 us).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-good.json %t/good.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py report=%t/good.report" -o %t/good.mlir
// RUN: FileCheck %s --input-file=%t/good.mlir --check-prefix=GOOD
// RUN: FileCheck %s --input-file=%t/good.report --check-prefix=GOOD-REPORT
// RUN: FileCheck %s --input-file=%t/good.jsonl --check-prefix=PROMPT
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-repair.json %t/repair.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py report=%t/repair.report" -o %t/repair.mlir
// RUN: FileCheck %s --input-file=%t/repair.report --check-prefix=REPAIR
// RUN: FileCheck %s --input-file=%t/repair.jsonl --check-prefix=REPAIR-PROMPT
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-no-code.json %t/nocode.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py report=%t/nocode.report" -o %t/nocode.mlir
// RUN: FileCheck %s --input-file=%t/nocode.report --check-prefix=NOCODE
// RUN: FileCheck %s --input-file=%t/nocode.mlir --check-prefix=KEPT
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-wrong-signature.json %t/sig.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py report=%t/sig.report" -o %t/sig.mlir
// RUN: FileCheck %s --input-file=%t/sig.report --check-prefix=SIGNATURE
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-cuda.json %t/cuda.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py report=%t/cuda.report" -o %t/cuda.mlir
// RUN: FileCheck %s --input-file=%t/cuda.report --check-prefix=CUDA
// RUN: FileCheck %s --input-file=%t/cuda.mlir --check-prefix=CUDA-KEPT
// RUN: FileCheck %s --input-file=%t/cuda.jsonl --check-prefix=CUDA-PROMPT
// RUN: %python %S/Inputs/with-llm-server.py %S/Inputs/llm-cuda-mangled.json %t/mangled.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:{port}/v1 model=m worker=%S/Inputs/fake-worker.py report=%t/mangled.report" -o %t/mangled.mlir
// RUN: FileCheck %s --input-file=%t/mangled.report --check-prefix=MANGLED
// RUN: FileCheck %s --input-file=%t/mangled.mlir --check-prefix=KEPT
// RUN: not %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 endpoint=http://127.0.0.1:1/v1 model=m llm-retries=0 worker=%S/Inputs/fake-worker.py" -o %t/down.mlir 2>&1 | FileCheck %s --check-prefix=DOWN
// RUN: not %autoprof_opt %s --autoprof-optimize="proposer=llm budget=1 model=m replay-only cache-dir=%t/cache worker=%S/Inputs/fake-worker.py" -o %t/replay.mlir 2>&1 | FileCheck %s --check-prefix=REPLAY

// GOOD-LABEL: gpu.func @scale
// GOOD: arith.constant 3.000000e+00 : f32
// GOOD-NOT: arith.constant 2.000000e+00

// GOOD-REPORT: "accepted": [
// GOOD-REPORT-NEXT: "llm#1"
// The model's prompt carries the starting tree's metrics: the tree learned
// for the built-in proposer is not its default.
// GOOD-REPORT: "profile_tree": "h200_start",
// GOOD-REPORT: "completion_tokens": 45,
// GOOD-REPORT: "prompt_tokens": 321,
// GOOD-REPORT: "source": "llm",
// GOOD-REPORT: "status": "verified",
// GOOD-REPORT: "speedup": 2

// The prompt carries the kernel, its launch, the device, the metrics with
// their meanings and the bottleneck facts they establish (the stand-in
// worker reads 1.0 for every metric: 1% of DRAM bandwidth is not DRAM-bound).
// PROMPT: Device: Stand-in GPU, 132 SMs
// PROMPT-SAME: gpu.func @scale
// PROMPT-SAME: Launch: grid (16, 1, 1), block (256, 1, 1)
// PROMPT-SAME: gpu__time_duration.sum = 1 ns:
// PROMPT-SAME: Bottleneck facts from these metrics:\\n- dram-bound (DRAM bandwidth is near its peak): false, dram__throughput.avg.pct_of_peak_sustained_elapsed = 1.00 < 60.00\\n

// REPAIR: "repaired": true,
// REPAIR: "status": "verified",
// REPAIR-PROMPT: That answer cannot be used: the answer does not parse:

// NOCODE: "reason": "no code block in the answer",
// NOCODE-NEXT: "repaired": true,
// NOCODE: "status": "rejected"
// KEPT-LABEL: gpu.func @scale
// KEPT: arith.constant 2.000000e+00 : f32

// SIGNATURE: "reason": "the answer's kernel has signature (memref<4096xf32>) -> () (expected (memref<4096xf32>, memref<4096xf32>) -> ())",

// A CUDA answer that does not compile gets the repair round; the compiled
// one is verified, kept as a gpu.binary, and the launch calls it.
// CUDA: "accepted": [
// CUDA-NEXT: "llm#1"
// CUDA: "language": "cuda",
// CUDA: "repaired": true,
// CUDA: "status": "verified",
// CUDA: "text": "extern \"C\" __global__ void scale(const float *x, float *y) {
// CUDA-KEPT: gpu.module @kernels
// CUDA-KEPT: gpu.binary @kernels_scale_cuda [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, assembly = "// compiled by the stand-in worker for compute_90
// CUDA-KEPT: gpu.launch_func  @kernels_scale_cuda::@scale
// The prompt gives the C declaration under the launch's ABI, and the repair
// message carries the compiler's complaint.
// CUDA-PROMPT: C declaration for a CUDA C++ answer (bare pointers, in this order): extern {{.*}}C{{.*}} __global__ void scale(const float *arg0, float *arg1).
// CUDA-PROMPT: That answer cannot be used: the candidate does not compile: #error in scale.cu

// Without extern "C" the name is mangled and no launch could find it.
// MANGLED: "reason": "the CUDA answer does not define extern \"C\" __global__ void scale",
// MANGLED: "status": "rejected"

// DOWN: error: the language model could not be asked about @scale: {{.*}}http://127.0.0.1:1/v1

// REPLAY: error: the language model could not be asked about @scale: no cached answer for this request (replay-only)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<4096xf32>, %y: memref<4096xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4096xf32>
      %two = arith.constant 2.000000e+00 : f32
      %r = arith.mulf %v, %two : f32
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
