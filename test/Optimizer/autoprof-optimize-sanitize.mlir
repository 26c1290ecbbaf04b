// With sanitize=, a candidate that would win is launched once more under
// compute-sanitizer (here a stand-in that runs the stand-in worker) before it
// is accepted: a tool that reports an error rejects it with the tool's
// report; a clean run lets it go on to the re-timing.

// racecheck reports a race in the would-be winner: rejected, the original
// kept. The run launches the candidate alone, once after one launch per
// input set, on its own parameter list.
// RUN: rm -f %t.race.jobs %t.race.runs
// RUN: env AUTOPROF_FAKE_SANITIZER_FINDING=racecheck:add_kernel AUTOPROF_FAKE_JOBS=%t.race.jobs AUTOPROF_FAKE_SANITIZER_RUNS=%t.race.runs %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 sanitize=racecheck sanitizer=%S/Inputs/fake-sanitizer.py worker=%S/Inputs/fake-worker.py report=%t.race.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: FileCheck %s --check-prefix=RACE-REPORT < %t.race.json
// RUN: FileCheck %s --check-prefix=RACE-RUNS < %t.race.runs
// RUN: grep '"max_repetitions": 1,' %t.race.jobs | FileCheck %s --check-prefix=RACE-JOB
// RACE: @add_kernel coalesce=32: rejected (compute-sanitizer --tool racecheck reported: Error: Race reported between Write access at add_kernel+0x90 and Read access at add_kernel+0xb0 [64 hazards]; RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings))
// RACE-NOT: re-timed
// RACE: @add_kernel: 100.00 us -> 100.00 us (1.00x) (original kept); 1 candidates: 0 verified, 1 rejected
// RACE-REPORT: "sanitizer": "racecheck: Error: Race reported between
// RACE-REPORT: "status": "rejected"
// RACE-REPORT: "sanitizer": "racecheck ({{.*}}fake-sanitizer.py)"
// RACE-RUNS: {{^racecheck$}}
// RACE-RUNS-NOT: {{.}}
// RACE-JOB-NOT: "candidate"
// RACE-JOB: "flush_l2": false
// RACE-JOB-SAME: "min_repetitions": 1
// RACE-JOB-SAME: "warmup": 0

// memcheck finds an access outside every allocation: rejected before
// racecheck runs.
// RUN: rm -f %t.mem.runs
// RUN: env AUTOPROF_FAKE_SANITIZER_FINDING=memcheck:add_kernel AUTOPROF_FAKE_SANITIZER_RUNS=%t.mem.runs %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 sanitize=all sanitizer=%S/Inputs/fake-sanitizer.py worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEM
// RUN: FileCheck %s --check-prefix=MEM-RUNS < %t.mem.runs
// MEM: @add_kernel coalesce=32: rejected (compute-sanitizer --tool memcheck reported: Invalid __global__ write of size 4 bytes; at add_kernel+0x70; ERROR SUMMARY: 1 error)
// MEM-RUNS: {{^memcheck$}}
// MEM-RUNS-NOT: racecheck

// Both tools find nothing: the candidate is re-timed and accepted, the
// report says what each tool gave.
// RUN: rm -f %t.clean.runs
// RUN: env AUTOPROF_FAKE_SANITIZER_RUNS=%t.clean.runs %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 sanitize=all sanitizer=%S/Inputs/fake-sanitizer.py worker=%S/Inputs/fake-worker.py report=%t.clean.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: FileCheck %s --check-prefix=CLEAN-REPORT < %t.clean.json
// RUN: FileCheck %s --check-prefix=CLEAN-RUNS < %t.clean.runs
// CLEAN: @add_kernel coalesce=32: verified, 50.00 us against 100.00 us (noise 1.00); re-timed alongside the incumbent: 50.00 us against 100.00 us, accepted
// CLEAN: @add_kernel: 100.00 us -> 50.00 us (2.00x) with coalesce=32
// CLEAN-REPORT: "sanitizer": "memcheck: no error; racecheck: no error",
// CLEAN-REPORT: "sanitizer": "memcheck, racecheck ({{.*}}fake-sanitizer.py)"
// CLEAN-RUNS: {{^memcheck$}}
// CLEAN-RUNS-NEXT: {{^racecheck$}}

// Without sanitize=, nothing runs under a sanitizer.
// RUN: rm -f %t.none.runs
// RUN: env AUTOPROF_FAKE_SANITIZER_FINDING=racecheck:add_kernel AUTOPROF_FAKE_SANITIZER_RUNS=%t.none.runs %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 sanitizer=%S/Inputs/fake-sanitizer.py worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not test -e %t.none.runs
// NONE: @add_kernel: 100.00 us -> 50.00 us (2.00x) with coalesce=32

// A sanitizer= path that is not an executable is an error, and the module
// is left as it was.
// RUN: not %autoprof_opt %S/../Corpus/Upstream/add.tile16x16.mlir --autoprof-optimize="budget=1 sanitize=racecheck sanitizer=%t.missing worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: compute-sanitizer '{{.*}}.missing' is not an executable file
