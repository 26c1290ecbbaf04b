// The reference module of autoprof-verify-kernels-errors.mlir: kernels as an
// upstream pipeline writes them (loop step and lower bound as arguments,
// launch sizes computed with affine maps on the host).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%step: index, %lb: index, %x: memref<256xf32>, %y: memref<256xf32>, %a: f32) kernel {
      %bid = gpu.block_id x
      %scaled = arith.muli %bid, %step : index
      %i = arith.addi %scaled, %lb : index
      %v = memref.load %x[%i] : memref<256xf32>
      %r = arith.mulf %v, %a : f32
      memref.store %r, %y[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @unlaunched(%x: memref<64xf32>) kernel {
      gpu.return
    }
    gpu.func @looped(%i: index, %x: memref<64xf32>) kernel {
      %bid = gpu.block_id x
      %j = arith.addi %bid, %i : index
      %c0 = arith.constant 0.0 : f32
      memref.store %c0, %x[%j] : memref<64xf32>
      gpu.return
    }
    gpu.func @shifted(%i: index, %x: memref<64xf32>) kernel {
      %bid = gpu.block_id x
      %j = arith.addi %bid, %i : index
      %c0 = arith.constant 0.0 : f32
      memref.store %c0, %x[%j] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<256xf32>, %y: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %a = arith.constant 2.0 : f32
    %grid = affine.apply affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>(%c256)[%c0, %c1]
    gpu.launch_func @kernels::@scale blocks in (%grid, %c1, %c1) threads in (%c1, %c1, %c1) args(%c1 : index, %c0 : index, %x : memref<256xf32>, %y : memref<256xf32>, %a : f32)
    %t = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@looped blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%i : index, %t : memref<64xf32>)
      %i1 = arith.addi %i, %c1 : index
      gpu.launch_func @kernels::@shifted blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%i1 : index, %t : memref<64xf32>)
    }
    return
  }
}
