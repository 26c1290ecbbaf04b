// The optimizer on a GPU: a baseline is measured, candidates are verified
// against the original and timed, the report lists every one, and the output
// module is valid IR whatever won. The shipped tree asks for launch metrics
// alone for a kernel this small (no replay); the starting tree, given as a
// file, has its counters collected on the GPU before the search.
// REQUIRES: cuda-device
// RUN: autoprof-opt %s --autoprof-optimize="budget=4 report=%t.json" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: autoprof-opt %t.mlir --autoprof-lower-to-ptx -o /dev/null
// RUN: FileCheck %s --input-file=%t.json --check-prefix=REPORT
// RUN: autoprof-opt %s --autoprof-optimize="budget=1 report=%t.counters.json tree-file=%repo/lib/Transforms/StartingTree.mlir" -o /dev/null
// RUN: FileCheck %s --input-file=%t.counters.json --check-prefix=COUNTERS

// SUMMARY: autoprof-optimize: @copy_scale {{.*}}: verified,
// SUMMARY: autoprof-optimize: @copy_scale: {{[0-9.]+}} us -> {{[0-9.]+}} us ({{[0-9.]+}}x){{.*}}; 4 candidates: 4 verified, 0 rejected, 0 not run

// REPORT: "kernels": [
// REPORT: "accepted": [
// REPORT: "baseline": {
// REPORT: "name": "launch__grid_size",
// REPORT: "profile_leaf": 3,
// REPORT: "profile_tree": "sm90_learned",
// REPORT: "replay_passes": 0,
// REPORT: "candidates": [
// REPORT: "status": "verified",
// REPORT: "gpu": "NVIDIA {{.+}}",
// REPORT: "kernel": "kernels::copy_scale",

// COUNTERS: "baseline": {
// COUNTERS: "name": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
// COUNTERS: "profile_tree": "h200_start",
// COUNTERS: "replay_passes": {{[1-9][0-9]*}},

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy_scale(%x: memref<16777216xf32>, %y: memref<16777216xf32>) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<16777216xf32>
      %two = arith.constant 2.0 : f32
      %r = arith.mulf %v, %two : f32
      memref.store %r, %y[%i] : memref<16777216xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c524288 = arith.constant 524288 : index
    %x = memref.alloc() : memref<16777216xf32>
    %y = memref.alloc() : memref<16777216xf32>
    gpu.launch_func @kernels::@copy_scale blocks in (%c524288, %c1, %c1) threads in (%c32, %c1, %c1) args(%x : memref<16777216xf32>, %y : memref<16777216xf32>)
    return
  }
}
