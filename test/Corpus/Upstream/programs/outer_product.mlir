// out[i][j] = x[i] * y[j], f32, 4096x4096.
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @outer_product(%x: memref<4096xf32>, %y: memref<4096xf32>, %out: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<4096xf32>, memref<4096xf32>) outs(%out : memref<4096x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  }
  return
}
