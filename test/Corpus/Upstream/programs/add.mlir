// Elementwise a + b, f32, 8192x4096.
func.func @add(%a: memref<8192x4096xf32>, %b: memref<8192x4096xf32>, %c: memref<8192x4096xf32>) {
  linalg.add ins(%a, %b : memref<8192x4096xf32>, memref<8192x4096xf32>) outs(%c : memref<8192x4096xf32>)
  return
}
