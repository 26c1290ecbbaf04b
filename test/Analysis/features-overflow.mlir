// RUN: autoprof-opt %s --autoprof-extract-features=normalize=false | FileCheck %s

// Loop bounds whose trip count does not fit 64 bits, and unsigned loops, are
// not constant trip counts: the body weighs 1 and the loop is counted as
// unknown, never as a negative or wrapped count. Counts that the loops'
// trips multiply past what an i64 holds saturate at its largest value.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @huge_span
    // CHECK-SAME: global_load_bytes = 4 : i64, global_loads = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 1 : i64
    gpu.func @huge_span(%x: memref<64xf32>, %y: memref<64xf32>) kernel {
      %lo = arith.constant -9223372036854775807 : i64
      %hi = arith.constant 9223372036854775807 : i64
      %one = arith.constant 1 : i64
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      %r = scf.for %i = %lo to %hi step %one iter_args(%acc = %z) -> (f32) : i64 {
        %v = memref.load %x[%c0] : memref<64xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %y[%c0] : memref<64xf32>
      gpu.return
    }
    // CHECK-LABEL: gpu.func @unsigned_loop
    // CHECK-SAME: global_load_bytes = 4 : i64, global_loads = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 1 : i64
    gpu.func @unsigned_loop(%x: memref<64xf32>, %y: memref<64xf32>) kernel {
      %lo = arith.constant 0 : i32
      %hi = arith.constant -2147483648 : i32
      %one = arith.constant 1 : i32
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      %r = scf.for unsigned %i = %lo to %hi step %one iter_args(%acc = %z) -> (f32) : i32 {
        %v = memref.load %x[%c0] : memref<64xf32>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %y[%c0] : memref<64xf32>
      gpu.return
    }
    // CHECK-LABEL: gpu.func @nested_huge
    // CHECK-SAME: flops = 9223372036854775807 : i64
    // CHECK-SAME: global_load_bytes = 9223372036854775807 : i64, global_loads = 9223372036854775807 : i64
    gpu.func @nested_huge(%x: memref<64xf32>, %y: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 4294967296 : index
      %z = arith.constant 0.0 : f32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
        %r2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> (f32) {
          %v = memref.load %x[%c0] : memref<64xf32>
          %s = arith.addf %acc2, %v : f32
          scf.yield %s : f32
        }
        scf.yield %r2 : f32
      }
      memref.store %r, %y[%c0] : memref<64xf32>
      gpu.return
    }
  }
}
