// Depthwise 3x3 convolution with stride 2, NCHW with a CHW filter, f32:
// out[n][c][y][x] += sum_{ky, kx} in[n][c][2y + ky][2x + kx] * w[c][ky][kx],
// 4 images of 128 channels at 113x113 -> 56x56.
func.func @depthwise_nchw_3x3_s2(%in: memref<4x128x113x113xf32>, %w: memref<128x3x3xf32>, %out: memref<4x128x56x56xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<4x128x113x113xf32>, memref<128x3x3xf32>) outs(%out : memref<4x128x56x56xf32>)
  return
}
