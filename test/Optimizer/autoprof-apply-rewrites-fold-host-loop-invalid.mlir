// fold-host-loop refuses what it cannot prove, with the reason; the kernel
// and its loop are left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=fold-host-loop=1" -o /dev/null

// No host loop.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @once: the launch is not in a host loop}}
    gpu.func @once(%k: index, %out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@once blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%c1 : index, %out : memref<64xf32>)
    return
  }
}

// -----

// The trip count is not known.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @rows: the host loop's bounds and step are not constants}}
    gpu.func @rows(%k: index, %out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<64xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %n step %c1 {
      gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<64xf32>)
    }
    return
  }
}

// -----

// The loop body writes host memory between the launches.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @rows: the host loop does more than the launch (memref.store)}}
    gpu.func @rows(%k: index, %out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<64xf32>, %flag: memref<4xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      memref.store %k, %flag[%k] : memref<4xindex>
      gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<64xf32>)
    }
    return
  }
}

// -----

// The launch is conditional inside the loop.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @rows: the launch is not directly in the body of its host loop}}
    gpu.func @rows(%k: index, %out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<64xf32>, %cond: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      scf.if %cond {
        gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<64xf32>)
      }
    }
    return
  }
}

// -----

// Another operand varies with the loop too.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @rows: kernel operand #1 changes from one launch of the loop to the next}}
    gpu.func @rows(%k: index, %next: index, %out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %k1 = arith.addi %k, %c1 : index
      gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %k1 : index, %out : memref<64xf32>)
    }
    return
  }
}

// -----

// A thread reads an element its neighbour writes: in the loop it would see
// the neighbour's writes of earlier iterations sooner or later than the
// launches do.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @shift: buffer argument #1 is accessed at tid.x + 1 and at tid.x, so a thread may read what another one wrote}}
    gpu.func @shift(%k: index, %out: memref<65xf32>) kernel {
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %next = arith.addi %tid, %c1 : index
      %v = memref.load %out[%next] : memref<65xf32>
      memref.store %v, %out[%tid] : memref<65xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<65xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@shift blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<65xf32>)
    }
    return
  }
}

// -----

// Every thread of a block writes the block's element.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @shared_element: buffer argument #1 is accessed at bid.x, the same for every thread along x}}
    gpu.func @shared_element(%k: index, %out: memref<8xf32>) kernel {
      %bid = gpu.block_id x
      %v = memref.load %out[%bid] : memref<8xf32>
      memref.store %v, %out[%bid] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<8xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@shared_element blocks in (%c8, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<8xf32>)
    }
    return
  }
}

// -----

// tid.x + 2 * tid.y on 4 x 4 threads: threads (2, 0) and (0, 1) meet.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @overlapping: buffer argument #1 is accessed at tid.x + 2*tid.y, where two threads of the launch can meet}}
    gpu.func @overlapping(%k: index, %out: memref<16xf32>) kernel {
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row = arith.muli %ty, %c2 : index
      %i = arith.addi %tx, %row : index
      %v = memref.load %out[%i] : memref<16xf32>
      memref.store %v, %out[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<16xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@overlapping blocks in (%c1, %c1, %c1) threads in (%c4, %c4, %c1) args(%k : index, %out : memref<16xf32>)
    }
    return
  }
}

// -----

// Each launch writes the row the induction variable selects: the written
// element is not a function of the thread alone.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error-re @below {{cannot apply fold-host-loop=1 to @row_write: buffer argument #1 is accessed at {{.*}}, which depends on arg0 (only thread and block ids may select a written element)}}
    gpu.func @row_write(%k: index, %out: memref<4x64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%k, %tid] : memref<4x64xf32>
      memref.store %v, %out[%k, %tid] : memref<4x64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<4x64xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@row_write blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<4x64xf32>)
    }
    return
  }
}

// -----

// A barrier orders the threads of one launch only.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @synced: the kernel synchronizes its threads}}
    gpu.func @synced(%k: index, %out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      gpu.barrier
      %v = memref.load %out[%tid] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<64xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@synced blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<64xf32>)
    }
    return
  }
}

