// 5x5 convolution with stride 2, NCHW, f32: out[n][f][y][x] += sum_{c, ky, kx}
// in[n][c][2y + ky][2x + kx] * w[f][c][ky][kx], 32 images of 3 channels at
// 131x131 to 32 channels at 64x64 (a stem layer; 315M multiply-adds).
func.func @conv2d_nchw_5x5_s2(%in: memref<32x3x131x131xf32>, %w: memref<32x3x5x5xf32>, %out: memref<32x32x64x64xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<32x3x131x131xf32>, memref<32x3x5x5xf32>) outs(%out : memref<32x32x64x64xf32>)
  return
}
