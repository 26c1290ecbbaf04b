// 3x3 sum pooling with stride 1, CHW, 64x514x514 -> 64x512x512.
#in = affine_map<(c, h, w, kh, kw) -> (c, h + kh, w + kw)>
#window = affine_map<(c, h, w, kh, kw) -> (kh, kw)>
#out = affine_map<(c, h, w, kh, kw) -> (c, h, w)>
func.func @sumpool(%in: memref<64x514x514xf32>, %window: memref<3x3xf32>, %out: memref<64x512x512xf32>) {
  linalg.generic {indexing_maps = [#in, #window, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %window : memref<64x514x514xf32>, memref<3x3xf32>) outs(%out : memref<64x512x512xf32>) {
  ^bb0(%x: f32, %unused: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}
