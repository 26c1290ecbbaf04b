// What coarsen-rows=4 buys in the PTX the kernels lower to: LLVM merges the
// loads the jammed windows share, and along x the merged vectors stay
// 16-byte loads and stores. Per thread, the 3x3 convolution (4 outputs)
// loads 31 words instead of 4 x 19 = 76 (4 outputs, 6 input rows of 3, the
// 9 taps once); the 9-tap 1-D convolution loads 4 vectors (12 inputs, the 4
// outputs) and the 9 taps, and stores one vector, instead of 4 x 19 loads.
// RUN: rm -rf %t && mkdir -p %t
// RUN: autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t/before" -o /dev/null
// RUN: autoprof-opt %s --autoprof-apply-rewrites="kernel=conv3x3 rewrites=coarsen-rows=4" --autoprof-lower-to-ptx="ptx-dir=%t/after2d" -o /dev/null
// RUN: autoprof-opt %s --autoprof-apply-rewrites="kernel=conv1d_x rewrites=coarsen-rows=4" --autoprof-lower-to-ptx="ptx-dir=%t/after1d" -o /dev/null
// RUN: grep -oE "(ld|st)\.global[.a-z0-9]*" %t/before/conv2d.ptx | sort | uniq -c | FileCheck %s --check-prefix=BEFORE
// RUN: grep -oE "(ld|st)\.global[.a-z0-9]*" %t/before/conv1d.ptx | sort | uniq -c | FileCheck %s --check-prefix=BEFORE
// RUN: grep -oE "(ld|st)\.global[.a-z0-9]*" %t/after2d/conv2d.ptx | sort | uniq -c | FileCheck %s --check-prefix=CONV2D
// RUN: grep -oE "(ld|st)\.global[.a-z0-9]*" %t/after1d/conv1d.ptx | sort | uniq -c | FileCheck %s --check-prefix=CONV1D
// RUN: %if ptxas %{ %ptxas %t/after2d/conv2d.ptx -o %t/conv2d.cubin && %ptxas %t/after1d/conv1d.ptx -o %t/conv1d.cubin %}

// BEFORE: {{^ *}}19 ld.global.b32{{$}}
// BEFORE-NEXT: {{^ *}}1 st.global.b32{{$}}
// BEFORE-NOT: global

// CONV2D: {{^ *}}31 ld.global.b32{{$}}
// CONV2D-NEXT: {{^ *}}4 st.global.b32{{$}}
// CONV2D-NOT: global

// CONV1D: {{^ *}}9 ld.global.b32{{$}}
// CONV1D-NEXT: {{^ *}}4 ld.global.v4.b32{{$}}
// CONV1D-NEXT: {{^ *}}1 st.global.v4.b32{{$}}
// CONV1D-NOT: global

module attributes {gpu.container_module} {
  gpu.module @conv2d {
    gpu.func @conv3x3(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %0 = arith.muli %by, %c8 : index
      %i = arith.addi %0, %ty : index
      %1 = arith.muli %bx, %c32 : index
      %j = arith.addi %1, %tx : index
      %init = memref.load %out[%i, %j] : memref<64x128xf32>
      %sum = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a = %init) -> (f32) {
        %row = scf.for %kw = %c0 to %c3 step %c1 iter_args(%b = %a) -> (f32) {
          %r = arith.addi %i, %kh : index
          %c = arith.addi %j, %kw : index
          %x = memref.load %in[%r, %c] : memref<66x130xf32>
          %w = memref.load %k[%kh, %kw] : memref<3x3xf32>
          %p = arith.mulf %x, %w : f32
          %s = arith.addf %b, %p : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      memref.store %sum, %out[%i, %j] : memref<64x128xf32>
      gpu.return
    }
  }
  func.func @main2d(%in: memref<66x130xf32>, %k: memref<3x3xf32>, %out: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @conv2d::@conv3x3 blocks in (%c4, %c8, %c1) threads in (%c32, %c8, %c1) args(%in : memref<66x130xf32>, %k : memref<3x3xf32>, %out : memref<64x128xf32>)
    return
  }
  gpu.module @conv1d {
    gpu.func @conv1d_x(%in: memref<4104xf32>, %k: memref<9xf32>, %out: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 16, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c9 = arith.constant 9 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %0 = arith.muli %bx, %c64 : index
      %i = arith.addi %0, %tx : index
      %init = memref.load %out[%i] : memref<4096xf32>
      %sum = scf.for %t = %c0 to %c9 step %c1 iter_args(%a = %init) -> (f32) {
        %j = arith.addi %i, %t : index
        %x = memref.load %in[%j] : memref<4104xf32>
        %w = memref.load %k[%t] : memref<9xf32>
        %p = arith.mulf %x, %w : f32
        %s = arith.addf %a, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%i] : memref<4096xf32>
      gpu.return
    }
  }
  func.func @main1d(%in: memref<4104xf32>, %k: memref<9xf32>, %out: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @conv1d::@conv1d_x blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<4104xf32>, %k : memref<9xf32>, %out : memref<4096xf32>)
    return
  }
}
