// Without profiling (no-profile=true) the search still re-ranks after a win,
// on the winner's static features: on upstream's f16 addition in 16x16
// tiles, scattered loads rank vectorize low until coalesce=32 has won, and
// then high, as with counters. No job asks for a metric.
// RUN: rm -f %t.count %t.jobs
// RUN: env AUTOPROF_FAKE_CANDIDATE_US=50,40,30 AUTOPROF_FAKE_COUNTER=%t.count AUTOPROF_FAKE_JOBS=%t.jobs %autoprof_opt %S/../Corpus/Upstream/add_f16.tile16x16.mlir --autoprof-optimize="budget=3 no-profile=true worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s
// RUN: not grep '"metrics": \["' %t.jobs
// The same search with counters tries the same candidates.
// RUN: rm -f %t.count
// RUN: env AUTOPROF_FAKE_CANDIDATE_US=50,40,30 AUTOPROF_FAKE_COUNTER=%t.count %autoprof_opt %S/../Corpus/Upstream/add_f16.tile16x16.mlir --autoprof-optimize="budget=3 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s

// CHECK: @add_f16_kernel coalesce=32: verified, 50.00 us against 100.00 us {{.*}}, accepted
// CHECK-NEXT: @add_f16_kernel vectorize=8: verified, 40.00 us against 50.00 us {{.*}}, accepted
// CHECK-NEXT: @add_f16_kernel block-size=128: verified, 30.00 us against 40.00 us {{.*}}, accepted
// CHECK-NEXT: @add_f16_kernel: 100.00 us -> 30.00 us (3.33x) with coalesce=32, vectorize=8, block-size=128; 3 candidates
