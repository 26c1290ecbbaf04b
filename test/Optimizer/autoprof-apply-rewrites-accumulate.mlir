// register-accumulate: an element a loop loads and stores every iteration is
// kept in a register; the loop must run at least once, nothing else in it
// may touch that buffer, and the buffers must not overlap (proved, or checked
// at run time).
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=register-accumulate" | FileCheck %s

// C is a host argument of unknown origin; A and B are fresh allocations, so
// no two buffers overlap and no run-time check is needed. The k-loop bound is fed by a host constant.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @matmul
    // CHECK: scf.if
    // CHECK-NEXT: %[[INIT:.*]] = memref.load %[[C:.*]][%[[I:.*]], %[[J:.*]]] : memref<64x64xf32>
    // CHECK-NEXT: %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
    // CHECK-COUNT-2: memref.load
    // CHECK-NOT: memref.load
    // CHECK: %[[NEXT:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
    // CHECK-NEXT: scf.yield %[[NEXT]] : f32
    // CHECK-NEXT: }
    // CHECK-NEXT: memref.store %[[SUM]], %[[C]][%[[I]], %[[J]]] : memref<64x64xf32>
    gpu.func @matmul(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>, %n: index, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.thread_id x
      %j = gpu.thread_id y
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        scf.for %kk = %c0 to %k step %c1 {
          %a = memref.load %A[%i, %kk] : memref<64x64xf32>
          %b = memref.load %B[%kk, %j] : memref<64x64xf32>
          %c = memref.load %C[%i, %j] : memref<64x64xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          memref.store %s, %C[%i, %j] : memref<64x64xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%C: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64x64xf32>
    %B = gpu.alloc() : memref<64x64xf32>
    gpu.launch_func @kernels::@matmul blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1) args(%A : memref<64x64xf32>, %B : memref<64x64xf32>, %C : memref<64x64xf32>, %c64 : index, %c64 : index)
    return
  }
}

// -----

// Two host arguments may be the same buffer: reading %A could observe the
// stores to %C. The kernel checks at run time that %C overlaps no other
// buffer before it runs the accumulation in a register; otherwise it runs the
// loop as written.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @may_alias
    // CHECK-SAME: (%[[A:.*]]: memref<64x64xf32>, %[[C:.*]]: memref<64x64xf32>)
    // CHECK: %[[CBEGIN:.*]] = memref.extract_aligned_pointer_as_index %[[C]]
    // CHECK: %[[CEND:.*]] = arith.addi %[[CBEGIN]], %{{.*}} : index
    // CHECK: %[[ABEGIN:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
    // CHECK: %[[AEND:.*]] = arith.addi %[[ABEGIN]], %{{.*}} : index
    // CHECK: %[[BEFORE:.*]] = arith.cmpi ule, %[[CEND]], %[[ABEGIN]]
    // CHECK: %[[AFTER:.*]] = arith.cmpi ule, %[[AEND]], %[[CBEGIN]]
    // CHECK: %[[APART:.*]] = arith.ori %[[BEFORE]], %[[AFTER]]
    // CHECK: scf.if %[[APART]] {
    // CHECK: %[[INIT:.*]] = memref.load %[[C]]
    // CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]])
    // CHECK: memref.store %[[SUM]], %[[C]]
    // CHECK: } else {
    // CHECK: scf.for
    // CHECK: memref.load %[[C]]
    // CHECK: memref.store %{{.*}}, %[[C]]
    // CHECK: gpu.return
    gpu.func @may_alias(%A: memref<64x64xf32>, %C: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %i = gpu.thread_id x
      scf.for %kk = %c0 to %c64 step %c1 {
        %a = memref.load %A[%i, %kk] : memref<64x64xf32>
        %c = memref.load %C[%i, %i] : memref<64x64xf32>
        %s = arith.addf %c, %a : f32
        memref.store %s, %C[%i, %i] : memref<64x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%A: memref<64x64xf32>, %C: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@may_alias blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%A : memref<64x64xf32>, %C : memref<64x64xf32>)
    return
  }
}

// -----

// A loop that may not run (its bound is only known at run time) must not
// gain a load and a store.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply register-accumulate=1 to @maybe_empty: no loop loads and stores one element of a kernel buffer at loop-invariant indices (with a trip count known to be positive and no barrier, atomic or call in the loop)}}
    gpu.func @maybe_empty(%C: memref<64xf32>, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      scf.for %kk = %c0 to %k step %c1 {
        %c = memref.load %C[%i] : memref<64xf32>
        %s = arith.addf %c, %one : f32
        memref.store %s, %C[%i] : memref<64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%k: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %C = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@maybe_empty blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%C : memref<64xf32>, %k : index)
    return
  }
}

// -----

// A body of several blocks cannot be versioned on the overlap check.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply register-accumulate=1 to @branchy: two buffers of a launch are neither their own allocations nor host arguments marked llvm.noalias, so they may overlap, and a kernel whose body is not a single block cannot check for the overlap at run time}}
    gpu.func @branchy(%A: memref<64x64xf32>, %C: memref<64x64xf32>, %flag: i1) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %i = gpu.thread_id x
      cf.cond_br %flag, ^work, ^done
    ^work:
      scf.for %kk = %c0 to %c64 step %c1 {
        %a = memref.load %A[%i, %kk] : memref<64x64xf32>
        %c = memref.load %C[%i, %i] : memref<64x64xf32>
        %s = arith.addf %c, %a : f32
        memref.store %s, %C[%i, %i] : memref<64x64xf32>
      }
      cf.br ^done
    ^done:
      gpu.return
    }
  }
  func.func @main(%A: memref<64x64xf32>, %C: memref<64x64xf32>, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@branchy blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%A : memref<64x64xf32>, %C : memref<64x64xf32>, %flag : i1)
    return
  }
}

