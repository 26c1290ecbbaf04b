// Depthwise 5x5 convolution with stride 1, NHWC with an HWC filter, f32:
// out[n][y][x][c] += sum_{ky, kx} in[n][y + ky][x + kx][c] * w[ky][kx][c],
// 2 images of 256 channels at 60x60 -> 56x56.
func.func @depthwise_nhwc_5x5(%in: memref<2x60x60x256xf32>, %w: memref<5x5x256xf32>, %out: memref<2x56x56x256xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<2x60x60x256xf32>, memref<5x5x256xf32>) outs(%out : memref<2x56x56x256xf32>)
  return
}
