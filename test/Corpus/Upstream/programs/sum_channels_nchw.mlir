// Reduction over the channel axis, NCHW, f32: out[n][y][x] += sum_c
// in[n][c][y][x], 16 images of 256 channels at 56x56 -> 16x56x56 (a
// linalg.generic whose reduction loop is innermost, so that each output is
// a parallel point that walks the channels, 3136 elements apart).
#in = affine_map<(n, y, x, c) -> (n, c, y, x)>
#out = affine_map<(n, y, x, c) -> (n, y, x)>
func.func @sum_channels_nchw(%in: memref<16x256x56x56xf32>, %out: memref<16x56x56xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%in : memref<16x256x56x56xf32>) outs(%out : memref<16x56x56xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}
