// 3x3 convolution with stride 1, NHWC with an HWCF filter, f16 inputs and
// an f32 result (each product of two halves is exact in f32, the sums round
// in f32): out[n][y][x][f] += sum_{ky, kx, c} in[n][y + ky][x + kx][c] *
// w[ky][kx][c][f], 8 images of 32 channels at 58x58 to 32 channels at 56x56.
func.func @conv2d_nhwc_3x3_f16(%in: memref<8x58x58x32xf16>, %w: memref<3x3x32x32xf16>, %out: memref<8x56x56x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<8x58x58x32xf16>, memref<3x3x32x32xf16>) outs(%out : memref<8x56x56x32xf32>)
  return
}
