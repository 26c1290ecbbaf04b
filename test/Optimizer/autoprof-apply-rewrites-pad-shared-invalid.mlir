// pad-shared refuses kernels whose shared buffers it cannot widen, with the
// reason; the kernel is left alone.
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=pad-shared=4" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=pad-shared=200" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANGE

// RANGE: the padding must be in [1, 128] bytes

// No shared memory at all.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: the kernel has no workgroup buffer with rows (static, of rank 2 or more, not empty)}}
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
    // expected-error @below {{cannot apply pad-shared=4 to @k: the kernel has no workgroup buffer with rows (static, of rank 2 or more, not empty)}}
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
    // expected-error @below {{cannot apply pad-shared=4 to @k: workgroup buffer 0 (memref<32x32xf32, #gpu.address_space<workgroup>>) is used by 'memref.subview', whose addressing the rewrite cannot follow: it does not address the buffer element by element through its indices}}
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
// padding: 96 x 128 floats, and 96 rows of 4 bytes more.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: the padding adds 384 bytes to the 49152 bytes of shared memory the kernel declares, more than the 49152 a kernel may use statically}}
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

// -----

// An alignment the access states is kept: two floats stored together
// (8 bytes) would move to odd rows' 4-byte boundaries.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: 4 bytes would misalign the 8-byte accesses of workgroup buffer 0 (memref<16x64xf32, #gpu.address_space<workgroup>>) ('memref.store')}}
    gpu.func @k(%x: memref<1024x64xf32>) workgroup(%t : memref<16x64xf32, #gpu.address_space<workgroup>>) kernel {
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %col = arith.muli %tx, %c2 : index
      %v = memref.load %x[%ty, %col] : memref<1024x64xf32>
      memref.store %v, %t[%ty, %col] {alignment = 8 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %t[%ty, %col] : memref<16x64xf32, #gpu.address_space<workgroup>>
      memref.store %w, %x[%ty, %col] : memref<1024x64xf32>
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

// The buffers lie one after another: 33 rows of 4 bytes more move the
// partial sums' buffer behind them by 132 bytes, off the 16-byte alignment
// of its vector loads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: the padding moves workgroup buffer 1 (memref<256xf32, #gpu.address_space<workgroup>>) by 132 bytes, off the alignment of its 16-byte accesses ('vector.load')}}
    gpu.func @k(%x: memref<1024x32xf32>) workgroup(%t : memref<33x32xf32, #gpu.address_space<workgroup>>, %s : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %x[%ty, %tx] : memref<1024x32xf32>
      memref.store %v, %t[%ty, %tx] : memref<33x32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %s[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %t[%tx, %ty] : memref<33x32xf32, #gpu.address_space<workgroup>>
      %i = arith.muli %ty, %c4 : index
      %u = vector.load %s[%i] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %e = vector.extract %u[0] : f32 from vector<4xf32>
      %r = arith.addf %w, %e : f32
      memref.store %r, %x[%ty, %tx] : memref<1024x32xf32>
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

// A copy of four bytes into rows of two fills two rows at once: after the
// padding the second half would land in the padding.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply pad-shared=4 to @k: the 4-element accesses of workgroup buffer 0 (memref<64x2xi8, #gpu.address_space<workgroup>>) ('nvgpu.device_async_copy') may run past the end of a row of 2 (their column index reaches 0)}}
    gpu.func @k(%x: memref<1024x64xi8>) workgroup(%t : memref<64x2xi8, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %token = nvgpu.device_async_copy %x[%tx, %c0], %t[%tx, %c0], 4 : memref<1024x64xi8> to memref<64x2xi8, #gpu.address_space<workgroup>>
      %group = nvgpu.device_async_create_group %token
      nvgpu.device_async_wait %group
      gpu.barrier
      %w = memref.load %t[%tx, %c0] : memref<64x2xi8, #gpu.address_space<workgroup>>
      memref.store %w, %x[%tx, %c0] : memref<1024x64xi8>
      gpu.return
    }
  }
  func.func @main(%x: memref<1024x64xi8>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%x : memref<1024x64xi8>)
    return
  }
}
