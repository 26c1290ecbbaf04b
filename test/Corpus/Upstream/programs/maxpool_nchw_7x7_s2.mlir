// 7x7 max pooling with stride 2, NCHW, f32: out[n][c][y][x] = max(out[n][c][y][x],
// max_{ky, kx} in[n][c][2y + ky][2x + kx]), 4 images of 32 channels at
// 135x135 -> 65x65 (the window operand only gives the window's shape).
func.func @maxpool_nchw_7x7_s2(%in: memref<4x32x135x135xf32>, %window: memref<7x7xf32>, %out: memref<4x32x65x65xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %window : memref<4x32x135x135xf32>, memref<7x7xf32>) outs(%out : memref<4x32x65x65xf32>)
  return
}
