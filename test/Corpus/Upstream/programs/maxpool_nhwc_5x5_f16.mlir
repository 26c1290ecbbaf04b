// 5x5 max pooling with stride 1, NHWC, f16: out[n][y][x][c] = max(out[n][y][x][c],
// max_{ky, kx} in[n][y + ky][x + kx][c]), 4 images of 256 channels at
// 68x68 -> 64x64 (a YOLO SPPF pool without padding; the window operand only
// gives the window's shape).
func.func @maxpool_nhwc_5x5_f16(%in: memref<4x68x68x256xf16>, %window: memref<5x5xf16>, %out: memref<4x64x64x256xf16>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %window : memref<4x68x68x256xf16>, memref<5x5xf16>) outs(%out : memref<4x64x64x256xf16>)
  return
}
