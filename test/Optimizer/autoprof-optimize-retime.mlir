// A candidate whose first timing wins is timed once more, interleaved with
// the incumbent in one worker run, and accepted only when it wins there
// too; a re-timing during which the SM clock dropped is run again, and
// flagged when the clock drops again.

// The re-timing finds the candidate no faster: the original is kept.
// RUN: env AUTOPROF_FAKE_RETIME_US=100,100 %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py report=%t.tie.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIE
// RUN: FileCheck %s --check-prefix=TIE-REPORT < %t.tie.json
// TIE: @add_kernel coalesce=32: verified, 50.00 us against 100.00 us (noise 1.00); re-timed alongside the incumbent: 100.00 us against 100.00 us, not confirmed
// TIE-NOT: accepted
// TIE: @add_kernel: 100.00 us -> 100.00 us (1.00x) (original kept)
// TIE-REPORT: "accepted": false,
// TIE-REPORT: "retimed": {
// TIE-REPORT-NEXT: "candidate": {
// TIE-REPORT: "median_us": 100
// TIE-REPORT: "clock_dropped": false,
// TIE-REPORT-NEXT: "confirmed": false,
// TIE-REPORT-NEXT: "incumbent": {
// TIE-REPORT: "median_us": 100
// TIE-REPORT: "runs": 1,

// The re-timing confirms the win; the job times the candidate with the
// incumbent (here the original) interleaved.
// RUN: rm -f %t.jobs
// RUN: env AUTOPROF_FAKE_JOBS=%t.jobs %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIN
// RUN: grep -c '"interleaved_with"' %t.jobs | FileCheck %s --check-prefix=ONE
// WIN: @add_kernel coalesce=32: verified, 50.00 us against 100.00 us (noise 1.00); re-timed alongside the incumbent: 50.00 us against 100.00 us, accepted
// WIN: @add_kernel: 100.00 us -> 50.00 us (2.00x) with coalesce=32
// ONE: {{^1$}}

// The SM clock drops during both re-timings: run twice, flagged, and
// decided by the second.
// RUN: rm -f %t.drop.jobs
// RUN: env AUTOPROF_FAKE_CLOCK_DROP=1 AUTOPROF_FAKE_JOBS=%t.drop.jobs %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py report=%t.drop.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DROP
// RUN: grep -c '"interleaved_with"' %t.drop.jobs | FileCheck %s --check-prefix=TWO
// RUN: FileCheck %s --check-prefix=DROP-REPORT < %t.drop.json
// DROP: @add_kernel coalesce=32: verified, 50.00 us against 100.00 us (noise 1.00); re-timed alongside the incumbent: 50.00 us against 100.00 us (run twice: the SM clock dropped), the SM clock dropped again, accepted
// TWO: {{^2$}}
// DROP-REPORT: "retimed": {
// DROP-REPORT: "clock_dropped": true,
// DROP-REPORT-NEXT: "confirmed": true,
// DROP-REPORT: "runs": 2,
// DROP-REPORT-NEXT: "sm_clock_khz_before": 1980000,
// DROP-REPORT-NEXT: "sm_clock_khz_min": 1500000

// A re-timing that fails costs the win, not the search.
// RUN: env AUTOPROF_FAKE_RETIME_US=broken %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: @add_kernel coalesce=32: verified, 50.00 us against 100.00 us (noise 1.00); not accepted: {{.*}}
// BROKEN: @add_kernel: 100.00 us -> 100.00 us (1.00x) (original kept)
