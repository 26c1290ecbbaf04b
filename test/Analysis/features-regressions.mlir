// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s

// Regression tests for counting decisions: private memory, thread dependence
// through loop-carried values, branches of every kind, multi-result and
// vector-dialect arithmetic.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A per-thread alloca is private memory even without a memory space:
    // only the store to %out is global.
    // CHECK-LABEL: gpu.func @alloca_default
    // CHECK-SAME: global_bytes_per_thread = 4 : i64
    // CHECK-SAME: global_load_bytes = 0 : i64, global_loads = 0 : i64, global_store_bytes = 4 : i64, global_stores = 1 : i64
    // CHECK-SAME: local_bytes = 16 : i64
    gpu.func @alloca_default(%out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %a = memref.alloca() : memref<4xf32>
      memref.store %f, %a[%c0] : memref<4xf32>
      %v = memref.load %a[%c0] : memref<4xf32>
      memref.store %v, %out[%tid] : memref<256xf32>
      gpu.return
    }
    // A thread-dependent accumulator does not make the induction variable
    // thread-dependent: the branch on %i is uniform.
    // CHECK-LABEL: gpu.func @iv_uniform
    // CHECK-SAME: , branches = 8 : i64
    // CHECK-SAME: divergent_branches = 0 : i64
    // CHECK-SAME: int_ops = 4 : i64
    gpu.func @iv_uniform(%A: memref<256xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %z = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
        %x = memref.load %A[%tid] : memref<256xf32>
        %s = arith.addf %acc, %x : f32
        %is0 = arith.cmpi eq, %i, %c0 : index
        scf.if %is0 {
          gpu.barrier
        }
        scf.yield %s : f32
      }
      memref.store %r, %out[%tid] : memref<256xf32>
      gpu.return
    }
    // math.sincos is one special function; vector.fma on 4 lanes is 8 flops
    // (+1 addf); index.constant is a constant, not integer work.
    // CHECK-LABEL: gpu.func @misc
    // CHECK-SAME: flops_f32 = 9 : i64
    // CHECK-SAME: int_ops = 0 : i64
    // CHECK-SAME: special_functions = 1 : i64
    gpu.func @misc(%A: memref<256xf32>, %out: memref<256xf32>) kernel {
      %tid = gpu.thread_id x
      %x = memref.load %A[%tid] : memref<256xf32>
      %s, %c = math.sincos %x : f32
      %v = vector.broadcast %x : f32 to vector<4xf32>
      %f = vector.fma %v, %v, %v : vector<4xf32>
      %e = vector.extract %f[0] : f32 from vector<4xf32>
      %k = index.constant 4
      %y = arith.addf %s, %e : f32
      memref.store %y, %out[%tid] : memref<256xf32>
      gpu.return
    }
    // An affine.for bounded by the thread id is a divergent loop.
    // CHECK-LABEL: gpu.func @affine_div
    // CHECK-SAME: , branches = 1 : i64, conversions = 0 : i64, divergent_branches = 1 : i64
    // CHECK-SAME: unknown_trip_loops = 1 : i64
    gpu.func @affine_div(%out: memref<256xf32>) kernel {
      %tid = gpu.thread_id x
      %f = arith.constant 1.0 : f32
      affine.for %i = 0 to %tid {
        memref.store %f, %out[%i] : memref<256xf32>
      }
      gpu.return
    }
    gpu.func @index_switch(%out: memref<256xf32>) kernel {
      %tid = gpu.thread_id x
      %f = arith.constant 1.0 : f32
      scf.index_switch %tid
      case 0 {
        memref.store %f, %out[%tid] : memref<256xf32>
        scf.yield
      }
      default {
      }
      gpu.return
    }
    gpu.func @xfer(%in: memref<256xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %p = arith.constant 0.0 : f32
      %v = vector.transfer_read %in[%c0], %p : memref<256xf32>, vector<4xf32>
      %r = vector.reduction <add>, %v : vector<4xf32> into f32
      memref.store %r, %out[%c0] : memref<256xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<256xf32>, %b: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@alloca_default blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%b : memref<256xf32>)
    gpu.launch_func @kernels::@iv_uniform blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>)
    gpu.launch_func @kernels::@misc blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>)
    gpu.launch_func @kernels::@affine_div blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%b : memref<256xf32>)
    gpu.launch_func @kernels::@index_switch blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%b : memref<256xf32>)
    gpu.launch_func @kernels::@xfer blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>)
    return
  }
}

