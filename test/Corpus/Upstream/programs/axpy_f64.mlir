// Rank-1 daxpy, f64: out[i] = 2.5 * x[i] + y[i], 8388609 elements.
#id = affine_map<(i) -> (i)>
func.func @axpy_f64(%x: memref<8388609xf64>, %y: memref<8388609xf64>, %out: memref<8388609xf64>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : memref<8388609xf64>, memref<8388609xf64>) outs(%out : memref<8388609xf64>) {
  ^bb0(%a: f64, %b: f64, %unused: f64):
    %alpha = arith.constant 2.5 : f64
    %p = arith.mulf %a, %alpha : f64
    %s = arith.addf %p, %b : f64
    linalg.yield %s : f64
  }
  return
}
