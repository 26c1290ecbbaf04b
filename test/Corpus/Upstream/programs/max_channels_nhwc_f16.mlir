// Max over the channel axis, NHWC, f16: out[n][y][x] = max(out[n][y][x],
// max_c in[n][y][x][c]), 32 images of 128 channels at 64x64 -> 32x64x64.
func.func @max_channels_nhwc_f16(%in: memref<32x64x64x128xf16>, %out: memref<32x64x64xf16>) {
  linalg.reduce ins(%in : memref<32x64x64x128xf16>) outs(%out : memref<32x64x64xf16>) dimensions = [3]
    (%x: f16, %acc: f16) {
      %m = arith.maximumf %x, %acc : f16
      linalg.yield %m : f16
    }
  return
}
