// out[i][j] = x[i] * y[j], f32, 8192x8192.
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @outer_product(%x: memref<8192xf32>, %y: memref<8192xf32>, %out: memref<8192x8192xf32>) {
  linalg.generic {indexing_maps = [#col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<8192xf32>, memref<8192xf32>) outs(%out : memref<8192x8192xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  }
  return
}
