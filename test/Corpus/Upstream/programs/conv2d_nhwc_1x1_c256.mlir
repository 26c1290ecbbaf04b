// 1x1 (pointwise) convolution, NHWC with an HWCF filter, f32:
// out[n][y][x][f] += sum_c in[n][y][x][c] * w[0][0][c][f], 4 images of
// 28x28 from 256 to 128 channels (103M multiply-adds).
func.func @conv2d_nhwc_1x1_c256(%in: memref<4x28x28x256xf32>, %w: memref<1x1x256x128xf32>, %out: memref<4x28x28x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %w : memref<4x28x28x256xf32>, memref<1x1x256x128xf32>) outs(%out : memref<4x28x28x128xf32>)
  return
}
