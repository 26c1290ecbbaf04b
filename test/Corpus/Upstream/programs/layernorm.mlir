// Row layer normalization as a linalg sequence, f32, 16384x1024: the row
// sum, the sum of squared deviations from the mean, the normalization.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
func.func @layernorm(%x: memref<16384x1024xf32>, %sum: memref<16384xf32>, %sq: memref<16384xf32>, %out: memref<16384x1024xf32>) {
  linalg.reduce ins(%x : memref<16384x1024xf32>) outs(%sum : memref<16384xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [#id, #col, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : memref<16384x1024xf32>, memref<16384xf32>) outs(%sq : memref<16384xf32>) {
  ^bb0(%v: f32, %s: f32, %acc: f32):
    %n = arith.constant 9.765625e-04 : f32
    %mean = arith.mulf %s, %n : f32
    %d = arith.subf %v, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %acc, %d2 : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq : memref<16384x1024xf32>, memref<16384xf32>, memref<16384xf32>) outs(%out : memref<16384x1024xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32, %o: f32):
    %n = arith.constant 9.765625e-04 : f32
    %eps = arith.constant 1.0e-05 : f32
    %mean = arith.mulf %s, %n : f32
    %var = arith.mulf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %v, %mean : f32
    %y = arith.mulf %d, %r : f32
    linalg.yield %y : f32
  }
  return
}
