// Type conversion f32 -> f16, 8192x8192.
#id = affine_map<(i, j) -> (i, j)>
func.func @truncf_f16(%a: memref<8192x8192xf32>, %out: memref<8192x8192xf16>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8192x8192xf32>) outs(%out : memref<8192x8192xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}
