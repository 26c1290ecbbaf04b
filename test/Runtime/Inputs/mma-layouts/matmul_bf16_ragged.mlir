// The linalg program below, lowered by mlir-opt-22 --convert-linalg-to-parallel-loops
// --scf-parallel-loop-tiling=parallel-loop-tile-sizes=16,16 --gpu-map-parallel-loops
// --convert-parallel-loops-to-gpu --gpu-kernel-outlining, for the GPU tests of
// mma-tile's layouts (test/Runtime/rewrite-chains-mma.test):
//
//   func.func @matmul_bf16_ragged(%a: memref<208x72xbf16>, %b: memref<72x336xbf16>, %c: memref<208x336xf32>) {
//     linalg.matmul ins(%a, %b : memref<208x72xbf16>, memref<72x336xbf16>) outs(%c : memref<208x336xf32>)
//     return
//   }

#map = affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>
#map1 = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
module attributes {gpu.container_module} {
  func.func @matmul_bf16_ragged(%arg0: memref<208x72xbf16>, %arg1: memref<72x336xbf16>, %arg2: memref<208x336xf32>) {
    %c0 = arith.constant 0 : index
    %c208 = arith.constant 208 : index
    %c1 = arith.constant 1 : index
    %c336 = arith.constant 336 : index
    %c72 = arith.constant 72 : index
    %c0_0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c16_1 = arith.constant 16 : index
    %0 = arith.muli %c1, %c16 : index
    %1 = arith.muli %c1, %c16_1 : index
    %c1_2 = arith.constant 1 : index
    %2 = affine.apply #map(%c208)[%c0, %0]
    %3 = affine.apply #map(%c336)[%c0, %1]
    %4 = affine.apply #map(%0)[%c0_0, %c1]
    %5 = affine.apply #map(%1)[%c0_0, %c1]
    gpu.launch_func  @matmul_bf16_ragged_kernel::@matmul_bf16_ragged_kernel blocks in (%2, %3, %c1_2) threads in (%4, %5, %c1_2)  args(%0 : index, %c0 : index, %1 : index, %c1 : index, %c0_0 : index, %arg0 : memref<208x72xbf16>, %arg1 : memref<72x336xbf16>, %arg2 : memref<208x336xf32>, %c72 : index)
    return
  }
  gpu.module @matmul_bf16_ragged_kernel {
    gpu.func @matmul_bf16_ragged_kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: memref<208x72xbf16>, %arg6: memref<72x336xbf16>, %arg7: memref<208x336xf32>, %arg8: index) kernel {
      %block_id_x = gpu.block_id  x
      %block_id_y = gpu.block_id  y
      %block_id_z = gpu.block_id  z
      %thread_id_x = gpu.thread_id  x
      %thread_id_y = gpu.thread_id  y
      %thread_id_z = gpu.thread_id  z
      %grid_dim_x = gpu.grid_dim  x
      %grid_dim_y = gpu.grid_dim  y
      %grid_dim_z = gpu.grid_dim  z
      %block_dim_x = gpu.block_dim  x
      %block_dim_y = gpu.block_dim  y
      %block_dim_z = gpu.block_dim  z
      %0 = affine.apply #map1(%block_id_x)[%arg0, %arg1]
      %1 = affine.apply #map1(%block_id_y)[%arg2, %arg1]
      %2 = affine.apply #map1(%thread_id_x)[%arg3, %arg4]
      %3 = affine.apply #map1(%thread_id_y)[%arg3, %arg4]
      %4 = arith.addi %2, %0 : index
      %5 = arith.addi %3, %1 : index
      scf.for %arg9 = %arg1 to %arg8 step %arg3 {
        %6 = memref.load %arg5[%4, %arg9] : memref<208x72xbf16>
        %7 = memref.load %arg6[%arg9, %5] : memref<72x336xbf16>
        %8 = memref.load %arg7[%4, %5] : memref<208x336xf32>
        %9 = arith.extf %6 : bf16 to f32
        %10 = arith.extf %7 : bf16 to f32
        %11 = arith.mulf %9, %10 : f32
        %12 = arith.addf %8, %11 : f32
        memref.store %12, %arg7[%4, %5] : memref<208x336xf32>
      }
      gpu.return
    }
  }
}

