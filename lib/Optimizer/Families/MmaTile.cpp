//===- MmaTile.cpp - mma-tile=S: contraction tiles on tensor cores --------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A contraction of halves (f16 or bf16), C[i][j] = sum_k f32(A[i][k]) *
// f32(B[k][j]) with an f32 sum (a linalg.matmul of such operands into an
// f32 result, after register-accumulate), does on each thread's FMA pipe
// what the tensor cores do about fifteen times as fast (an H200's dense
// f16 and bf16 peak, 989 TFLOP/s, against 67 TFLOP/s of FP32). This family
// tiles it as contraction-tile=S does for S = 64 or 128 (ContractionTile.cpp:
// the same 16 x 16 threads, row and column tiles staged in shared memory in any
// layout, here in stages of 32 iterations (two steps of the tensor cores per
// pair of barriers), merged image columns, remap checks, edge tiles, folded
// window loops), but the eight warps of a block run the products in 16 x 16
// fragments (WarpFragments.h: nvgpu.ldmatrix and nvvm.mma.sync), from zero. A
// load that walks the loop (A[i][k] of a row-major A, or B[j][k]) is staged
// with a row of its 32 iterations per result row (column), so that each copy
// stores eight (at the edges of some shapes four) neighbouring iterations at
// once and the fragments load as stored (B as B^T); a load that does not
// (B[k][j], or A[k][i], the transposed A operand) with a row per iteration, as
// contraction-tile stages both. The warps: at S = 64 a 4 x 2 grid, each summing
// 16 rows and 32 columns of the tile (two fragments per stage); at S = 128 a 2
// x 4 grid, each summing 64 rows and 32 columns (eight fragments; each row
// fragment it loads serves two products, each column fragment four). After the
// last stage the fragments go to a shared tile of sums, 32 rows at a time (S /
// 32 passes, so that it fits in static shared memory next to the staged tiles),
// and each thread adds its results' sums (rows thread row + 16 r, one pass per
// r) to the loop's initial values, which it loads only then, and runs the code
// after the loop. Each product of two halves is exact in f32; the tensor cores
// add them in another order, so the kernel is marked `autoprof.reassociated`
// and verified against the terms' magnitude. A last stage that the loop's
// iterations do not fill stages zeros for the iterations past it.
//
//===----------------------------------------------------------------------===//

#include "ContractionTiling.h"
#include "Families.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class MmaTileFamily : public ContractionTilingFamily {
public:
  MmaTileFamily() : ContractionTilingFamily(BuiltinRewriteFamily::MmaTile) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where it applies (f16 or bf16 operands, f32 sums), ahead of contraction-tile
    // (at most 11.4): the tensor cores' peak is about fifteen times the FMA
    // pipe's. Tiles of 128 load a quarter of the staged elements per
    // product that tiles of 64 do, and their warps two row fragments'
    // products per loaded fragment instead of one: first where every SM
    // gets one or more (a 2048^3 matmul: 256 blocks on 132 SMs), else after
    // 64 (a 768^3 matmul: 36 blocks of 128 would leave most SMs idle).
    double results = evidence.blockThreads * evidence.gridBlocks;
    double multiprocessors = evidence.getMultiprocessors();
    double blocks = std::ceil(results / (128.0 * 128.0));
    bool fills = blocks >= multiprocessors;
    std::string why = llvm::formatv(
        "products of halves on tensor cores; {0:F0} tiles of 128 on {1:F0} SMs{2}",
        blocks, multiprocessors,
        evidence.describeMultiprocessors());
    ranked.push_back({11.5, 64, "products of halves on tensor cores"});
    ranked.push_back({fills ? 11.6 : 11.45, 128, why});
  }

  void rankRevisions(const RewriteEvidence &evidence, int64_t s,
                     SmallVectorImpl<RankedParameter> &ranked) const override {
    // The winner's own profile: tiles whose warps wait at the barriers or
    // on the staging loads, or whose L1 and shared path is busy, try two
    // buffers first (MmaPipeline.cpp: on an H100 the 2048^3 f16 matmul ran
    // 11% faster with them, the bf16 one 13% slower: the measurement
    // decides); tiles of 128 that leave SMs idle or spill go back to 64;
    // tiles of 64 whose pipes or barriers limit them, on a grid that fills
    // the GPU, try 128.
    rankPipelineRevision(evidence, "mma-pipeline", s, 1.5, ranked);
    if (s == 128) {
      if (std::optional<std::string> facts =
              listHolding(evidence, smallerTileFacts()))
        ranked.push_back({1, 64, "the winner's profile: " + *facts});
    } else if (evidence.getFact("too-few-waves") != FactState::True) {
      if (std::optional<std::string> facts =
              listHolding(evidence, largerTileFacts()))
        ranked.push_back({1, 128, "the winner's profile: " + *facts});
    }
  }

protected:
  bool usesTensorCores() const override { return true; }
};
} // namespace

std::unique_ptr<RewriteFamily> mlir::autoprof::rewrites::createMmaTileFamily() {
  return std::make_unique<MmaTileFamily>();
}
