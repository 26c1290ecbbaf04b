// 1x1 convolution with stride 2 (a residual shortcut that halves the
// image), NCHW, f32: out[n][f][y][x] += sum_c in[n][c][2y][2x] * w[f][c][0][0],
// 2 images of 64 channels at 57x57 to 128 channels at 29x29.
func.func @conv2d_nchw_1x1_s2(%in: memref<2x64x57x57xf32>, %w: memref<128x64x1x1xf32>, %out: memref<2x128x29x29xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<2x64x57x57xf32>, memref<128x64x1x1xf32>) outs(%out : memref<2x128x29x29xf32>)
  return
}
