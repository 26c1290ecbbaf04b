// Column broadcast: out[i][j] = a[i][j] * s[i], f32, 8192x4096.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
func.func @col_scale(%a: memref<8192x4096xf32>, %s: memref<8192xf32>, %out: memref<8192x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s : memref<8192x4096xf32>, memref<8192xf32>) outs(%out : memref<8192x4096xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %p = arith.mulf %x, %b : f32
    linalg.yield %p : f32
  }
  return
}
