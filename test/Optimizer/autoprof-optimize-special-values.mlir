// The optimizer verifies candidates on special float inputs (NaN,
// infinities, -0, subnormals) as well when the original kernel tolerates
// them, and says why not when it does not.

// saxpy reads floats and only computes with them: five distributions.
// RUN: rm -f %t.saxpy.jobs
// RUN: env AUTOPROF_FAKE_JOBS=%t.saxpy.jobs %autoprof_opt %S/../Corpus/saxpy.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SAXPY
// RUN: FileCheck %s --check-prefix=SAXPY-JOBS < %t.saxpy.jobs
// SAXPY-NOT: without special float inputs
// SAXPY-JOBS: "candidate":
// SAXPY-JOBS-SAME: "distributions": ["normal", "uniform", "large", "small_int", "special"]

// The histogram turns each float into a bin index: a NaN would become an
// address. Four distributions, and a remark that says why.
// RUN: rm -f %t.histogram.jobs
// RUN: env AUTOPROF_FAKE_JOBS=%t.histogram.jobs %autoprof_opt %S/../Corpus/histogram_atomic.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HISTOGRAM
// RUN: FileCheck %s --check-prefix=HISTOGRAM-JOBS < %t.histogram.jobs
// HISTOGRAM: remark: @{{[a-z_0-9]+}} is verified without special float inputs: it turns a float into an integer (arith.fptosi)
// HISTOGRAM-JOBS: "candidate":
// HISTOGRAM-JOBS-SAME: "distributions": ["normal", "uniform", "large", "small_int"]
// HISTOGRAM-JOBS-NOT: "special"

// A kernel with a loop whose end its floats decide: an infinity would keep
// it running.
// RUN: %autoprof_opt %s --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHILE
// WHILE: remark: @halve_until_small is verified without special float inputs: it has a loop or branch of its own (scf.while)

// No float buffer to read: nothing to replace.
// RUN: %autoprof_opt %S/../Corpus/mandelbrot_divergent.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFLOATS
// NOFLOATS: remark: @mandelbrot is verified without special float inputs: it reads no float buffer

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @halve_until_small(%in: memref<65536xf32>, %out: memref<65536xf32>) kernel {
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %dx = gpu.block_dim x
      %i0 = arith.muli %bx, %dx : index
      %i = arith.addi %i0, %tx : index
      %v = memref.load %in[%i] : memref<65536xf32>
      %one = arith.constant 1.0 : f32
      %half = arith.constant 0.5 : f32
      %r = scf.while (%x = %v) : (f32) -> f32 {
        %big = arith.cmpf ogt, %x, %one : f32
        scf.condition(%big) %x : f32
      } do {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %half : f32
        scf.yield %y : f32
      }
      memref.store %r, %out[%i] : memref<65536xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %in = gpu.alloc() : memref<65536xf32>
    %out = gpu.alloc() : memref<65536xf32>
    gpu.launch_func @kernels::@halve_until_small blocks in (%c256, %c1, %c1) threads in (%c256, %c1, %c1) args(%in : memref<65536xf32>, %out : memref<65536xf32>)
    return
  }
}
