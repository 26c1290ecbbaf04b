// Fill with a constant, f32, 4096x4096.
func.func @fill(%out: memref<4096x4096xf32>) {
  %v = arith.constant 1.5 : f32
  linalg.fill ins(%v : f32) outs(%out : memref<4096x4096xf32>)
  return
}
