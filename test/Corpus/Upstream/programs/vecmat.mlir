// y += x * A, f32, 4096x16384 (a column walk per output).
func.func @vecmat(%x: memref<4096xf32>, %a: memref<4096x16384xf32>, %y: memref<16384xf32>) {
  linalg.vecmat ins(%x, %a : memref<4096xf32>, memref<4096x16384xf32>) outs(%y : memref<16384xf32>)
  return
}
