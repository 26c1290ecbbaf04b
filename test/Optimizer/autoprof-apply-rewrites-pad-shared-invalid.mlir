// pad-shared refuses kernels whose shared buffers it cannot widen, with the
// reason; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=pad-shared=4" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=pad-shared=200" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANGE

// RANGE: the padding must be in [1, 128] bytes

// No shared memory at all.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: the kernel has no workgroup buffer with rows (static, of rank 2 or more)}}
    gpu.func @k(%x: memref<1024xf32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<1024xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%tid] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>)
    return
  }
}

// -----

// A one-dimensional buffer (a block reduction's partial sums) has no rows.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: the kernel has no workgroup buffer with rows (static, of rank 2 or more)}}
    gpu.func @k(%x: memref<1024xf32>) workgroup(%s : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<1024xf32>
      memref.store %v, %s[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %s[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %w, %x[%tid] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<1024xf32>)
    return
  }
}

// -----

// Vector loads of four floats from the tile: 4 more bytes per row would
// leave every odd row's vectors off their 16-byte alignment.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: 4 bytes would misalign the 16-byte accesses of workgroup buffer 0 (memref<16x64xf32, #gpu.address_space<workgroup>>) ('vector.load')}}
    gpu.func @k(%x: memref<1024x64xf32>) workgroup(%t : memref<16x64xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %col = arith.muli %tx, %c4 : index
      %v = memref.load %x[%ty, %col] : memref<1024x64xf32>
      memref.store %v, %t[%ty, %col] : memref<16x64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = vector.load %t[%ty, %col] : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      vector.store %w, %x[%ty, %col] : memref<1024x64xf32>, vector<4xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x64xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1) args(%x : memref<1024x64xf32>)
    return
  }
}

// -----

// Elements of 8 bytes cannot take half an element.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: 4 bytes are not a whole number of the 8-byte elements of workgroup buffer 0 (memref<32x32xf64, #gpu.address_space<workgroup>>)}}
    gpu.func @k(%x: memref<1024x32xf64>) workgroup(%t : memref<32x32xf64, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %x[%ty, %tx] : memref<1024x32xf64>
      memref.store %v, %t[%ty, %tx] : memref<32x32xf64, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %t[%tx, %ty] : memref<32x32xf64, #gpu.address_space<workgroup>>
      memref.store %w, %x[%ty, %tx] : memref<1024x32xf64>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x32xf64>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c32, %c1) args(%x : memref<1024x32xf64>)
    return
  }
}

// -----

// A view of the tile addresses it through its own strides, which a retype
// of the tile would not follow.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: workgroup buffer 0 (memref<32x32xf32, #gpu.address_space<workgroup>>) is used by 'memref.subview', which does not address it element by element through its indices}}
    gpu.func @k(%x: memref<1024x32xf32>) workgroup(%t : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %x[%ty, %tx] : memref<1024x32xf32>
      memref.store %v, %t[%ty, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %row = memref.subview %t[%tx, 0] [1, 32] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      %w = memref.load %row[%ty] : memref<32xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      memref.store %w, %x[%ty, %tx] : memref<1024x32xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c32, %c1) args(%x : memref<1024x32xf32>)
    return
  }
}

// -----

// Tiles that fill the 48 KiB of static shared memory leave no room for the
// padding: 96 x 128 floats and 96 rows of 4 bytes more are 49536 bytes.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: the padded buffers take 49536 bytes of shared memory, more than the 49152 a kernel may use statically}}
    gpu.func @k(%x: memref<1024x128xf32>) workgroup(%t : memref<96x128xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %x[%ty, %tx] : memref<1024x128xf32>
      memref.store %v, %t[%ty, %tx] : memref<96x128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %t[%ty, %tx] : memref<96x128xf32, #gpu.address_space<workgroup>>
      memref.store %w, %x[%ty, %tx] : memref<1024x128xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x128xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c128, %c8, %c1) args(%x : memref<1024x128xf32>)
    return
  }
}
