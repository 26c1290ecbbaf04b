// A kernel launched twice, with other sizes and scalars each time: a
// candidate verified and timed on the first launch is verified on the second
// as well (a job without timing), and rejected when it fails there.
// RUN: rm -f %t.jobs
// RUN: env AUTOPROF_FAKE_JOBS=%t.jobs %autoprof_opt %s --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: %python -c "import json, sys; jobs = [json.loads(l) for l in open(sys.argv[1])]; second = [j for j in jobs if 'candidate' in j and 'time' not in j]; sys.exit(0 if len(second) == 1 and second[0]['kernel']['launch']['params'][-1]['value'] == 256 and second[0]['candidate']['launch']['params'][-1]['value'] == 256 else 'jobs: %%s' %% [sorted(j) for j in jobs])" %t.jobs
// BOTH: @scale {{[a-z-]+=[0-9]+}}: verified, 50.00 us against 100.00 us {{.*}}, accepted
// RUN: env AUTOPROF_FAKE_REJECT_UNTIMED=1 %autoprof_opt %s --autoprof-optimize="budget=1 worker=%S/Inputs/fake-worker.py" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: @scale {{[a-z-]+=[0-9]+}}: rejected (launch 2 of 2: wrong result on the stand-in device)
// SECOND: @scale: 100.00 us -> 100.00 us (1.00x) (original kept)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<65536xf32>, %y: memref<65536xf32>, %n: i64) kernel {
      %cst = arith.constant 2.0 : f32
      %bid = gpu.block_id x
      %i = arith.index_cast %bid : index to i64
      %in = arith.cmpi slt, %i, %n : i64
      scf.if %in {
        %v = memref.load %x[%bid] : memref<65536xf32>
        %r = arith.mulf %v, %cst : f32
        memref.store %r, %y[%bid] : memref<65536xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<65536xf32>, %y: memref<65536xf32>) {
    %c1 = arith.constant 1 : index
    %c32768 = arith.constant 32768 : index
    %c65536 = arith.constant 65536 : index
    %n128 = arith.constant 128 : i64
    %n256 = arith.constant 256 : i64
    gpu.launch_func @kernels::@scale blocks in (%c32768, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<65536xf32>, %y : memref<65536xf32>, %n128 : i64)
    gpu.launch_func @kernels::@scale blocks in (%c65536, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<65536xf32>, %y : memref<65536xf32>, %n256 : i64)
    return
  }
}
