// Global average pooling, NHWC, f32: out[n][c] += sum_{y, x} in[n][y][x][c] / 49,
// 128 images of 256 channels at 7x7 -> 128x256 (each value is scaled by 1/49
// as it is added).
#in = affine_map<(n, c, y, x) -> (n, y, x, c)>
#out = affine_map<(n, c, y, x) -> (n, c)>
func.func @global_avgpool_nhwc(%in: memref<128x7x7x256xf32>, %out: memref<128x256xf32>) {
  %inv = arith.constant 0.0204081628 : f32
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%in : memref<128x7x7x256xf32>) outs(%out : memref<128x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %p = arith.mulf %x, %inv : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
