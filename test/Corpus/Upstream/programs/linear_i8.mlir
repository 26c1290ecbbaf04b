// An int8 linear layer: out[m][n] += sum_k x[m][k] * w[n][k] (C += A * B^T,
// the weight stored one output row per line), i8 operands sign-extended to
// i32 products and sums, 2048x768 results over 1024 products each.
func.func @linear_i8(%x: memref<2048x1024xi8>, %w: memref<768x1024xi8>, %out: memref<2048x768xi32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%x, %w : memref<2048x1024xi8>, memref<768x1024xi8>) outs(%out : memref<2048x768xi32>)
  return
}
