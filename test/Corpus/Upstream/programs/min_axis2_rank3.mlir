// Min over the last axis of a rank-3 tensor, f32: out[i][j] = min(out[i][j],
// min_k a[i][j][k]), 256x1024x129 -> 256x1024.
func.func @min_axis2_rank3(%a: memref<256x1024x129xf32>, %out: memref<256x1024xf32>) {
  linalg.reduce ins(%a : memref<256x1024x129xf32>) outs(%out : memref<256x1024xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %m = arith.minimumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return
}
