// Batch normalization for inference, NHWC, f16 activations with f32
// statistics and parameters (computed in f32): out[n][y][x][c] =
// (in[n][y][x][c] - mean[c]) * rsqrt(var[c] + 1e-5) * gamma[c] + beta[c],
// 32 images of 128 channels at 64x64.
#id = affine_map<(n, y, x, c) -> (n, y, x, c)>
#ch = affine_map<(n, y, x, c) -> (c)>
func.func @batchnorm_nhwc_f16(%in: memref<32x64x64x128xf16>, %mean: memref<128xf32>, %var: memref<128xf32>, %gamma: memref<128xf32>, %beta: memref<128xf32>, %out: memref<32x64x64x128xf16>) {
  linalg.generic {indexing_maps = [#id, #ch, #ch, #ch, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in, %mean, %var, %gamma, %beta : memref<32x64x64x128xf16>, memref<128xf32>, memref<128xf32>, memref<128xf32>, memref<128xf32>) outs(%out : memref<32x64x64x128xf16>) {
  ^bb0(%x: f16, %m: f32, %v: f32, %g: f32, %b: f32, %unused: f16):
    %eps = arith.constant 1.0e-05 : f32
    %xf = arith.extf %x : f16 to f32
    %d = arith.subf %xf, %m : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %n = arith.mulf %d, %r : f32
    %s = arith.mulf %n, %g : f32
    %y = arith.addf %s, %b : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  }
  return
}
