// map-stage refuses a nest whose points share no loads, whose reuse extent
// its tile's rows overshoot by more than half, whose reductions are fewer than
// a chunk, or whose staged slices do not fit a block's static shared
// memory, with the reason; the kernel is left alone. (Kernels that do not
// raise are refused as by map-nest:
// autoprof-apply-rewrites-map-nest-invalid.mlir.)
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=map-stage=4" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-stage=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=map-stage=16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: rows per thread must be 1, 2, 4 or 8

// A row sum: every point reads its own row; no point shares another's
// loads.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-stage=4 to @rows: no parallel dimension's points share the loads of a reduction point}}
    gpu.func @rows(%src: memref<256x64xf32>, %dst: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %t = gpu.thread_id x
      scf.for %j = %c0 to %c64 step %c1 {
        %x = memref.load %src[%t, %j] : memref<256x64xf32>
        %acc = memref.load %dst[%t] : memref<256xf32>
        %s = arith.addf %acc, %x : f32
        memref.store %s, %dst[%t] : memref<256xf32>
      }
      gpu.return
    }
  }
  func.func @host(%src: memref<256x64xf32> {llvm.noalias}, %dst: memref<256xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @m::@rows blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%src : memref<256x64xf32>, %dst : memref<256xf32>)
    return
  }
}

// -----

// A product of 64 columns and 32 rows: with four rows per thread, the
// tile's 64 rows lie more than half past them (two rows per thread cover
// them).
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-stage=4 to @rows32: a staged tile of 64 x 64 points lies more than half past the contiguous and reuse extents 64 x 32}}
    gpu.func @rows32(%a: memref<32x32xf32>, %b: memref<32x64xf32>, %c: memref<32x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cK = arith.constant 32 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      scf.for %k = %c0 to %cK step %c1 {
        %x = memref.load %a[%i, %k] : memref<32x32xf32>
        %y = memref.load %b[%k, %j] : memref<32x64xf32>
        %acc = memref.load %c[%i, %j] : memref<32x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<32x64xf32>
      }
      gpu.return
    }
  }
  func.func @host(%a: memref<32x32xf32> {llvm.noalias}, %b: memref<32x64xf32> {llvm.noalias}, %c: memref<32x64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %cI = arith.constant 32 : index
    %cJ = arith.constant 64 : index
    gpu.launch_func @m::@rows32 blocks in (%cI, %c1, %c1) threads in (%cJ, %c1, %c1) args(%a : memref<32x32xf32>, %b : memref<32x64xf32>, %c : memref<32x64xf32>)
    return
  }
}

// -----

// A product over 8 reduction points: fewer than a chunk of 16.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-stage=4 to @short: the nest has fewer reduction points than a staged chunk of 16}}
    gpu.func @short(%a: memref<64x8xf32>, %b: memref<8x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cK = arith.constant 8 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      scf.for %k = %c0 to %cK step %c1 {
        %x = memref.load %a[%i, %k] : memref<64x8xf32>
        %y = memref.load %b[%k, %j] : memref<8x64xf32>
        %acc = memref.load %c[%i, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        memref.store %s, %c[%i, %j] : memref<64x64xf32>
      }
      gpu.return
    }
  }
  func.func @host(%a: memref<64x8xf32> {llvm.noalias}, %b: memref<8x64xf32> {llvm.noalias}, %c: memref<64x64xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %cI = arith.constant 64 : index
    %cJ = arith.constant 64 : index
    gpu.launch_func @m::@short blocks in (%cI, %c1, %c1) threads in (%cJ, %c1, %c1) args(%a : memref<64x8xf32>, %b : memref<8x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// Five operands shared along j and one along i, f64: five slices of
// 16 x (64 + 2) elements and one of 16 x 64 take more than a block's
// static shared memory.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @below {{cannot apply map-stage=4 to @wide: the staged slices take 50432 bytes of shared memory, more than a block's 49152}}
    gpu.func @wide(%a: memref<64x32xf64>, %d: memref<64x32xf64>, %e: memref<64x32xf64>, %g: memref<64x32xf64>, %h: memref<64x32xf64>, %b: memref<32x64xf64>, %c: memref<64x64xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      scf.for %k = %c0 to %c32 step %c1 {
        %la = memref.load %a[%i, %k] : memref<64x32xf64>
        %ld = memref.load %d[%i, %k] : memref<64x32xf64>
        %le = memref.load %e[%i, %k] : memref<64x32xf64>
        %lg = memref.load %g[%i, %k] : memref<64x32xf64>
        %lh = memref.load %h[%i, %k] : memref<64x32xf64>
        %y = memref.load %b[%k, %j] : memref<32x64xf64>
        %acc = memref.load %c[%i, %j] : memref<64x64xf64>
        %m1 = arith.mulf %la, %ld : f64
        %m2 = arith.mulf %m1, %le : f64
        %m3 = arith.mulf %m2, %lg : f64
        %m4 = arith.mulf %m3, %lh : f64
        %p = arith.mulf %m4, %y : f64
        %s = arith.addf %acc, %p : f64
        memref.store %s, %c[%i, %j] : memref<64x64xf64>
      }
      gpu.return
    }
  }
  func.func @host(%a: memref<64x32xf64> {llvm.noalias}, %d: memref<64x32xf64> {llvm.noalias}, %e: memref<64x32xf64> {llvm.noalias}, %g: memref<64x32xf64> {llvm.noalias}, %h: memref<64x32xf64> {llvm.noalias}, %b: memref<32x64xf64> {llvm.noalias}, %c: memref<64x64xf64> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@wide blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64x32xf64>, %d : memref<64x32xf64>, %e : memref<64x32xf64>, %g : memref<64x32xf64>, %h : memref<64x32xf64>, %b : memref<32x64xf64>, %c : memref<64x64xf64>)
    return
  }
}
