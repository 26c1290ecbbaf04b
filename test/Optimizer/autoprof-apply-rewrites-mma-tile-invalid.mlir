// mma-tile refuses, with the reason, contractions the tensor cores do not
// compute as written; the kernel is left alone. (Refusals it shares with
// contraction-tile are in autoprof-apply-rewrites-contraction-tile-invalid.mlir.)
// RUN: autoprof-opt %s -split-input-file -verify-diagnostics --autoprof-apply-rewrites="rewrites=mma-tile=64" -o /dev/null
// RUN: not autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=mma-tile=32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: mma-tile=32{{.*}}the tile of results must be 64 or 128

// An f32 contraction: contraction-tile's, not the tensor cores'.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply mma-tile=64 to @k: the staged elements are not f16 or bf16 (the tensor cores multiply halves here)}}
    gpu.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x64xf32>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %j] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf32>, %b : memref<64x64xf32>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// The product rounds to a half before it is widened: not what the tensor cores compute.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply mma-tile=64 to @k: the loop's body is not sum + f32(row) * f32(column)}}
    gpu.func @k(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x64xf32>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf16>
        %y = memref.load %b[%k, %j] : memref<64x64xf16>
        %h = arith.mulf %x, %y : f16
        %p = arith.extf %h : f16 to f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf16>, %b : memref<64x64xf16>, %c : memref<64x64xf32>)
    return
  }
}

// -----

// A sum of halves: the tensor cores sum in f32.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply mma-tile=64 to @k: the loop does not carry one f32 sum}}
    gpu.func @k(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x64xf16>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f16) {
        %x = memref.load %a[%i, %k] : memref<64x64xf16>
        %y = memref.load %b[%k, %j] : memref<64x64xf16>
        %p = arith.mulf %x, %y : f16
        %s = arith.addf %acc, %p : f16
        scf.yield %s : f16
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf16>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf16>, %b : memref<64x64xf16>, %c : memref<64x64xf16>)
    return
  }
}

// -----

// An f16 row element times a bf16 column element: each mma multiplies two
// operands of one type.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{cannot apply mma-tile=64 to @k: the row and column elements are of different types (the tensor cores multiply two of f16 or of bf16)}}
    gpu.func @k(%a: memref<64x64xf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %bx, %c16 : index
      %1 = arith.muli %by, %c16 : index
      %j = arith.addi %0, %tx : index
      %i = arith.addi %1, %ty : index
      %init = memref.load %c[%i, %j] : memref<64x64xf32>
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<64x64xf16>
        %y = memref.load %b[%k, %j] : memref<64x64xbf16>
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : bf16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<64x64xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<64x64xf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1) args(%a : memref<64x64xf16>, %b : memref<64x64xbf16>, %c : memref<64x64xf32>)
    return
  }
}
