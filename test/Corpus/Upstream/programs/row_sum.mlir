// Row reduction: out[i] += sum_j a[i][j], f32, 16384x4096.
func.func @row_sum(%a: memref<16384x4096xf32>, %out: memref<16384xf32>) {
  linalg.reduce ins(%a : memref<16384x4096xf32>) outs(%out : memref<16384xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}