// -----

// A convolution's window: the element is carried through both window loops
// (one load before the outer one, one store after it). The inner loop of the
// second nest may not run and the outer loop of the third stores the element
// itself: the element stays in memory around those.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @window
    // CHECK-NOT: scf.if
    // CHECK: %[[INIT:.*]] = memref.load %[[OUT:.*]][%[[I:.*]]] : memref<64xf32>
    // CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[OUTER:.*]] = %[[INIT]]) -> (f32)
    // CHECK: %[[INNER:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[OUTER]]) -> (f32)
    // CHECK-NOT: memref.load %[[OUT]]
    // CHECK: arith.addf %[[ACC]]
    // CHECK: scf.yield
    // CHECK: scf.yield %[[INNER]]
    // CHECK: memref.store %[[SUM]], %[[OUT]][%[[I]]] : memref<64xf32>
    // The second nest: the inner bound is an argument, nothing is carried.
    // CHECK: scf.for
    // CHECK: scf.for
    // CHECK: memref.load %{{.*}} : memref<64xf32>
    // CHECK: memref.store
    // The third: only the inner loop carries it.
    // CHECK: scf.for
    // CHECK: memref.store %{{.*}} : memref<64xf32>
    // CHECK: memref.load %{{.*}} : memref<64xf32>
    // CHECK: scf.for %{{.*}} iter_args
    // CHECK: memref.store %{{.*}} : memref<64xf32>
    // CHECK: gpu.return
    gpu.func @window(%in: memref<72x72xf32>, %out: memref<64xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0.0 : f32
      %i = gpu.thread_id x
      scf.for %a = %c0 to %c3 step %c1 {
        scf.for %b = %c0 to %c3 step %c1 {
          %r = arith.addi %i, %a : index
          %x = memref.load %in[%r, %b] : memref<72x72xf32>
          %o = memref.load %out[%i] : memref<64xf32>
          %s = arith.addf %o, %x : f32
          memref.store %s, %out[%i] : memref<64xf32>
        }
      }
      scf.for %a = %c0 to %c3 step %c1 {
        scf.for %b = %c0 to %n step %c1 {
          %x = memref.load %in[%a, %b] : memref<72x72xf32>
          %o = memref.load %out[%i] : memref<64xf32>
          %s = arith.addf %o, %x : f32
          memref.store %s, %out[%i] : memref<64xf32>
        }
      }
      scf.for %a = %c0 to %c3 step %c1 {
        memref.store %zero, %out[%i] : memref<64xf32>
        scf.for %b = %c0 to %c3 step %c1 {
          %x = memref.load %in[%a, %b] : memref<72x72xf32>
          %o = memref.load %out[%i] : memref<64xf32>
          %s = arith.addf %o, %x : f32
          memref.store %s, %out[%i] : memref<64xf32>
        }
      }
      gpu.return
    }
  }
  func.func @main(%n: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %in = memref.alloc() : memref<72x72xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@window blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<72x72xf32>, %out : memref<64xf32>, %n : index)
    return
  }
}

// -----

// Two accumulations of one loop nest: C through both loops, D through the
// outer one, next to the inner loop. Both end in registers.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @two
    // CHECK: %[[C0:.*]] = memref.load %[[C:.*]][%[[I:.*]]] : memref<64xf32>
    // CHECK: %[[D0:.*]] = memref.load %[[D:.*]][%[[I]]] : memref<64xf32>
    // CHECK: %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%[[CA:.*]] = %[[C0]], %[[DA:.*]] = %[[D0]]) -> (f32, f32)
    // CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[CA]]) -> (f32)
    // CHECK-NOT: memref.load %[[C]]
    // CHECK-NOT: memref.load %[[D]]
    // CHECK: arith.mulf %[[DA]]
    // CHECK-DAG: memref.store %[[R]]#0, %[[C]][%[[I]]]
    // CHECK-DAG: memref.store %[[R]]#1, %[[D]][%[[I]]]
    gpu.func @two(%a: memref<64x8x8xf32>, %c: memref<64xf32>, %d: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      scf.for %r = %c0 to %c8 step %c1 {
        scf.for %s = %c0 to %c8 step %c1 {
          %x = memref.load %a[%tx, %r, %s] : memref<64x8x8xf32>
          %v = memref.load %c[%tx] : memref<64xf32>
          %w = arith.addf %v, %x : f32
          memref.store %w, %c[%tx] : memref<64xf32>
        }
        %y = memref.load %a[%tx, %r, %c0] : memref<64x8x8xf32>
        %u = memref.load %d[%tx] : memref<64xf32>
        %z = arith.mulf %u, %y : f32
        memref.store %z, %d[%tx] : memref<64xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = gpu.alloc () : memref<64x8x8xf32>
    %c = gpu.alloc () : memref<64xf32>
    %d = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@two blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64x8x8xf32>, %c : memref<64xf32>, %d : memref<64xf32>)
    return
  }
}
