// y += A * x, f32, 4096x4096.
func.func @matvec(%a: memref<4096x4096xf32>, %x: memref<4096xf32>, %y: memref<4096xf32>) {
  linalg.matvec ins(%a, %x : memref<4096x4096xf32>, memref<4096xf32>) outs(%y : memref<4096xf32>)
  return
}
