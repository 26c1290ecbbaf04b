// A family whose candidate did not win has its other parameters tried after
// every other family's. A stand-in worker makes the first candidate win and
// every later one tie with it (a loss): after vectorize=4 loses, the next
// candidates are the other families', and vectorize=2 comes after them;
// block-size=512 waits behind it once block-size=128 has lost.
// RUN: %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=8 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s

// CHECK: @add_kernel coalesce=32: verified, {{.*}}, accepted
// CHECK-NEXT: @add_kernel vectorize=4: verified
// CHECK-NOT: vectorize=2
// CHECK: @add_kernel coalesce=64: verified
// CHECK-NOT: vectorize=2
// CHECK: @add_kernel block-size=128: verified
// CHECK-NOT: vectorize=2
// CHECK: @add_kernel launch-bounds=1: verified
// CHECK-NEXT: @add_kernel vectorize=2: verified
// CHECK-NEXT: @add_kernel block-size=512: verified
// CHECK-NEXT: @add_kernel: 100.00 us -> 50.00 us (2.00x) with coalesce=32; 8 candidates
