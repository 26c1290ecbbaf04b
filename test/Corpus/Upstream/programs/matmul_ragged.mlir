// C += A * B, f32, 992x1008 results over 1000 products each: tiles of 16
// divide the results, tiles of 32 and more do not (992 = 31 x 32, 1008 =
// 63 x 16), and the reduction is no multiple of 16.
func.func @matmul_ragged(%a: memref<992x1000xf32>, %b: memref<1000x1008xf32>, %c: memref<992x1008xf32>) {
  linalg.matmul ins(%a, %b : memref<992x1000xf32>, memref<1000x1008xf32>) outs(%c : memref<992x1008xf32>)
  return
}
