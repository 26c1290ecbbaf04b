//===- ContractionTiling.h - Shared and register tiles of a contraction ---===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The analysis and the rewrite two families share: contraction-tile, whose
// threads compute their results' multiply-adds from shared tiles, and
// mma-tile, whose warps run the same tiles through tensor cores
// (ContractionTile.cpp describes the tiling, MmaTile.cpp what the tensor
// cores change). Internal to the optimizer library.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_FAMILIES_CONTRACTIONTILING_H
#define AUTOPROF_LIB_OPTIMIZER_FAMILIES_CONTRACTIONTILING_H

#include "autoprof/Optimizer/RewriteFamily.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>

namespace mlir::autoprof::rewrites {

/// A load of the loop staged through a shared tile.
struct StagedLoad {
  memref::LoadOp load;
  /// Whether the result dimension it moves with is the row one (else the
  /// column one).
  bool row = true;
  /// Whether consecutive iterations read consecutive elements (the lanes
  /// that copy it then run along the loop).
  bool alongLoop = false;
};

/// What contraction-tile (or mma-tile) changes in a kernel.
struct ContractionPlan {
  scf::ForOp loop;
  /// Where the contraction runs over a perfect nest of loops (a
  /// convolution's channels and window), the nest, outermost first
  /// (`loop` is its first); applyPlan folds it into one loop first.
  SmallVector<scf::ForOp> nest;
  /// The top-level scf.if whose first branch holds the loop, if any.
  scf::IfOp versioned;
  /// The bounds check of a thread remap around the loop (threads past the
  /// problem skip it), if any: an scf.if without results or second branch
  /// whose condition bounds global indices (matchBoundsGuard).
  scf::IfOp guard;
  /// The global indices along each original dimension the results run
  /// over: the launch's, or fewer where the guard bounds them.
  std::array<int64_t, 3> extents = {1, 1, 1};
  SmallVector<StagedLoad> staged;
  /// Original dimensions: the rows of the results (along y of the new
  /// blocks), their columns (along x) and the remaining one (along z).
  int rowDim = 0, columnDim = 1, batchDim = 2;
  /// Where the columns' loads move with two dimensions and the rows' with
  /// neither (a convolution's image rows and pixels), the columns run over
  /// both: column c stands for index c div N of `batchDim` and c mod N of
  /// `columnDim` (N its size), one dimension of N x M columns that a tile
  /// divides where neither alone does.
  bool mergedColumns = false;
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
  int64_t lower = 0, step = 1, trips = 0;
  /// Whether every float the kernel stores is a sum of products, so that
  /// the tiled loop's products may fuse with their sums: the verification
  /// of a kernel marked `autoprof.reassociated` bounds the rounding by the
  /// terms' magnitude.
  bool fuse = false;
  /// Whether the warps run the products through tensor cores (mma-tile).
  bool tensorCores = false;
  /// Whether the staged tiles have two buffers (a stage's copies go to one
  /// while the products read the other: one barrier per stage):
  /// contraction-pipeline and mma-pipeline.
  bool doubleBuffered = false;
  /// Rows of the tile of f32 sums that takes the tensor cores' results to
  /// the threads that own them (mma-tile).
  int64_t sumsRows = 32;
};

/// The facts of a tiled kernel's profile that speak for smaller tiles of
/// results (more blocks, fewer registers per thread): too-few-waves,
/// tail-effect, register-spills. (Not low-occupancy: large tiles run few
/// warps by design, each with many independent multiply-adds.)
ArrayRef<StringRef> smallerTileFacts();
/// Those that speak for larger tiles (each staged element serving more
/// results): issue-bound, l1-bound, l2-bound, barrier-stalls.
ArrayRef<StringRef> largerTileFacts();
/// Those that speak for two buffers of the staged tiles, where the next
/// stage's copies overlap this stage's products: the facts
/// contraction-pipeline declares (RewriteFamilies.td).
ArrayRef<StringRef> pipelineFacts();
/// Adds to `ranked` the revision of a one-buffer tile of S that won to
/// `pipelineFamily`=S (the same tile in two buffers) where the winner's
/// profile shows one of pipelineFacts(), at `score`.
void rankPipelineRevision(const RewriteEvidence &evidence,
                          StringRef pipelineFamily, int64_t s, double score,
                          SmallVectorImpl<RankedParameter> &ranked);
/// Turns the staging copies into `tiles` (shared tiles of `kernel` in two
/// buffers) whose groups are whole aligned vectors of 4, 8 or 16 bytes into
/// asynchronous copies (cp.async), each group of them waited for before the
/// barrier that ends its stage (AsyncCopies.cpp). Returns how many it
/// turned. The caller guarantees what makes an early landing safe: between
/// a staging load and its stage's barrier nothing reads or writes the
/// buffer the copy fills, and nothing writes the global memory it reads
/// (ContractionTile.cpp's two-buffer stages, whose loop bodies store only
/// into the tiles).
int64_t copyStagesAsynchronously(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                                 ArrayRef<Value> tiles);
/// The facts of `names` that hold for `evidence`, with the values that
/// decided them ("too-few-waves (launch__waves_per_multiprocessor = 0.50 <
/// 1.00)"), or nothing when none holds.
std::optional<std::string> listHolding(const RewriteEvidence &evidence,
                                       ArrayRef<StringRef> names);

/// A family that tiles a contraction: the plan and the rewrite, with the
/// results' products computed by each thread or by tensor cores.
class ContractionTilingFamily : public RewriteFamilyWithPlan<ContractionPlan> {
public:
  using RewriteFamilyWithPlan::RewriteFamilyWithPlan;

protected:
  /// Whether the warps run the tiles' products through tensor cores
  /// (mma-tile) instead of each thread multiplying and adding its results'
  /// terms (contraction-tile).
  virtual bool usesTensorCores() const = 0;
  /// Whether the staged tiles get two buffers (contraction-pipeline,
  /// mma-pipeline): the match refuses where both do not fit in the 48 KiB
  /// of static shared memory.
  virtual bool stagesInTwoBuffers() const { return false; }

  FailureOr<ContractionPlan> matchPlan(const RewriteTarget &target, int64_t s,
                                       std::string &why) const override;
  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t s, ContractionPlan &plan) const override;
};

} // namespace mlir::autoprof::rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_FAMILIES_CONTRACTIONTILING_H
