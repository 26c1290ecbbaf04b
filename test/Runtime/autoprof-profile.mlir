// The profile pass on a GPU: every launched kernel of a corpus module gets a
// measurement with the tree-selected metrics and the replay passes they took.
// REQUIRES: cuda-device
// RUN: autoprof-opt %S/../Corpus/saxpy.mlir --autoprof-profile | FileCheck %s --check-prefix=SAXPY
// RUN: autoprof-opt %S/../Corpus/reduce_max_two_pass.mlir --autoprof-profile="metrics=gpu__time_duration.sum,launch__registers_per_thread,bogus__metric.sum" | FileCheck %s --check-prefix=EXPLICIT

// The measurement also completes the kernel's features with the dynamic ones.
// SAXPY-LABEL: gpu.func @saxpy
// SAXPY-SAME: autoprof.features = {
// SAXPY-SAME: dram_bandwidth_fraction = {{[0-9.e+-]+}} : f64
// SAXPY-SAME: duration_us = {{[0-9.e+-]+}} : f64
// SAXPY-SAME: waves_per_sm = {{[0-9.e+-]+}} : f64
// SAXPY-SAME: autoprof.measurement = {gpu = "NVIDIA {{[^"]+}}"
// SAXPY-SAME: metrics = {
// SAXPY-SAME: dram__bytes_read.sum =
// SAXPY-SAME: replay_passes = {{[1-9][0-9]*}} : i64

// EXPLICIT-LABEL: gpu.func @block_max_partials
// EXPLICIT-SAME: autoprof.measurement = {
// EXPLICIT-SAME: metrics = {gpu__time_duration.sum = {{.*}}, launch__registers_per_thread =
// EXPLICIT-SAME: missing = ["bogus__metric.sum: {{.*}}"]
// EXPLICIT-LABEL: gpu.func @final_max
// EXPLICIT-SAME: autoprof.measurement = {
