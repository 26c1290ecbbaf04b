// `autoprof.range = [low, high]` on a kernel argument keeps the inputs
// generated for it in that domain: the evaluation job carries it, and an
// integer input with a range gets no default index bound. A range the
// generator cannot honour is refused at the launch. The stand-in worker
// (/bin/false) writes no result, so the pass fails after writing the job.
// RUN: rm -rf %t && not autoprof-opt %s --autoprof-profile="job-dir=%t worker=/bin/false" -o /dev/null
// RUN: FileCheck %s --input-file=%t/ranged.json
// RUN: sed 's/autoprof.range = \[-3 : i32, 3 : i32\]/autoprof.range = [3 : i32, -3 : i32]/' %s > %t.bad.mlir
// RUN: not autoprof-opt %t.bad.mlir --autoprof-profile="job-dir=%t/bad worker=/bin/false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: sed 's/autoprof.range = \[0.0 : f32, 2.0 : f32\]/autoprof.range = [0.0 : f32, 2.0 : f32], autoprof.index_bound = 4 : i64/' %s > %t.both.mlir
// RUN: not autoprof-opt %t.both.mlir --autoprof-profile="job-dir=%t/both worker=/bin/false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH

// CHECK: "count": 256,
// CHECK-NEXT: "dtype": "f32",
// CHECK-NEXT: "kind": "buffer",
// CHECK-NEXT: "range": [
// CHECK-NEXT: 0,
// CHECK-NEXT: 2
// CHECK-NEXT: ],
// CHECK-NEXT: "role": "input"
// CHECK: "count": 256,
// CHECK-NEXT: "dtype": "i32",
// CHECK-NEXT: "kind": "buffer",
// CHECK-NEXT: "range": [
// CHECK-NEXT: -3,
// CHECK-NEXT: 3
// CHECK-NEXT: ],
// CHECK-NEXT: "role": "input"
// CHECK-NOT: "index_bound"

// BAD: error: argument #1 of @ranged: autoprof.range [3, -3]: a value range needs two finite bounds, the first below the second
// BOTH: error: argument #0 of @ranged: autoprof.range [0, 2]: a value range and an index bound cannot both be given

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ranged(%x: memref<256xf32> {autoprof.range = [0.0 : f32, 2.0 : f32]},
                     %shift: memref<256xi32> {autoprof.range = [-3 : i32, 3 : i32]},
                     %out: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xf32>
      %s = memref.load %shift[%i] : memref<256xi32>
      %f = arith.sitofp %s : i32 to f32
      %r = math.sqrt %v : f32
      %y = arith.addf %r, %f : f32
      memref.store %y, %out[%i] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %shift: memref<256xi32>, %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@ranged blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<256xf32>, %shift : memref<256xi32>, %out : memref<256xf32>)
    return
  }
}
