// Depthwise 3x3 convolution, NHWC, 1x256x256x32.
func.func @depthwise_conv2d(%in: memref<1x258x258x32xf32>, %k: memref<3x3x32xf32>, %out: memref<1x256x256x32xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %k : memref<1x258x258x32xf32>, memref<3x3x32xf32>) outs(%out : memref<1x256x256x32xf32>)
  return
}
