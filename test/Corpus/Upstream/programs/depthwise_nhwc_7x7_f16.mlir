// Depthwise 7x7 convolution with stride 1 (a ConvNeXt block), NHWC with an
// HWC filter, f16 inputs and an f32 result: out[n][y][x][c] += sum_{ky, kx}
// in[n][y + ky][x + kx][c] * w[ky][kx][c], 2 images of 128 channels at
// 62x62 -> 56x56.
func.func @depthwise_nhwc_7x7_f16(%in: memref<2x62x62x128xf16>, %w: memref<7x7x128xf16>, %out: memref<2x56x56x128xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<2x62x62x128xf16>, memref<7x7x128xf16>) outs(%out : memref<2x56x56x128xf32>)
  return
}
