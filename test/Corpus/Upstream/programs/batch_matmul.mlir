// C[b] += A[b] * B[b], f32, 128 batches of 128x128x128.
func.func @batch_matmul(%a: memref<128x128x128xf32>, %b: memref<128x128x128xf32>, %c: memref<128x128x128xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<128x128x128xf32>, memref<128x128x128xf32>) outs(%c : memref<128x128x128xf32>)
  return
}
