// Reduction over the middle axis of a rank-3 tensor, f32: out[i][k] +=
// sum_j a[i][j][k], 128x513x256 -> 128x256 (a linalg.generic whose
// reduction loop is innermost, so that each output is a parallel point that
// walks j, 256 elements apart).
#a = affine_map<(i, k, j) -> (i, j, k)>
#out = affine_map<(i, k, j) -> (i, k)>
func.func @sum_axis1_rank3(%a: memref<128x513x256xf32>, %out: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [#a, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a : memref<128x513x256xf32>) outs(%out : memref<128x256xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}
