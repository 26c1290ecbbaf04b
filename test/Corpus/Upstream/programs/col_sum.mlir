// Column reduction: out[j] += sum_i a[i][j], f32, 4096x16384.
func.func @col_sum(%a: memref<4096x16384xf32>, %out: memref<16384xf32>) {
  linalg.reduce ins(%a : memref<4096x16384xf32>) outs(%out : memref<16384xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}
