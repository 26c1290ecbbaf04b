// 7x7 average pooling with stride 1, NCHW, f32: out[n][c][y][x] +=
// sum_{ky, kx} in[n][c][y + ky][x + kx] / 49, 8 images of 32 channels at
// 134x134 -> 128x128 (each tap is scaled by 1/49 as it is added; the window
// operand only gives the window's shape).
#in = affine_map<(n, c, y, x, ky, kx) -> (n, c, y + ky, x + kx)>
#window = affine_map<(n, c, y, x, ky, kx) -> (ky, kx)>
#out = affine_map<(n, c, y, x, ky, kx) -> (n, c, y, x)>
func.func @avgpool_nchw_7x7(%in: memref<8x32x134x134xf32>, %window: memref<7x7xf32>, %out: memref<8x32x128x128xf32>) {
  %inv = arith.constant 0.0204081628 : f32
  linalg.generic {indexing_maps = [#in, #window, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %window : memref<8x32x134x134xf32>, memref<7x7xf32>) outs(%out : memref<8x32x128x128xf32>) {
  ^bb0(%x: f32, %unused: f32, %acc: f32):
    %p = arith.mulf %x, %inv : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
