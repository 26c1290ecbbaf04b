// Dequantization: out = (f32)q * scale[j], i8 -> f32, 8192x8192.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @dequant_i8(%q: memref<8192x8192xi8>, %scale: memref<8192xf32>, %out: memref<8192x8192xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q, %scale : memref<8192x8192xi8>, memref<8192xf32>) outs(%out : memref<8192x8192xf32>) {
  ^bb0(%x: i8, %s: f32, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    %p = arith.mulf %f, %s : f32
    linalg.yield %p : f32
  }
  return
}
