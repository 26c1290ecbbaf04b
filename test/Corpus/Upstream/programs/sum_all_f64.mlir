// Full reduction of a vector, f64: out[0] += sum_i x[i], 100003 elements
// (the one-element output is a parallel dimension of extent 1, so that the
// reduction becomes a kernel: one thread sums everything).
#x = affine_map<(p, i) -> (i)>
#out = affine_map<(p, i) -> (p)>
func.func @sum_all_f64(%x: memref<100003xf64>, %out: memref<1xf64>) {
  linalg.generic {indexing_maps = [#x, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<100003xf64>) outs(%out : memref<1xf64>) {
  ^bb0(%v: f64, %acc: f64):
    %s = arith.addf %acc, %v : f64
    linalg.yield %s : f64
  }
  return
}
