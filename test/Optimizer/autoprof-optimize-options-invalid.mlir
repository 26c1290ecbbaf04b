// The options of the passes that run jobs are checked before any job runs:
// a time budget that is not a finite number of seconds from 0 to 3600, a
// negative device and an unknown chip are refused with the option's name.
// RUN: not autoprof-opt %S/../Corpus/saxpy.mlir --autoprof-optimize="time-budget=nan budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not autoprof-opt %S/../Corpus/saxpy.mlir --autoprof-optimize="time-budget=inf budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=INF
// RUN: not autoprof-opt %S/../Corpus/saxpy.mlir --autoprof-optimize="time-budget=-1 budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not autoprof-opt %S/../Corpus/saxpy.mlir --autoprof-optimize="device=-7 budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not autoprof-opt %S/../Corpus/saxpy.mlir --autoprof-optimize="chip=sm_9000 budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not autoprof-opt %S/../Corpus/saxpy.mlir --autoprof-profile="time-budget=inf worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROFILE
// RUN: not autoprof-opt %S/../Corpus/saxpy.mlir --autoprof-verify-kernels="device=-1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// NAN: saxpy.mlir:{{[0-9]+}}:1: error: autoprof-optimize: option time-budget: expected seconds from 0 to 3600, got nan
// NAN-NOT: verified
// INF: error: autoprof-optimize: option time-budget: expected seconds from 0 to 3600, got inf
// NEGATIVE: error: autoprof-optimize: option time-budget: expected seconds from 0 to 3600, got -1
// DEVICE: error: autoprof-optimize: option device: expected a CUDA device number (0 or more), got -7
// CHIP: error: autoprof-optimize: option chip: unsupported chip 'sm_9000'; expected an NVIDIA architecture from sm_75 to sm_121a supported by CUDA 13, e.g. sm_90
// PROFILE: error: autoprof-profile: option time-budget: expected seconds from 0 to 3600, got inf
// VERIFY: error: autoprof-verify-kernels: option device: expected a CUDA device number (0 or more), got -1
