// On a chip without the tensor-core product mma-tile uses (m16n8k16 on
// bf16 needs sm_80), the optimizer says why that candidate cannot be
// evaluated and goes on with the next one, instead of the NVPTX backend
// aborting the whole run.
// The search collects what the starting tree asks for (the counters its
// order of candidates follows), not the default tree learned for the
// search, whose CudaForge list ranks other candidates first.
// RUN: rm -f %t.count
// RUN: env AUTOPROF_FAKE_CANDIDATE_US=50,40,30 AUTOPROF_FAKE_COUNTER=%t.count %autoprof_opt %S/../Corpus/Upstream/matmul_bf16.tile16x16.mlir --autoprof-optimize="tree-file=%repo/lib/Transforms/StartingTree.mlir budget=3 chip=sm_75 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s

// CHECK: @matmul_bf16_kernel register-accumulate=1: verified, 50.00 us against 100.00 us {{.*}}, accepted
// CHECK-NEXT: @matmul_bf16_kernel mma-tile=128: the variant cannot be evaluated: the m16n8k16 matrix product on bf16 needs sm_80 or newer; chip is sm_75
// CHECK-NEXT: @matmul_bf16_kernel contraction-tile=128: verified, 40.00 us against 50.00 us {{.*}}, accepted
// CHECK-NEXT: @matmul_bf16_kernel: 100.00 us -> 40.00 us (2.50x) with register-accumulate=1, contraction-tile=128; 3 candidates: 2 verified, 0 rejected, 1 not run
