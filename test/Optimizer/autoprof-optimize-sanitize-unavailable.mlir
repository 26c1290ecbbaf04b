// Where compute-sanitizer is not installed, sanitize= warns once, the report
// records that no sanitizer ran, and would-be winners are accepted on the
// other checks alone.
// UNSUPPORTED: compute-sanitizer
// RUN: env CUDA_HOME=%t.no-cuda %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 sanitize=racecheck worker=%S/Inputs/fake-worker.py report=%t.json" -o /dev/null 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// CHECK: warning: sanitize: compute-sanitizer was not found (looked on PATH, {{.*}}no-cuda/bin/compute-sanitizer, /usr/local/cuda/bin/compute-sanitizer); it comes with the CUDA toolkit; would-be winners are accepted on the other checks alone, without racecheck
// CHECK-NOT: warning: sanitize
// CHECK: @add_kernel: 100.00 us -> 50.00 us (2.00x) with coalesce=32
// REPORT: "sanitizer": "not run (racecheck asked for): compute-sanitizer was not found
