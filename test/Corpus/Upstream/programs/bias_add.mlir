// Row broadcast: out[i][j] = a[i][j] + bias[j], f32, 8192x4096.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @bias_add(%a: memref<8192x4096xf32>, %bias: memref<4096xf32>, %out: memref<8192x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %bias : memref<8192x4096xf32>, memref<4096xf32>) outs(%out : memref<8192x4096xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  }
  return
}
