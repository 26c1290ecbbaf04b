// 2-D convolution, 3x3 filter, 2048x2048 outputs.
func.func @conv2d(%in: memref<2050x2050xf32>, %k: memref<3x3xf32>, %out: memref<2048x2048xf32>) {
  linalg.conv_2d ins(%in, %k : memref<2050x2050xf32>, memref<3x3xf32>) outs(%out : memref<2048x2048xf32>)
  return
}
