// Column broadcast, f16: out[i][j] = a[i][j] / s[i] (each row divided by
// its own positive scale), 16384x777.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
func.func @div_colvec_f16(%a: memref<16384x777xf16>, %s: memref<16384xf16>, %out: memref<16384x777xf16>) {
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s : memref<16384x777xf16>, memref<16384xf16>) outs(%out : memref<16384x777xf16>) {
  ^bb0(%x: f16, %y: f16, %unused: f16):
    %q = arith.divf %x, %y : f16
    linalg.yield %q : f16
  }
  return
}
