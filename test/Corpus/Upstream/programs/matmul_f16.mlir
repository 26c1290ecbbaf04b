// C += A * B with f16 operands and an f32 result, 2048x2048x2048: each
// product of two halves is exact in f32, the sums round in f32 (what
// tensor cores compute with f32 accumulation).
func.func @matmul_f16(%a: memref<2048x2048xf16>, %b: memref<2048x2048xf16>, %c: memref<2048x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x2048xf16>, memref<2048x2048xf16>) outs(%c : memref<2048x2048xf32>)
  return
}
