// Reduction over the first axis of a rank-3 tensor, f16 summed into f32:
// out[j][k] += sum_i a[i][j][k], 64x513x513 -> 513x513 (as linalg.reduce
// over dimension 0: upstream launches a kernel per i from a host loop).
func.func @sum_axis0_rank3_f16(%a: memref<64x513x513xf16>, %out: memref<513x513xf32>) {
  linalg.reduce ins(%a : memref<64x513x513xf16>) outs(%out : memref<513x513xf32>) dimensions = [0]
    (%x: f16, %acc: f32) {
      %e = arith.extf %x : f16 to f32
      %s = arith.addf %e, %acc : f32
      linalg.yield %s : f32
    }
  return
}
