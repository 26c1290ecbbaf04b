// 3x3 sum pooling with stride 2, NHWC, f32: out[n][y][x][c] += sum_{ky, kx}
// in[n][2y + ky][2x + kx][c], 8 images of 32 channels at 257x257 -> 128x128
// (the window operand only gives the window's shape).
func.func @sumpool_nhwc_3x3_s2(%in: memref<8x257x257x32xf32>, %window: memref<3x3xf32>, %out: memref<8x128x128x32xf32>) {
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %window : memref<8x257x257x32xf32>, memref<3x3xf32>) outs(%out : memref<8x128x128x32xf32>)
  return
}
