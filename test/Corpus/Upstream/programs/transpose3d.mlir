// 3-D transpose (0, 2, 1), f32, 128x512x512.
func.func @transpose3d(%a: memref<128x512x512xf32>, %out: memref<128x512x512xf32>) {
  linalg.transpose ins(%a : memref<128x512x512xf32>) outs(%out : memref<128x512x512xf32>) permutation = [0, 2, 1]
  return
}
