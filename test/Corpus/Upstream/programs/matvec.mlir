// y += A * x, f32, 16384x4096.
func.func @matvec(%a: memref<16384x4096xf32>, %x: memref<4096xf32>, %y: memref<16384xf32>) {
  linalg.matvec ins(%a, %x : memref<16384x4096xf32>, memref<4096xf32>) outs(%y : memref<16384xf32>)
  return
}
