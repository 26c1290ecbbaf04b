// 7x7 convolution with stride 2, NHWC with an HWCF filter, f32:
// out[n][y][x][f] += sum_{ky, kx, c} in[n][2y + ky][2x + kx][c] * w[ky][kx][c][f],
// 2 images of 3 channels at 229x229 to 64 channels at 112x112 (the ResNet
// stem without padding; 236M multiply-adds).
func.func @conv2d_nhwc_7x7_s2(%in: memref<2x229x229x3xf32>, %w: memref<7x7x3x64xf32>, %out: memref<2x112x112x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %w : memref<2x229x229x3xf32>, memref<7x7x3x64xf32>) outs(%out : memref<2x112x112x64xf32>)
  return
}
