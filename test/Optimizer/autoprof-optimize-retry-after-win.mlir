// A rewrite that lost to one incumbent is proposed again once another
// rewrite has won: the winner is another kernel. On upstream's tiled
// matrix-vector product a stand-in worker makes register-accumulate=1 and
// map-lanes=32 tie with the 16-thread blocks it starts from (losses),
// block-size=256 win, and every later candidate win too:
// register-accumulate=1 is tried again on the 256-thread blocks and kept.
// RUN: rm -f %t.count
// RUN: env AUTOPROF_FAKE_CANDIDATE_US=100,100,50,40,30 AUTOPROF_FAKE_COUNTER=%t.count %autoprof_opt %S/../Corpus/Upstream/matvec.tile16x16.mlir --autoprof-optimize="budget=4 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s

// CHECK: @matvec_kernel register-accumulate=1: verified, 100.00 us against 100.00 us
// CHECK-NOT: accepted
// CHECK-NEXT: @matvec_kernel map-lanes=32: verified, 100.00 us against 100.00 us
// CHECK-NOT: accepted
// CHECK-NEXT: @matvec_kernel block-size=256: verified, 50.00 us against 100.00 us {{.*}}, accepted
// CHECK-NEXT: @matvec_kernel register-accumulate=1: verified, 40.00 us against 50.00 us {{.*}}, accepted
// CHECK-NEXT: @matvec_kernel: 100.00 us -> 40.00 us (2.50x) with block-size=256, register-accumulate=1; 4 candidates
