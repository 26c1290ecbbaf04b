// 3x3 sum pooling with stride 1, NCHW, 1x16x512x512.
func.func @sumpool(%in: memref<1x16x514x514xf32>, %window: memref<3x3xf32>, %out: memref<1x16x512x512xf32>) {
  linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %window : memref<1x16x514x514xf32>, memref<3x3xf32>) outs(%out : memref<1x16x512x512xf32>)
  return
}
