// Batch normalization for inference, NCHW, bf16 activations with f32
// statistics and parameters (computed in f32): out[n][c][y][x] =
// (in[n][c][y][x] - mean[c]) * rsqrt(var[c] + 1e-5) * gamma[c] + beta[c],
// 32 images of 256 channels at 28x28.
#id = affine_map<(n, c, y, x) -> (n, c, y, x)>
#ch = affine_map<(n, c, y, x) -> (c)>
func.func @batchnorm_nchw_bf16(%in: memref<32x256x28x28xbf16>, %mean: memref<256xf32>, %var: memref<256xf32>, %gamma: memref<256xf32>, %beta: memref<256xf32>, %out: memref<32x256x28x28xbf16>) {
  linalg.generic {indexing_maps = [#id, #ch, #ch, #ch, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in, %mean, %var, %gamma, %beta : memref<32x256x28x28xbf16>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>) outs(%out : memref<32x256x28x28xbf16>) {
  ^bb0(%x: bf16, %m: f32, %v: f32, %g: f32, %b: f32, %unused: bf16):
    %eps = arith.constant 1.0e-05 : f32
    %xf = arith.extf %x : bf16 to f32
    %d = arith.subf %xf, %m : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %n = arith.mulf %d, %r : f32
    %s = arith.mulf %n, %g : f32
    %y = arith.addf %s, %b : f32
    %t = arith.truncf %y : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}
