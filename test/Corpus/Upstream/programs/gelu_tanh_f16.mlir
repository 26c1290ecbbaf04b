// Rank-1 GELU with the tanh approximation, f16 (computed in f32):
// out[i] = 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x^3))),
// 12582917 elements.
#id = affine_map<(i) -> (i)>
func.func @gelu_tanh_f16(%x: memref<12582917xf16>, %out: memref<12582917xf16>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<12582917xf16>) outs(%out : memref<12582917xf16>) {
  ^bb0(%h: f16, %unused: f16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 0.044715 : f32
    %v = arith.extf %h : f16 to f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %c = arith.mulf %v3, %k1 : f32
    %inner = arith.addf %v, %c : f32
    %arg = arith.mulf %inner, %k0 : f32
    %t = math.tanh %arg : f32
    %t1 = arith.addf %t, %one : f32
    %hv = arith.mulf %v, %half : f32
    %y = arith.mulf %hv, %t1 : f32
    %r = arith.truncf %y : f32 to f16
    linalg.yield %r : f16
  }
  return
}
