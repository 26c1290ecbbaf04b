// RUN: autoprof-opt %s --autoprof-extract-features | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t && autoprof-opt %s --autoprof-lower-to-ptx="ptx-dir=%t" -o /dev/null
// RUN: %if ptxas %{ %ptxas %t/kernels.ptx -o %t/kernels.cubin %}
// RUN: autoprof-opt %s --autoprof-normalize-kernels --autoprof-lower-to-ptx -o /dev/null
//
// KIND: divergence
// Mandelbrot escape-time counts (max 512 iterations) for a 4096 x 4096 image of [-2.25, 0.75] x [-1.5, 1.5],
// i32 counts out; scf.while with data-dependent exit, grid (256, 256) x block (16, 16).
// Slow as written: lanes of a warp exit at very different iterations (SIMT divergence), no early-out tests.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mandelbrot(%out: memref<4096x4096xi32>, %width: index, %height: index, %x0: f32, %y0: f32, %dxs: f32, %dys: f32, %maxit: i32) kernel {
      %zero = arith.constant 0.000000e+00 : f32
      %two = arith.constant 2.000000e+00 : f32
      %four = arith.constant 4.000000e+00 : f32
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %px0 = arith.muli %bx, %dx : index
      %px = arith.addi %px0, %tx : index
      %py0 = arith.muli %by, %dy : index
      %py = arith.addi %py0, %ty : index
      %xok = arith.cmpi ult, %px, %width : index
      %yok = arith.cmpi ult, %py, %height : index
      %ok = arith.andi %xok, %yok : i1
      scf.if %ok {
        %pxi = arith.index_castui %px : index to i32
        %pyi = arith.index_castui %py : index to i32
        %pxf = arith.uitofp %pxi : i32 to f32
        %pyf = arith.uitofp %pyi : i32 to f32
        %ofx = arith.mulf %pxf, %dxs : f32
        %ofy = arith.mulf %pyf, %dys : f32
        %cr = arith.addf %x0, %ofx : f32
        %ci = arith.addf %y0, %ofy : f32
        %res:3 = scf.while (%it = %i0, %zr = %zero, %zi = %zero) : (i32, f32, f32) -> (i32, f32, f32) {
          %zr2 = arith.mulf %zr, %zr : f32
          %zi2 = arith.mulf %zi, %zi : f32
          %mag = arith.addf %zr2, %zi2 : f32
          %inside = arith.cmpf ole, %mag, %four : f32
          %more = arith.cmpi slt, %it, %maxit : i32
          %go = arith.andi %inside, %more : i1
          scf.condition(%go) %it, %zr, %zi : i32, f32, f32
        } do {
        ^bb0(%it: i32, %zr: f32, %zi: f32):
          %zr2 = arith.mulf %zr, %zr : f32
          %zi2 = arith.mulf %zi, %zi : f32
          %d = arith.subf %zr2, %zi2 : f32
          %nzr = arith.addf %d, %cr : f32
          %p = arith.mulf %zr, %zi : f32
          %p2 = arith.mulf %p, %two : f32
          %nzi = arith.addf %p2, %ci : f32
          %nit = arith.addi %it, %i1 : i32
          scf.yield %nit, %nzr, %nzi : i32, f32, f32
        }
        memref.store %res#0, %out[%py, %px] : memref<4096x4096xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gx = arith.constant 256 : index
    %gy = arith.constant 256 : index
    %width = arith.constant 4096 : index
    %height = arith.constant 4096 : index
    %x0 = arith.constant -2.250000e+00 : f32
    %y0 = arith.constant -1.500000e+00 : f32
    %dxs = arith.constant 7.32421875E-4 : f32
    %dys = arith.constant 7.32421875E-4 : f32
    %maxit = arith.constant 512 : i32
    %out = memref.alloc() : memref<4096x4096xi32>
    gpu.launch_func @kernels::@mandelbrot blocks in (%gx, %gy, %c1) threads in (%c16, %c16, %c1) args(%out : memref<4096x4096xi32>, %width : index, %height : index, %x0 : f32, %y0 : f32, %dxs : f32, %dys : f32, %maxit : i32)
    return
  }
}

// CHECK-LABEL: gpu.func @mandelbrot
// CHECK-SAME: autoprof.features = {
// CHECK-SAME: atomics = 0 : i64
// CHECK-SAME: barriers = 0 : i64
// CHECK-SAME: divergent_branches = 2 : i64
// CHECK-SAME: flops = 15 : i64
// CHECK-SAME: global_bytes_per_thread = 4 : i64
// CHECK-SAME: global_loads = 0 : i64
// CHECK-SAME: global_stores = 1 : i64
// CHECK-SAME: loop_depth = 1 : i64
// CHECK-SAME: unknown_trip_loops = 1 : i64
