// 1-D convolution, 9 taps, 4M outputs.
func.func @conv1d(%in: memref<4194312xf32>, %k: memref<9xf32>, %out: memref<4194304xf32>) {
  linalg.conv_1d ins(%in, %k : memref<4194312xf32>, memref<9xf32>) outs(%out : memref<4194304xf32>)
  return
}