// -----

// Launched in the loop and once more after it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @twice: the kernel has 2 launches; only a kernel launched once can take its loop in}}
    gpu.func @twice(%k: index, %out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<64xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<64xf32>)
    }
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%c0 : index, %out : memref<64xf32>)
    return
  }
}

// -----

// Writes through a view the analysis cannot attribute to a buffer argument.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @viewed: an access goes through a view or local memory the analysis cannot attribute to a kernel buffer}}
    gpu.func @viewed(%k: index, %out: memref<128xf32>) kernel {
      %tid = gpu.thread_id x
      %half = memref.subview %out[64] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 64>>
      %v = memref.load %half[%tid] : memref<64xf32, strided<[1], offset: 64>>
      memref.store %v, %half[%tid] : memref<64xf32, strided<[1], offset: 64>>
      gpu.return
    }
  }
  func.func @main(%out: memref<128xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@viewed blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<128xf32>)
    }
    return
  }
}

// -----

// A fallback another fold keeps stays as it was.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @rows_unfolded: the kernel is the fallback of @rows and stays as it was}}
    gpu.func @rows_unfolded(%k: index, %out: memref<64xf32>) kernel attributes {autoprof.fallback_of = @rows} {
      %tid = gpu.thread_id x
      %v = memref.load %out[%tid] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@rows_unfolded blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %out : memref<64xf32>)
    }
    return
  }
}

// -----

// One host buffer passed to two arguments: the kernel's two buffers alias.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @aliased: the launch passes one buffer to two arguments}}
    gpu.func @aliased(%k: index, %in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %in[%k] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c64 step %c1 {
      gpu.launch_func @kernels::@aliased blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %a : memref<64xf32>, %a : memref<64xf32>)
    }
    return
  }
}

// -----

// A read the analysis does not describe (vector.transfer_read) of the
// written buffer: it could read what another thread wrote.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @scan: the kernel reads or writes memory other than through loads, stores and atomics the analysis describes}}
    gpu.func @scan(%k: index, %out: memref<64xf32>) kernel {
      %c1 = arith.constant 1 : index
      %f0 = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %p = arith.subi %k, %c1 : index
      %w = vector.transfer_read %out[%p], %f0 : memref<64xf32>, vector<1xf32>
      %v = vector.extract %w[0] : f32 from vector<1xf32>
      %s = memref.load %out[%tid] : memref<64xf32>
      %r = arith.addf %v, %s : f32
      memref.store %r, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c1 to %c64 step %c1 {
      gpu.launch_func @kernels::@scan blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%k : index, %a : memref<64xf32>)
    }
    return
  }
}

// -----

// A 2-D vector covers two rows: neighbouring threads' elements interleave.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @rows2: buffer argument #1 is accessed with a vector of several dimensions}}
    gpu.func @rows2(%k: index, %out: memref<8x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %v = vector.load %out[%tid, %c0] : memref<8x8xf32>, vector<2x4xf32>
      %r = arith.addf %v, %v : vector<2x4xf32>
      vector.store %r, %out[%tid, %c0] : memref<8x8xf32>, vector<2x4xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<8x8xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@rows2 blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%k : index, %a : memref<8x8xf32>)
    }
    return
  }
}

// -----

// A view of an allocation next to the allocation: not proved distinct, and
// a strided view has no extent the host can compare.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply fold-host-loop=1 to @viewed_twice: two buffers of a launch are views of one buffer, and buffer operand #2 is not a contiguous static buffer whose extent the host can compare}}
    gpu.func @viewed_twice(%k: index, %in: memref<64xf32>, %out: memref<32xf32, strided<[1], offset: 16>>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %in[%k] : memref<64xf32>
      memref.store %v, %out[%tid] : memref<32xf32, strided<[1], offset: 16>>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<64xf32>
    %half = memref.subview %a[16] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1], offset: 16>>
    scf.for %k = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@viewed_twice blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%k : index, %a : memref<64xf32>, %half : memref<32xf32, strided<[1], offset: 16>>)
    }
    return
  }
}
