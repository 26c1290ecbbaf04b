// distribute-loop refuses kernels whose loop iterations are not provably
// independent, with the reason; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=distribute-loop=8" -o /dev/null

// Each iteration reads what the previous one wrote (a prefix sum along the row).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply distribute-loop=8 to @k: the loop reads a buffer it writes at other indices}}
    gpu.func @k(%x: memref<1024x64xf32>, %y: memref<1024x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      scf.for %d = %c0 to %c64 step %c1 {
        %p = arith.subi %d, %c1 : index
        %prev = memref.load %y[%i, %p] : memref<1024x64xf32>
        %v = memref.load %x[%i, %d] : memref<1024x64xf32>
        %s = arith.addf %prev, %v : f32
        memref.store %s, %y[%i, %d] : memref<1024x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x64xf32>, %y: memref<1024x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024x64xf32>, %y : memref<1024x64xf32>)
    return
  }
}

// -----

// Every iteration writes the same element.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply distribute-loop=8 to @k: a store in the loop is not at indices that include the induction variable}}
    gpu.func @k(%x: memref<1024x64xf32>, %y: memref<1024x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      scf.for %d = %c0 to %c64 step %c1 {
        %v = memref.load %x[%i, %d] : memref<1024x64xf32>
        memref.store %v, %y[%i, %c0] : memref<1024x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x64xf32>, %y: memref<1024x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024x64xf32>, %y : memref<1024x64xf32>)
    return
  }
}

// -----

// A write before the loop would be repeated by every lane.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply distribute-loop=8 to @k: the kernel writes memory outside the loop}}
    gpu.func @k(%x: memref<1024x64xf32>, %y: memref<1024x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      memref.store %zero, %x[%i, %c0] : memref<1024x64xf32>
      scf.for %d = %c0 to %c64 step %c1 {
        %v = memref.load %x[%i, %d] : memref<1024x64xf32>
        memref.store %v, %y[%i, %d] : memref<1024x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x64xf32>, %y: memref<1024x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024x64xf32>, %y : memref<1024x64xf32>)
    return
  }
}

// -----

// A read before the loop of what the loop writes could see another lane's write.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply distribute-loop=8 to @k: the kernel reads a buffer the loop writes outside the loop}}
    gpu.func @k(%x: memref<1024x64xf32>, %y: memref<1024x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %first = memref.load %y[%i, %c0] : memref<1024x64xf32>
      scf.for %d = %c0 to %c64 step %c1 {
        %v = memref.load %x[%i, %d] : memref<1024x64xf32>
        %w = arith.addf %v, %first : f32
        memref.store %w, %y[%i, %d] : memref<1024x64xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x64xf32>, %y: memref<1024x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024x64xf32>, %y : memref<1024x64xf32>)
    return
  }
}
