// C += A * B, f64, 1000x777 results over 513 products each (no tile of 16
// or more divides any of the three sizes).
func.func @matmul_f64(%a: memref<1000x513xf64>, %b: memref<513x777xf64>, %c: memref<1000x777xf64>) {
  linalg.matmul ins(%a, %b : memref<1000x513xf64>, memref<513x777xf64>) outs(%c : memref<1000x777xf64>)
  return
}
