// vectorize on IR: the kernel body and the launch.
// RUN: autoprof-opt %s -split-input-file --autoprof-apply-rewrites="rewrites=vectorize=4 normalize=false" | FileCheck %s --check-prefix=VEC4

// y[i] = a * x[i] + y[i] with a bounds check, 64 blocks of 256 threads.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%x: memref<16384xf32>, %y: memref<16384xf32>, %a: f32, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %one = arith.constant 1.0 : f32
        %xv = memref.load %x[%i] : memref<16384xf32>
        %yv = memref.load %y[%i] : memref<16384xf32>
        %ax = arith.mulf %a, %xv fastmath<contract> : f32
        %r = arith.addf %ax, %yv : f32
        %r1 = arith.addf %r, %one : f32
        memref.store %r1, %y[%i] : memref<16384xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<16384xf32>, %y: memref<16384xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 16384 : index
    %a = arith.constant 2.5 : f32
    gpu.launch_func @kernels::@saxpy blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<16384xf32>, %y : memref<16384xf32>, %a : f32, %n : index)
    return
  }
}

// Each thread handles 4 consecutive elements with 128-bit accesses; the
// bounds check compares the first of them; scalars from outside the guarded
// region are broadcast and constants become splats; a quarter of the blocks.
// VEC4-LABEL: gpu.func @saxpy
// VEC4-SAME: (%[[X:.*]]: memref<16384xf32>, %[[Y:.*]]: memref<16384xf32>, %[[A:.*]]: f32, %[[N:.*]]: index)
// VEC4: %[[G:.*]] = arith.addi
// VEC4: %[[C4:.*]] = arith.constant 4 : index
// VEC4: %[[FIRST:.*]] = arith.muli %[[G]], %[[C4]] : index
// VEC4: %[[INB:.*]] = arith.cmpi ult, %[[FIRST]], %[[N]] : index
// VEC4: scf.if %[[INB]] {
// VEC4: %[[AV:.*]] = vector.broadcast %[[A]] : f32 to vector<4xf32>
// VEC4: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// VEC4: %[[XV:.*]] = vector.load %[[X]][%[[FIRST]]] {alignment = 16 : i64} : memref<16384xf32>, vector<4xf32>
// VEC4: %[[YV:.*]] = vector.load %[[Y]][%[[FIRST]]] {alignment = 16 : i64} : memref<16384xf32>, vector<4xf32>
// VEC4: %[[AX:.*]] = arith.mulf %[[AV]], %[[XV]] fastmath<contract> : vector<4xf32>
// VEC4: %[[R:.*]] = arith.addf %[[AX]], %[[YV]] : vector<4xf32>
// VEC4: %[[R1:.*]] = arith.addf %[[R]], %[[ONE]] : vector<4xf32>
// VEC4: vector.store %[[R1]], %[[Y]][%[[FIRST]]] {alignment = 16 : i64} : memref<16384xf32>, vector<4xf32>
// VEC4-NOT: memref.load
// VEC4-NOT: memref.store
// VEC4: gpu.return
// VEC4-LABEL: func.func @main
// VEC4: %[[GRID:.*]] = arith.constant 16 : index
// VEC4: gpu.launch_func @kernels::@saxpy blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%c256,

// -----

// A 2-D launch over rows of bf16: the row index (block_id y) stays scalar,
// the column becomes a vector; the grid's 3 blocks along x round up to one.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bias_relu(%x: memref<64x512xbf16>, %bias: memref<512xbf16>, %out: memref<64x512xbf16>, %ncols: index) kernel {
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %row = gpu.block_id y
      %dx = gpu.block_dim x
      %tx = gpu.thread_id x
      %c0 = arith.muli %bx, %dx : index
      %col = arith.addi %c0, %tx : index
      %inb = arith.cmpi ult, %col, %ncols : index
      scf.if %inb {
        %xv = memref.load %x[%row, %col] : memref<64x512xbf16>
        %bv = memref.load %bias[%col] : memref<512xbf16>
        %xf = arith.extf %xv : bf16 to f32
        %bf = arith.extf %bv : bf16 to f32
        %s = arith.addf %xf, %bf : f32
        %r = arith.maximumf %s, %zero : f32
        %o = arith.truncf %r : f32 to bf16
        memref.store %o, %out[%row, %col] : memref<64x512xbf16>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<64x512xbf16>, %bias: memref<512xbf16>, %out: memref<64x512xbf16>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 512 : index
    gpu.launch_func @kernels::@bias_relu blocks in (%c3, %c64, %c1) threads in (%c256, %c1, %c1) args(%x : memref<64x512xbf16>, %bias : memref<512xbf16>, %out : memref<64x512xbf16>, %n : index)
    return
  }
}

// VEC4-LABEL: gpu.func @bias_relu
// VEC4: %[[ROW:.*]] = gpu.block_id y
// VEC4: %[[C4:.*]] = arith.constant 4 : index
// VEC4: %[[FIRST:.*]] = arith.muli %{{.*}}, %[[C4]] : index
// VEC4: vector.load %{{.*}}[%[[ROW]], %[[FIRST]]] {alignment = 8 : i64} : memref<64x512xbf16>, vector<4xbf16>
// VEC4: vector.load %{{.*}}[%[[FIRST]]] {alignment = 8 : i64} : memref<512xbf16>, vector<4xbf16>
// VEC4: arith.extf %{{.*}} : vector<4xbf16> to vector<4xf32>
// VEC4: arith.maximumf %{{.*}}, %{{.*}} : vector<4xf32>
// VEC4: arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// VEC4: vector.store %{{.*}}, %{{.*}}[%[[ROW]], %[[FIRST]]] {alignment = 8 : i64} : memref<64x512xbf16>, vector<4xbf16>
// VEC4-LABEL: func.func @main
// VEC4: gpu.launch_func @kernels::@bias_relu blocks in (%c1{{.*}}, %c64, %c1) threads in (%c256,
