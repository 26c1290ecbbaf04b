// 5x5 sum pooling with stride 1, NCHW, bf16 input summed into f32:
// out[n][c][y][x] += sum_{ky, kx} in[n][c][y + ky][x + kx], 8 images of 16
// channels at 132x132 -> 128x128 (the window operand only gives the
// window's shape).
func.func @sumpool_nchw_5x5_bf16(%in: memref<8x16x132x132xbf16>, %window: memref<5x5xbf16>, %out: memref<8x16x128x128xf32>) {
  linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %window : memref<8x16x132x132xbf16>, memref<5x5xbf16>) outs(%out : memref<8x16x128x128xf32>)
  return
}
