// 2x2 max pooling with stride 2, NHWC, 1x1024x1024x16.
func.func @maxpool(%in: memref<1x1024x1024x16xf32>, %window: memref<2x2xf32>, %out: memref<1x512x512x16xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %window : memref<1x1024x1024x16xf32>, memref<2x2xf32>) outs(%out : memref<1x512x512x16xf32>)
  return
}
