// 1-D convolution, 9 taps, 16M outputs.
func.func @conv1d(%in: memref<16777224xf32>, %k: memref<9xf32>, %out: memref<16777216xf32>) {
  linalg.conv_1d ins(%in, %k : memref<16777224xf32>, memref<9xf32>) outs(%out : memref<16777216xf32>)
  return
}
