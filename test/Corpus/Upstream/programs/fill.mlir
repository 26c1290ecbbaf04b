// Fill with a constant, f32, 8192x8192.
func.func @fill(%out: memref<8192x8192xf32>) {
  %v = arith.constant 1.5 : f32
  linalg.fill ins(%v : f32) outs(%out : memref<8192x8192xf32>)
  return
}
