// 2x2 max pooling with stride 2, HWC, 1024x1024x32 -> 512x512x32.
#in = affine_map<(h, w, c, kh, kw) -> (h * 2 + kh, w * 2 + kw, c)>
#window = affine_map<(h, w, c, kh, kw) -> (kh, kw)>
#out = affine_map<(h, w, c, kh, kw) -> (h, w, c)>
func.func @maxpool(%in: memref<1024x1024x32xf32>, %window: memref<2x2xf32>, %out: memref<512x512x32xf32>) {
  linalg.generic {indexing_maps = [#in, #window, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %window : memref<1024x1024x32xf32>, memref<2x2xf32>) outs(%out : memref<512x512x32xf32>) {
  ^bb0(%x: f32, %unused: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  }
  return
}
