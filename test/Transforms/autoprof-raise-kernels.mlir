// autoprof-raise-kernels: each launched kernel raised to its iteration space
// (dimensions, extents after the guards, access maps), printed as an affine
// nest, or the reason it does not raise.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-raise-kernels | FileCheck %s
// A kernel register-accumulate versioned by a run-time check that its buffers
// lie apart raises from the code as it was:
// RUN: autoprof-opt %S/../Corpus/Upstream/matvec.tile16x16.mlir --autoprof-apply-rewrites="rewrites=register-accumulate=1" | autoprof-opt --autoprof-raise-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERSIONED
// VERSIONED: remark: @matvec_kernel raised: d0 = 16*bid.x + tid.x in [0, 16384) parallel; d1 = loop 0 + 1*i in [0, 4096) reduction

// Upstream's 16 x 16 tiles of a 1000 x 777 sum with guards: two global
// dimensions, clipped by the guards to the buffers' extents.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<1000x777xf32>, %b: memref<1000x777xf32>, %o: memref<1000x777xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c63 = arith.constant 63 : index
    %c49 = arith.constant 49 : index
    gpu.launch_func @m::@add blocks in (%c63, %c49, %c1) threads in (%c16, %c16, %c1) args(%a : memref<1000x777xf32>, %b : memref<1000x777xf32>, %o : memref<1000x777xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@add raised: d0 = 16*bid.x + tid.x in [0, 1000) parallel; d1 = 16*bid.y + tid.y in [0, 777) parallel; read arg0 at (d0, d1) -> (d0, d1); read arg1 at (d0, d1) -> (d0, d1); write arg2 at (d0, d1) -> (d0, d1)}}
    gpu.func @add(%a: memref<1000x777xf32>, %b: memref<1000x777xf32>, %o: memref<1000x777xf32>) kernel {
      %c16 = arith.constant 16 : index
      %c1000 = arith.constant 1000 : index
      %c777 = arith.constant 777 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %i0 = arith.muli %bx, %c16 : index
      %i = arith.addi %i0, %tx : index
      %j0 = arith.muli %by, %c16 : index
      %j = arith.addi %j0, %ty : index
      %in_i = arith.cmpi ult, %i, %c1000 : index
      %in_j = arith.cmpi ult, %j, %c777 : index
      %in = arith.andi %in_i, %in_j : i1
      scf.if %in {
        %x = memref.load %a[%i, %j] : memref<1000x777xf32>
        %y = memref.load %b[%i, %j] : memref<1000x777xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %o[%i, %j] : memref<1000x777xf32>
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: func.func @add_raised(
// CHECK-SAME: %[[A:.*]]: memref<1000x777xf32>, %[[B:.*]]: memref<1000x777xf32>, %[[O:.*]]: memref<1000x777xf32>)
// CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (1000, 777) {
// CHECK: %[[X:.*]] = affine.load %[[A]][%[[I]], %[[J]]]
// CHECK: %[[Y:.*]] = affine.load %[[B]][%[[I]], %[[J]]]
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK: affine.store %[[S]], %[[O]][%[[I]], %[[J]]]

// -----

// One-thread blocks over an HWC max pooling: the block ids are the output's
// indices, the window loops are reductions that accumulate into it.
module attributes {gpu.container_module} {
  func.func @host(%in: memref<64x64x32xf32>, %out: memref<32x32x32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @m::@pool blocks in (%c32, %c32, %c32) threads in (%c1, %c1, %c1) args(%in : memref<64x64x32xf32>, %out : memref<32x32x32xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@pool raised: d0 = bid.x in [0, 32) parallel; d1 = bid.y in [0, 32) parallel; d2 = bid.z in [0, 32) parallel; d3 = loop 0 + 1*i in [0, 2) reduction; d4 = loop 0 + 1*i in [0, 2) reduction; read arg0 at (d0, d1, d2, d3, d4) -> (d0 * 2 + d3, d1 * 2 + d4, d2); accumulate arg1 at (d0, d1, d2, d3, d4) -> (d0, d1, d2)}}
    gpu.func @pool(%in: memref<64x64x32xf32>, %out: memref<32x32x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %h = gpu.block_id x
      %w = gpu.block_id y
      %c = gpu.block_id z
      scf.for %kh = %c0 to %c2 step %c1 {
        scf.for %kw = %c0 to %c2 step %c1 {
          %h2 = arith.muli %h, %c2 : index
          %hi = arith.addi %h2, %kh : index
          %w2 = arith.muli %w, %c2 : index
          %wi = arith.addi %w2, %kw : index
          %x = memref.load %in[%hi, %wi, %c] : memref<64x64x32xf32>
          %acc = memref.load %out[%h, %w, %c] : memref<32x32x32xf32>
          %m = arith.maximumf %acc, %x : f32
          memref.store %m, %out[%h, %w, %c] : memref<32x32x32xf32>
        }
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: func.func @pool_raised(
// CHECK-SAME: %[[IN:.*]]: memref<64x64x32xf32>, %[[OUT:.*]]: memref<32x32x32xf32>)
// CHECK: affine.parallel (%[[H:.*]], %[[W:.*]], %[[C:.*]]) = (0, 0, 0) to (32, 32, 32) {
// CHECK: affine.for %[[KH:.*]] = 0 to 2 {
// CHECK: affine.for %[[KW:.*]] = 0 to 2 {
// CHECK: %[[X:.*]] = affine.load %[[IN]][%[[H]] * 2 + %[[KH]], %[[W]] * 2 + %[[KW]], %[[C]]]
// CHECK: %[[ACC:.*]] = affine.load %[[OUT]][%[[H]], %[[W]], %[[C]]]
// CHECK: %[[M:.*]] = arith.maximumf %[[ACC]], %[[X]] : f32
// CHECK: affine.store %[[M]], %[[OUT]][%[[H]], %[[W]], %[[C]]]

// -----

// A gather: an index read from memory.
module attributes {gpu.container_module} {
  func.func @host(%idx: memref<256xi32>, %src: memref<4096xf32>, %dst: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@gather blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%idx : memref<256xi32>, %src : memref<4096xf32>, %dst : memref<256xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@gather not raised: an index is loaded from memory (a gather or scatter)}}
    gpu.func @gather(%idx: memref<256xi32>, %src: memref<4096xf32>, %dst: memref<256xf32>) kernel {
      %t = gpu.thread_id x
      %i32 = memref.load %idx[%t] : memref<256xi32>
      %i = arith.index_cast %i32 : i32 to index
      %v = memref.load %src[%i] : memref<4096xf32>
      memref.store %v, %dst[%t] : memref<256xf32>
      gpu.return
    }
  }
}
// CHECK-NOT: func.func @gather_raised

// -----

// Atomics.
module attributes {gpu.container_module} {
  func.func @host(%src: memref<256xf32>, %sum: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@total blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<256xf32>, %sum : memref<1xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@total not raised: it updates memory atomically}}
    gpu.func @total(%src: memref<256xf32>, %sum: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %v = memref.load %src[%t] : memref<256xf32>
      %old = memref.atomic_rmw addf %v, %sum[%c0] : (f32, memref<1xf32>) -> f32
      gpu.return
    }
  }
}

// -----

// A value carried through a loop from a constant: not an element's
// accumulation.
module attributes {gpu.container_module} {
  func.func @host(%m: memref<256x64xf32>, %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@rows blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%m : memref<256x64xf32>, %out : memref<256xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@rows not raised: a carried value does not start from a load}}
    gpu.func @rows(%m: memref<256x64xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %t = gpu.thread_id x
      %s = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %m[%t, %k] : memref<256x64xf32>
        %n = arith.addf %acc, %v : f32
        scf.yield %n : f32
      }
      memref.store %s, %out[%t] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// Every thread of a block writes the block's element.
module attributes {gpu.container_module} {
  func.func @host(%src: memref<4x256xf32>, %dst: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@race blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<4x256xf32>, %dst : memref<4xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@race not raised: its threads along x write the same elements}}
    gpu.func @race(%src: memref<4x256xf32>, %dst: memref<4xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %src[%b, %t] : memref<4x256xf32>
      memref.store %v, %dst[%b] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Workgroup memory: the threads of a block cooperate.
module attributes {gpu.container_module} {
  func.func @host(%src: memref<256xf32>, %dst: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@staged blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<256xf32>, %dst : memref<256xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@staged not raised: it stages data in workgroup or private memory}}
    gpu.func @staged(%src: memref<256xf32>, %dst: memref<256xf32>) workgroup(%tile: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %src[%t] : memref<256xf32>
      memref.store %v, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %dst[%t] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// An element accumulated in a register (register-accumulate's form): loaded
// before the loop, carried through it, stored after it. It raises as the
// same accumulation through memory.
module attributes {gpu.container_module} {
  func.func @host(%m: memref<256x64xf32>, %v: memref<64xf32>, %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@matvec blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%m : memref<256x64xf32>, %v : memref<64xf32>, %out : memref<256xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@matvec raised: d0 = tid.x in [0, 256) parallel; d1 = loop 0 + 1*i in [0, 64) reduction; accumulate arg2 at (d0, d1) -> (d0); read arg0 at (d0, d1) -> (d0, d1); read arg1 at (d0, d1) -> (d1)}}
    gpu.func @matvec(%m: memref<256x64xf32>, %v: memref<64xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %t = gpu.thread_id x
      %init = memref.load %out[%t] : memref<256xf32>
      %s = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
        %a = memref.load %m[%t, %k] : memref<256x64xf32>
        %b = memref.load %v[%k] : memref<64xf32>
        %p = arith.mulf %a, %b : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %s, %out[%t] : memref<256xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: func.func @matvec_raised(
// CHECK-SAME: %[[M:.*]]: memref<256x64xf32>, %[[V:.*]]: memref<64xf32>, %[[OUT:.*]]: memref<256xf32>)
// CHECK: affine.parallel (%[[I:.*]]) = (0) to (256) {
// CHECK: affine.for %[[K:.*]] = 0 to 64 {
// CHECK: %[[ACC:.*]] = affine.load %[[OUT]][%[[I]]]
// CHECK: %[[A:.*]] = affine.load %[[M]][%[[I]], %[[K]]]
// CHECK: %[[B:.*]] = affine.load %[[V]][%[[K]]]
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK: %[[N:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK: affine.store %[[N]], %[[OUT]][%[[I]]]

// -----

// Two nested loops of 2^32 iterations: their 2^64 points raise without
// overflow (the extents are exact; counts of points saturate).
module attributes {gpu.container_module} {
  func.func @host(%in: memref<4294967296xf32>, %out: memref<32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @m::@huge blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%in : memref<4294967296xf32>, %out : memref<32xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@huge raised: d0 = tid.x in [0, 32) parallel; d1 = loop 0 + 1*i in [0, 4294967296) reduction; d2 = loop 0 + 1*i in [0, 4294967296) reduction; read arg0 at (d0, d1, d2) -> (d2); accumulate arg1 at (d0, d1, d2) -> (d0)}}
    gpu.func @huge(%in: memref<4294967296xf32>, %out: memref<32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 4294967296 : index
      %t = gpu.thread_id x
      scf.for %i = %c0 to %n step %c1 {
        scf.for %j = %c0 to %n step %c1 {
          %x = memref.load %in[%j] : memref<4294967296xf32>
          %acc = memref.load %out[%t] : memref<32xf32>
          %s = arith.addf %acc, %x : f32
          memref.store %s, %out[%t] : memref<32xf32>
        }
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: func.func @huge_raised(
// CHECK: affine.for %{{.*}} = 0 to 4294967296 {
// CHECK: affine.for %{{.*}} = 0 to 4294967296 {

// -----

// The load a carried element starts from is used again inside the loop: it
// holds the element before the loop, which the register does not.
module attributes {gpu.container_module} {
  func.func @host(%c: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@reuse blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%c : memref<256xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@reuse not raised: the load a carried value starts from has other uses}}
    gpu.func @reuse(%c: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %t = gpu.thread_id x
      %v = memref.load %c[%t] : memref<256xf32>
      %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %v) -> (f32) {
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      memref.store %r, %c[%t] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// One thread accumulates everything (a whole-tensor sum): a single
// parallel point, whose thread stands for it.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<64xf32>, %out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@serial blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>, %out : memref<1xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@serial raised: d0 = tid.x in [0, 1) parallel; d1 = loop 0 + 1*i in [0, 64) reduction; read arg0 at (d0, d1) -> (d1); accumulate arg1 at (d0, d1) -> (0)}}
    gpu.func @serial(%a: memref<64xf32>, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      scf.for %k = %c0 to %c64 step %c1 {
        %x = memref.load %a[%k] : memref<64xf32>
        %acc = memref.load %out[%c0] : memref<1xf32>
        %s = arith.addf %acc, %x : f32
        memref.store %s, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @serial_raised(
// CHECK: affine.parallel (%{{.*}}) = (0) to (1) {
// CHECK: affine.for %[[K:.*]] = 0 to 64 {

// -----

// Threads that all accumulate into one element without atomics: no
// parallel dimension, and no single point either.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<64xf32>, %out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@racy blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>, %out : memref<1xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@racy not raised: it has no parallel dimension (its threads write the same elements)}}
    gpu.func @racy(%a: memref<64xf32>, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<64xf32>
      %acc = memref.load %out[%c0] : memref<1xf32>
      %s = arith.addf %acc, %x : f32
      memref.store %s, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// A loop that compares its bounds unsigned.
module attributes {gpu.container_module} {
  func.func @host(%a: memref<256x16xf32>, %out: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@unsigned blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256x16xf32>, %out : memref<256xf32>)
    return
  }
  gpu.module @m {
    // expected-remark @below {{@unsigned not raised: a loop compares its bounds unsigned}}
    gpu.func @unsigned(%a: memref<256x16xf32>, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %t = gpu.thread_id x
      scf.for unsigned %k = %c0 to %c16 step %c1 {
        %x = memref.load %a[%t, %k] : memref<256x16xf32>
        %acc = memref.load %out[%t] : memref<256xf32>
        %s = arith.addf %acc, %x : f32
        memref.store %s, %out[%t] : memref<256xf32>
      }
      gpu.return
    }
  }
}
