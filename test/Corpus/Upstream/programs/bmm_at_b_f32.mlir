// Batched C[b] += A[b]^T * B[b]: c[b][m][n] += sum_k a[b][k][m] * b[b][k][n],
// f32, 24 batches of 256x384 results over 129 products each (a weight
// gradient's shape).
func.func @bmm_at_b_f32(%a: memref<24x129x256xf32>, %b: memref<24x129x384xf32>, %c: memref<24x256x384xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<24x129x256xf32>, memref<24x129x384xf32>) outs(%c : memref<24x256x384xf32>)
  return
}
