// out[f][y][x] += sum_{c, ky, kx} in[c][y + ky][x + kx] * w[f][c][ky][kx]:
// a 3x3 convolution over 128 input channels to 128 output channels on a
// 112x112 image (one image: the batch dimension would make four parallel
// dimensions, which upstream's mapping of parallel loops to GPU does not
// lower), f32. Compute-bound: 3.7 GFLOP over 13 MB.
#in = affine_map<(f, y, x, c, ky, kx) -> (c, y + ky, x + kx)>
#w = affine_map<(f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#out = affine_map<(f, y, x, c, ky, kx) -> (f, y, x)>
func.func @conv2d_channels(%in: memref<128x114x114xf32>, %w: memref<128x128x3x3xf32>, %out: memref<128x112x112xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%in, %w : memref<128x114x114xf32>, memref<128x128x3x3xf32>) outs(%out : memref<128x112x112xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
