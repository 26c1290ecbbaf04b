// Hostile MLIR answers through the real pass on a GPU (each lowered to PTX,
// verified against the original kernel and rejected with its reason), and
// correct ones verified.
// @affine (f32, 1000000 elements in blocks of 256):
// 1. a skipped tail block (a guard by whole blocks): the poison stays;
// 2. a write into an input;
// 3. reading the poisoned output: it computes only where the output holds a
//    NaN, as the 0xff poison does, and is caught by the other poison;
// 4. a fused multiply-add: verified.
// @affine64 (f64):
// 5. computed in f32, 6. computed in f16: rejected by the precision check
//    before they run; where precision=tf32 lets the f32 one run, its values
//    are beyond the f64 tolerance;
// 7. x + x + x for 3 * x, 8. a fused multiply-add: verified.
// REQUIRES: cuda-device
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Optimizer/Inputs/with-llm-server.py %S/Inputs/llm-hostile-mlir.json %t/requests.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=4 time-budget=0.1 endpoint=http://127.0.0.1:{port}/v1 model=m" -o /dev/null 2> %t/stderr.txt
// RUN: FileCheck %s --input-file=%t/stderr.txt
// RUN: %python %S/../Optimizer/Inputs/with-llm-server.py %S/Inputs/llm-hostile-mlir.json %t/requests-tf32.jsonl -- %autoprof_opt %s --autoprof-optimize="proposer=llm budget=4 time-budget=0.1 precision=tf32 endpoint=http://127.0.0.1:{port}/v1 model=m" -o /dev/null 2> %t/stderr-tf32.txt
// RUN: FileCheck %s --check-prefix=TF32 --input-file=%t/stderr-tf32.txt

// CHECK: @affine llm#1: rejected (did not write: parameter 1 (f32 output) element 999936 still holds the poison value (bytes 0xff) where the reference computed {{.*}} (64 of 1000000 elements differ; seed 1, distribution normal))
// CHECK: @affine llm#2: rejected (wrote into an input: parameter 0 (f32 input) element
// CHECK: @affine llm#3: rejected (did not write: parameter 1 (f32 output) element 0 still holds the poison value (bytes 0x5a)
// CHECK: @affine llm#4: verified
// CHECK: @affine64 llm#1: rejected (computes in a lower precision: its products' operands are f32 where the original's are f64 at the least; precision=tf32 allows it)
// CHECK: @affine64 llm#2: rejected (computes in a lower precision: its products' operands are f16 where the original's are f64 at the least; precision=f16 allows it)
// CHECK: @affine64 llm#3: verified
// CHECK: @affine64 llm#4: verified

// TF32: @affine64 llm#1: rejected (wrong result: parameter 1 (f64 output) element
// TF32: @affine64 llm#2: rejected (computes in a lower precision: its products' operands are f16
// TF32: @affine64 llm#3: verified

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @affine(%x: memref<1000000xf32>, %y: memref<1000000xf32>) kernel {
      %n = arith.constant 1000000 : index
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<1000000xf32>
        %m = arith.mulf %v, %two : f32
        %r = arith.addf %m, %one : f32
        memref.store %r, %y[%i] : memref<1000000xf32>
      }
      gpu.return
    }
    gpu.func @affine64(%x: memref<1000000xf64>, %y: memref<1000000xf64>) kernel {
      %n = arith.constant 1000000 : index
      %three = arith.constant 3.0 : f64
      %tenth = arith.constant 0.1 : f64
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<1000000xf64>
        %m = arith.mulf %v, %three : f64
        %r = arith.addf %m, %tenth : f64
        memref.store %r, %y[%i] : memref<1000000xf64>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c3907 = arith.constant 3907 : index
    %c256 = arith.constant 256 : index
    %x = memref.alloc() : memref<1000000xf32>
    %y = memref.alloc() : memref<1000000xf32>
    %x64 = memref.alloc() : memref<1000000xf64>
    %y64 = memref.alloc() : memref<1000000xf64>
    gpu.launch_func @kernels::@affine blocks in (%c3907, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1000000xf32>, %y : memref<1000000xf32>)
    gpu.launch_func @kernels::@affine64 blocks in (%c3907, %c1, %c1) threads in (%c256, %c1, %c1) args(%x64 : memref<1000000xf64>, %y64 : memref<1000000xf64>)
    return
  }
}
