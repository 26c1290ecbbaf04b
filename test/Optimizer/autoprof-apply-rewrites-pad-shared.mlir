// pad-shared on IR: every workgroup buffer with rows is retyped with P more
// bytes per row; the accesses keep their indices, one-dimensional buffers
// are left alone (the refusals: autoprof-apply-rewrites-pad-shared-invalid.mlir).
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=pad-shared=4" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REFUSED < %t.err
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=pad-shared=16" | FileCheck %s --check-prefix=WIDE
// The padded kernels lower to PTX that ptxas assembles for sm_90 (their
// shared arrays sized by the new types).
// RUN: rm -rf %t.ptx && mkdir -p %t.ptx && autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=pad-shared=16" -o %t.padded.mlir
// RUN: autoprof-opt %t.padded.mlir -split-input-file --autoprof-lower-to-ptx="ptx-dir=%t.ptx" -o /dev/null
// RUN: %if ptxas %{ for f in %t.ptx/*.ptx; do %ptxas $f -o $f.cubin || exit 1; done %}

// A tiled transpose whose column reads meet in one bank: rows of 128 bytes
// become rows of 132 (33 floats), the partial sums' buffer keeps its size.
// CHECK-LABEL: gpu.func @transpose
// CHECK-SAME: workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>, %[[SUMS:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[TILE]][%[[ROW:.*]], %[[COL:.*]]] : memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[SUMS]][%{{.*}}] : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: memref.load %[[TILE]][%[[COL]], %[[ROW]]] : memref<32x33xf32, #gpu.address_space<workgroup>>
// WIDE-LABEL: gpu.func @transpose
// WIDE-SAME: workgroup(%{{.*}} : memref<32x36xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%in: memref<1024x1024xf32>, %out: memref<1024x1024xf32>)
        workgroup(%tile : memref<32x32xf32, #gpu.address_space<workgroup>>,
                  %sums : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %cb = arith.muli %bx, %c32 : index
      %rb = arith.muli %by, %c32 : index
      %c = arith.addi %cb, %tx : index
      %r = arith.addi %rb, %ty : index
      %v = memref.load %in[%r, %c] : memref<1024x1024xf32>
      memref.store %v, %tile[%ty, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %sums[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %tile[%tx, %ty] : memref<32x32xf32, #gpu.address_space<workgroup>>
      %oc = arith.addi %rb, %tx : index
      %or = arith.addi %cb, %ty : index
      memref.store %w, %out[%or, %oc] : memref<1024x1024xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@transpose blocks in (%c32, %c32, %c1) threads in (%c32, %c32, %c1) args(%in : memref<1024x1024xf32>, %out : memref<1024x1024xf32>)
    return
  }
}

// -----

// Staging tiles in two buffers (rank 3) read by ldmatrix and filled by
// cp.async copies of eight halves: the innermost dimension takes the
// padding, 16 bytes keep every 16-byte access aligned.
// At 4 bytes the rows would move the 16-byte accesses off their alignment:
// REFUSED: error: cannot apply pad-shared=4 to @staged: 4 bytes would misalign the 16-byte accesses of workgroup buffer 0 (memref<2x64x40xf16, #gpu.address_space<workgroup>>)
// WIDE-LABEL: gpu.func @staged
// WIDE-SAME: workgroup(%[[T:.*]] : memref<2x64x48xf16, #gpu.address_space<workgroup>>)
// WIDE: nvgpu.device_async_copy %{{.*}}, %[[T]][%{{.*}}, %{{.*}}, %{{.*}}], 8 : memref<4096x4096xf16> to memref<2x64x48xf16, #gpu.address_space<workgroup>>
// WIDE: nvgpu.ldmatrix %[[T]][%{{.*}}, %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<2x64x48xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
module attributes {gpu.container_module} {
  gpu.module @staging {
    gpu.func @staged(%a: memref<4096x4096xf16>, %o: memref<4096x4096xf16>)
        workgroup(%t : memref<2x64x40xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %col = arith.muli %tx, %c8 : index
      %token = nvgpu.device_async_copy %a[%ty, %col], %t[%c0, %ty, %col], 8 : memref<4096x4096xf16> to memref<2x64x40xf16, #gpu.address_space<workgroup>>
      %group = nvgpu.device_async_create_group %token
      nvgpu.device_async_wait %group
      gpu.barrier
      %m = nvgpu.ldmatrix %t[%c0, %ty, %c0] {numTiles = 4 : i32, transpose = false} : memref<2x64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %e = vector.extract %m[0, 0] : f16 from vector<4x2xf16>
      memref.store %e, %o[%ty, %tx] : memref<4096x4096xf16>
      gpu.return
    }
  }
  func.func @main(%a: memref<4096x4096xf16>, %o: memref<4096x4096xf16>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @staging::@staged blocks in (%c1, %c1, %c1) threads in (%c4, %c64, %c1) args(%a : memref<4096x4096xf16>, %o : memref<4096x4096xf16>)
    return
  }
}
