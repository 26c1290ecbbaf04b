// 2-D transpose, f32, 4096x4096.
func.func @transpose2d(%a: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) {
  linalg.transpose ins(%a : memref<4096x4096xf32>) outs(%out : memref<4096x4096xf32>) permutation = [1, 0]
  return
}
