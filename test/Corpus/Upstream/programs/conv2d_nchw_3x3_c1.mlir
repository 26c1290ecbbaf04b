// 3x3 convolution with stride 1 from one input channel, NCHW, f32:
// out[n][f][y][x] += sum_{ky, kx} in[n][0][y + ky][x + kx] * w[f][0][ky][kx],
// 16 single-channel 130x130 images to 16 channels at 128x128.
func.func @conv2d_nchw_3x3_c1(%in: memref<16x1x130x130xf32>, %w: memref<16x1x3x3xf32>, %out: memref<16x16x128x128xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<16x1x130x130xf32>, memref<16x1x3x3xf32>) outs(%out : memref<16x16x128x128xf32>)
  return
}
