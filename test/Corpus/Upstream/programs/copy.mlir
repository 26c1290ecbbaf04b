// Copy, f32, 4096x4096.
func.func @copy(%a: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) {
  linalg.copy ins(%a : memref<4096x4096xf32>) outs(%out : memref<4096x4096xf32>)
  return
}
