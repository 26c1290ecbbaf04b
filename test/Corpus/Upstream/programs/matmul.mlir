// C += A * B, f32, 768x768x768.
func.func @matmul(%a: memref<768x768xf32>, %b: memref<768x768xf32>, %c: memref<768x768xf32>) {
  linalg.matmul ins(%a, %b : memref<768x768xf32>, memref<768x768xf32>) outs(%c : memref<768x768xf32>)
  return
}
