// Depthwise 3x3 convolution, HWC, 514x514x64 -> 512x512x64.
#in = affine_map<(h, w, c, kh, kw) -> (h + kh, w + kw, c)>
#filter = affine_map<(h, w, c, kh, kw) -> (kh, kw, c)>
#out = affine_map<(h, w, c, kh, kw) -> (h, w, c)>
func.func @depthwise_conv2d(%in: memref<514x514x64xf32>, %k: memref<3x3x64xf32>, %out: memref<512x512x64xf32>) {
  linalg.generic {indexing_maps = [#in, #filter, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %k : memref<514x514x64xf32>, memref<3x3x64xf32>) outs(%out : memref<512x512x64xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
