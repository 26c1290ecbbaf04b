// Attention scores S[h] += Q[h] * K[h]^T: s[h][i][j] += sum_d q[h][i][d] *
// k[h][j][d], 12 heads of 1024 queries and 1024 keys with 64 features, f16
// operands and an f32 result (each product of two halves is exact in f32).
func.func @bmm_q_kt_f16(%q: memref<12x1024x64xf16>, %k: memref<12x1024x64xf16>, %s: memref<12x1024x1024xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>]
    ins(%q, %k : memref<12x1024x64xf16>, memref<12x1024x64xf16>) outs(%s : memref<12x1024x1024xf32>)
  return
}
