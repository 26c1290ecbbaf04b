// 3x3 max pooling with stride 2, NCHW, f32: out[n][c][y][x] = max(out[n][c][y][x],
// max_{ky, kx} in[n][c][2y + ky][2x + kx]), 8 images of 64 channels at
// 113x113 -> 56x56 (the window operand only gives the window's shape).
func.func @maxpool_nchw_3x3_s2(%in: memref<8x64x113x113xf32>, %window: memref<3x3xf32>, %out: memref<8x64x56x56xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %window : memref<8x64x113x113xf32>, memref<3x3xf32>) outs(%out : memref<8x64x56x56xf32>)
  return
}
