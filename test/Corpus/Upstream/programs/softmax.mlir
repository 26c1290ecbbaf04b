// Row softmax as a linalg sequence, f32, 16384x1024: the row max, exp of the
// shifted values, the row sum, the division.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
func.func @softmax(%x: memref<16384x1024xf32>, %max: memref<16384xf32>, %sum: memref<16384xf32>, %e: memref<16384x1024xf32>, %out: memref<16384x1024xf32>) {
  linalg.reduce ins(%x : memref<16384x1024xf32>) outs(%max : memref<16384xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %m = arith.maximumf %v, %acc : f32
      linalg.yield %m : f32
    }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<16384x1024xf32>, memref<16384xf32>) outs(%e : memref<16384x1024xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  }
  linalg.reduce ins(%e : memref<16384x1024xf32>) outs(%sum : memref<16384xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : memref<16384x1024xf32>, memref<16384xf32>) outs(%out : memref<16384x1024xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  }
  return
}
