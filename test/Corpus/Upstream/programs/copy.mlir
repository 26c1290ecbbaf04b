// Copy, f32, 8192x4096.
func.func @copy(%a: memref<8192x4096xf32>, %out: memref<8192x4096xf32>) {
  linalg.copy ins(%a : memref<8192x4096xf32>) outs(%out : memref<8192x4096xf32>)
  return
}
