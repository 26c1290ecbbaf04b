// Attention output O[h] += P[h] * V[h]: o[h][i][d] += sum_j p[h][i][j] *
// v[h][j][d], 16 heads of 1000 queries over 1000 keys with 64 features,
// bf16 operands and an f32 result.
func.func @bmm_pv_bf16(%p: memref<16x1000x1000xbf16>, %v: memref<16x1000x64xbf16>, %o: memref<16x1000x64xf32>) {
  linalg.batch_matmul ins(%p, %v : memref<16x1000x1000xbf16>, memref<16x1000x64xbf16>) outs(%o : memref<16x1000x64xf32>)
  return
}
