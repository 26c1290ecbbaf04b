// Elementwise a + b, f16, 8192x8192.
func.func @add_f16(%a: memref<8192x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<8192x8192xf16>) {
  linalg.add ins(%a, %b : memref<8192x8192xf16>, memref<8192x8192xf16>) outs(%c : memref<8192x8192xf16>)
  return
}
