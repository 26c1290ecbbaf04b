// Row reduction, bf16 summed into f32: out[i] += sum_j a[i][j], 16384x777.
func.func @row_sum_bf16(%a: memref<16384x777xbf16>, %out: memref<16384xf32>) {
  linalg.reduce ins(%a : memref<16384x777xbf16>) outs(%out : memref<16384xf32>) dimensions = [1]
    (%x: bf16, %acc: f32) {
      %e = arith.extf %x : bf16 to f32
      %s = arith.addf %e, %acc : f32
      linalg.yield %s : f32
    }
  return
}
