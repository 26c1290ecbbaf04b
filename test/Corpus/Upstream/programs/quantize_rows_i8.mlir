// Per-row quantization f32 -> i8: out[i][j] = clamp(roundeven(x[i][j] *
// inv_scale[i]), -128, 127), 8192x1024 (the product rounds in f32, ties
// round to even).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
func.func @quantize_rows_i8(%x: memref<8192x1024xf32>, %inv_scale: memref<8192xf32>, %out: memref<8192x1024xi8>) {
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %inv_scale : memref<8192x1024xf32>, memref<8192xf32>) outs(%out : memref<8192x1024xi8>) {
  ^bb0(%v: f32, %s: f32, %unused: i8):
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %p = arith.mulf %v, %s : f32
    %r = math.roundeven %p : f32
    %c0 = arith.maximumf %r, %lo : f32
    %c1 = arith.minimumf %c0, %hi : f32
    %q = arith.fptosi %c1 : f32 to i8
    linalg.yield %q : i8
  }
  return
}
