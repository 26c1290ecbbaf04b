// 2-D convolution, 3x3 filter, 4096x4096 outputs.
func.func @conv2d(%in: memref<4098x4098xf32>, %k: memref<3x3xf32>, %out: memref<4096x4096xf32>) {
  linalg.conv_2d ins(%in, %k : memref<4098x4098xf32>, memref<3x3xf32>) outs(%out : memref<4096x4096xf32>)
  return
}
