// 2-D transpose, f32, 8192x4096 -> 4096x8192.
func.func @transpose2d(%a: memref<8192x4096xf32>, %out: memref<4096x8192xf32>) {
  linalg.transpose ins(%a : memref<8192x4096xf32>) outs(%out : memref<4096x8192xf32>) permutation = [1, 0]
  return
}
