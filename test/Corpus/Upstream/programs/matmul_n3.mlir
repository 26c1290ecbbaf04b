// A skinny C += A * B, f32: 65536 rows of 256 features projected to 3
// outputs (an RGB head), 65536x3 results over 256 products each.
func.func @matmul_n3(%a: memref<65536x256xf32>, %b: memref<256x3xf32>, %c: memref<65536x3xf32>) {
  linalg.matmul ins(%a, %b : memref<65536x256xf32>, memref<256x3xf32>) outs(%c : memref<65536x3xf32>)
  return
}
