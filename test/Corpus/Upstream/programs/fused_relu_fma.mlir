// Fused max(a * b + c, 0), f32, 8192x4096.
#id = affine_map<(i, j) -> (i, j)>
func.func @fused_relu_fma(%a: memref<8192x4096xf32>, %b: memref<8192x4096xf32>, %c: memref<8192x4096xf32>, %out: memref<8192x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : memref<8192x4096xf32>, memref<8192x4096xf32>, memref<8192x4096xf32>) outs(%out : memref<8192x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %z : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
