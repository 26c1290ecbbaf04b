// Broadcast over the leading axis of a rank-3 tensor (an attention mask
// added to every head's scores), f32: out[h][i][j] = s[h][i][j] + mask[i][j],
// 32x513x513.
#id = affine_map<(h, i, j) -> (h, i, j)>
#mask = affine_map<(h, i, j) -> (i, j)>
func.func @add_mask_rank3(%s: memref<32x513x513xf32>, %mask: memref<513x513xf32>, %out: memref<32x513x513xf32>) {
  linalg.generic {indexing_maps = [#id, #mask, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : memref<32x513x513xf32>, memref<513x513xf32>) outs(%out : memref<32x513x513xf32>) {
  ^bb0(%x: f32, %m: f32, %unused: f32):
    %a = arith.addf %x, %m : f32
    linalg.yield %a : f32
  }
  return
}
