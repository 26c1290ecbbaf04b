// C += A * B with bf16 operands and an f32 result, 2048x2048x2048: each
// product of two bf16 values is exact in f32, the sums round in f32 (what
// tensor cores compute with f32 accumulation; bf16 keeps f32's exponent
// range, so no scaling is needed).
func.func @matmul_bf16(%a: memref<2048x2048xbf16>, %b: memref<2048x2048xbf16>, %c: memref<2048x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x2048xbf16>, memref<2048x2048xbf16>) outs(%c : memref<2048x2048xf32>)
  return
}
