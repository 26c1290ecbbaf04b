// Column max, i8 (signed): out[j] = max(out[j], max_i a[i][j]), 8192x1000
// (a linalg.generic whose reduction loop is innermost: one kernel in which
// each column walks its 8192 rows, where linalg.reduce over dimension 0
// would launch a kernel per row).
#a = affine_map<(j, i) -> (i, j)>
#out = affine_map<(j, i) -> (j)>
func.func @col_max_i8(%a: memref<8192x1000xi8>, %out: memref<1000xi8>) {
  linalg.generic {indexing_maps = [#a, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8192x1000xi8>) outs(%out : memref<1000xi8>) {
  ^bb0(%v: i8, %acc: i8):
    %m = arith.maxsi %acc, %v : i8
    linalg.yield %m : i8
  }
  return
}
