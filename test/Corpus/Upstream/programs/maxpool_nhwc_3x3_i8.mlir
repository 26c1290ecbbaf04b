// 3x3 max pooling with stride 1 on quantized activations, NHWC, i8 (signed
// max): out[n][y][x][c] = max(out[n][y][x][c], max_{ky, kx} in[n][y + ky][x + kx][c]),
// 8 images of 64 channels at 66x66 -> 64x64 (the window operand only gives
// the window's shape).
func.func @maxpool_nhwc_3x3_i8(%in: memref<8x66x66x64xi8>, %window: memref<3x3xi8>, %out: memref<8x64x64x64xi8>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %window : memref<8x66x66x64xi8>, memref<3x3xi8>) outs(%out : memref<8x64x64x64xi8>)
  return
}
