// Row-vector broadcast, f64: out[i][j] = a[i][j] - v[j], 4096x1000.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @sub_rowvec_f64(%a: memref<4096x1000xf64>, %v: memref<1000xf64>, %out: memref<4096x1000xf64>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %v : memref<4096x1000xf64>, memref<1000xf64>) outs(%out : memref<4096x1000xf64>) {
  ^bb0(%x: f64, %y: f64, %unused: f64):
    %d = arith.subf %x, %y : f64
    linalg.yield %d : f64
  }
  return
}
