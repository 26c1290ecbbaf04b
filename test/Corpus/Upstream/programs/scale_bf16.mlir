// out = a * 0.5 + 1 in bf16 (computed in f32), 8192x8192.
#id = affine_map<(i, j) -> (i, j)>
func.func @scale_bf16(%a: memref<8192x8192xbf16>, %out: memref<8192x8192xbf16>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8192x8192xbf16>) outs(%out : memref<8192x8192xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %w = arith.extf %x : bf16 to f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %w, %half : f32
    %s = arith.addf %m, %one : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}
