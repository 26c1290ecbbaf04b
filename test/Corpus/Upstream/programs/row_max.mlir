// Row max: out[i] = max(out[i], max_j a[i][j]), f32, 16384x4096.
func.func @row_max(%a: memref<16384x4096xf32>, %out: memref<16384xf32>) {
  linalg.reduce ins(%a : memref<16384x4096xf32>) outs(%out : memref<16384xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return
}
