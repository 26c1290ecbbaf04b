//===- MmaTile.cpp - mma-tile=64: contraction tiles on tensor cores -------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A contraction of halves, C[i][j] = sum_k f32(A[i][k]) * f32(B[k][j]) with
// an f32 sum (a linalg.matmul of f16 operands into an f32 result, after
// register-accumulate), does on each thread's FMA pipe what the tensor cores
// do about fifteen times as fast (an H200's dense f16 peak, 989 TFLOP/s,
// against 67 TFLOP/s of FP32). This family tiles it as contraction-tile=64
// does (ContractionTile.cpp: the same 16 x 16 threads, row and column tiles of
// 16 iterations staged in shared memory in any layout, merged image
// columns, remap checks, edge tiles, folded window loops), but the eight
// warps of a block run the products: warp w sums rows 16 (w div 2) .. + 15
// and columns 32 (w mod 2) .. + 31 of the 64 x 64 tile in two 16 x 16 x 16
// fragments per stage (gpu.subgroup_mma_*: the row tile, stored k-major, is
// the transposed A operand), from zero. After the last stage the fragments
// go to a shared tile of sums, and each thread adds its results' sums to
// the loop's initial values and runs the code after the loop. Each product
// of two halves is exact in f32; the tensor cores add them in another
// order, so the kernel is marked `autoprof.reassociated` and verified
// against the terms' magnitude. A last stage that the loop's iterations do
// not fill stages zeros for the iterations past it.
//
//===----------------------------------------------------------------------===//

#include "ContractionTiling.h"
#include "Families.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class MmaTileFamily : public ContractionTilingFamily {
public:
  StringRef getName() const override { return "mma-tile"; }
  StringRef getSummary() const override {
    return "contraction-tile=64 on tensor cores: eight warps compute a 64 x "
           "64 tile of f16 products with f32 sums from shared tiles";
  }
  std::optional<std::string> checkParameter(int64_t s) const override {
    if (s != 64)
      return std::string("the tile of results must be 64");
    return std::nullopt;
  }

  ArrayRef<StringRef> getAddressedFacts() const override {
    // The FMA pipe's work moves to the tensor cores; each staged element
    // serves 64 results.
    static const StringRef facts[] = {"issue-bound", "l1-bound", "l2-bound",
                                      "latency-bound"};
    return facts;
  }

  void rank(const RewriteEvidence &,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where it applies (f16 operands, f32 sums), ahead of contraction-tile
    // (at most 11.4): the tensor cores' peak is about fifteen times the FMA
    // pipe's.
    ranked.push_back({11.5, 64, "f16 products on tensor cores"});
  }

protected:
  bool usesTensorCores() const override { return true; }
};
} // namespace

std::unique_ptr<RewriteFamily> mlir::autoprof::rewrites::createMmaTileFamily() {
  return std::make_unique<MmaTileFamily>();
}
