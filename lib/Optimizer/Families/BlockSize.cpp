//===- BlockSize.cpp - block-size=N: a new 1-D block size -----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Re-launches a kernel with N threads per block. A 1-D kernel that uses its
// x ids only in the global index block_id * block_dim + thread_id keeps its
// code and the same total number of threads: the set of indices a launch
// covers then depends only on the total. Any other kernel whose threads do
// not cooperate (upstream's, whose index multiplies block_id by the literal
// block size) gets its threads remapped (ThreadRemap.h), with the dimension
// whose consecutive indices walk contiguous memory along x and the grid
// rounded up.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
/// Keep the code and re-launch, or remap the threads.
using BlockSizePlan = std::variant<std::monostate, ThreadRemapPlan>;

class BlockSizeFamily : public RewriteFamilyWithPlan<BlockSizePlan> {
public:
  BlockSizeFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::BlockSize) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Tiny or huge blocks waste schedulers or occupancy.
    double score =
        (evidence.blockThreads < 128 || evidence.blockThreads > 512) ? 8 : 3;
    // Blocks of at most 32 threads (upstream's 16 x 16 and 32 x 8 tiles of a
    // 1-D loop) leave lanes of every warp idle or, at 32 threads, half of
    // the SM's threads (it holds at most 32 blocks): full blocks first,
    // ahead of the rewrites that do not pay on them (on an H200,
    // register-accumulate on 32-thread blocks of a 1-D convolution tied,
    // 319.5 against 319.9 us, and after block-size=256 took it from 138 to
    // 71 us; with coarsen-rows the convolution reached its floor). Not where
    // the loads are mostly rows each thread walks (remapped, they stay
    // scattered: 1.6x slower there) nor with fewer than 2^17 threads
    // (bigger blocks leave SMs without one: a 16384-thread vector-matrix
    // product lost a third).
    if (evidence.blockThreads <= 32 && evidence.rowWalkShare <= 0.5 &&
        evidence.blockThreads * evidence.gridBlocks >= (1 << 17))
      score = 11;
    // A grid of fewer blocks than the GPU has SMs (too-few-waves, measured)
    // leaves SMs without work, whatever each block holds: smaller blocks
    // spread the same threads over more of them, the largest size that
    // gives every SM a block first (on an H200 a row softmax of 64 blocks
    // of 256 threads ran 1.31x faster on blocks of 128).
    double multiprocessors = evidence.getMultiprocessors();
    if (evidence.getFact("too-few-waves") == FactState::True &&
        evidence.gridBlocks < multiprocessors && evidence.blockThreads > 32) {
      double threads = evidence.blockThreads * evidence.gridBlocks;
      SmallVector<int64_t> sizes;
      for (int64_t n = int64_t(evidence.blockThreads) / 2 / 32 * 32; n >= 32;
           n /= 2)
        if (threads / double(n) >= multiprocessors)
          sizes.push_back(n);
      for (int64_t n = int64_t(evidence.blockThreads) / 2 / 32 * 32; n >= 32;
           n /= 2)
        if (threads / double(n) < multiprocessors)
          sizes.push_back(n);
      for (auto [position, n] : llvm::enumerate(sizes))
        ranked.push_back(
            {9.5 - 0.1 * double(position), n,
             llvm::formatv("{0:F0} blocks for {1:F0} SMs", threads / double(n),
                           multiprocessors)
                 .str()});
    }
    for (auto [n, value] : {std::pair<int64_t, double>{256, score},
                            {128, score - 0.5},
                            {512, score - 0.5}})
      if (llvm::none_of(ranked, [&, n = n](const RankedParameter &entry) {
            return entry.parameter == n;
          }))
        ranked.push_back({value, n});
  }

protected:
  FailureOr<BlockSizePlan> matchPlan(const RewriteTarget &target, int64_t n,
                                     std::string &why) const override {
    if (std::optional<std::array<int64_t, 3>> block =
            getUniformBlock(target.launches);
        block && (*block)[0] * (*block)[1] * (*block)[2] == n) {
      why = "the kernel already runs with " + std::to_string(n) +
            " threads per block";
      return failure();
    }
    std::string relaunch;
    if (succeeded(matchRelaunch(target, n, relaunch)))
      return BlockSizePlan();
    FailureOr<ThreadRemapPlan> remap =
        planRemap(RemapKind::Resize, n, target, why);
    if (succeeded(remap)) {
      int64_t threads =
          remap->newBlock[0] * remap->newBlock[1] * remap->newBlock[2];
      if (threads == n)
        return BlockSizePlan(*remap);
      why = "the kernel's threads would be remapped to blocks of " +
            std::to_string(threads) + ", not " + std::to_string(n) +
            " (its dimensions are too small)";
    }
    why = relaunch + "; nor can its threads be remapped: " + why;
    return failure();
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n, BlockSizePlan &plan) const override {
    if (auto *remap = std::get_if<ThreadRemapPlan>(&plan)) {
      applyThreadRemap(rewriter, target.kernel, target.launches, *remap);
      return success();
    }
    for (gpu::LaunchFuncOp launch : target.launches) {
      int64_t threads = *getConstant(launch.getGridSizeX()) *
                        *getConstant(launch.getBlockSizeX());
      setLaunchSizes(rewriter, launch, {threads / n}, {n});
    }
    return success();
  }

private:
  /// The same code on 1-D launches of N threads per block.
  static LogicalResult matchRelaunch(const RewriteTarget &target, int64_t n,
                                     std::string &why) {
    if (std::optional<std::string> reason =
            checkOneDimensionalResizable(target.kernel, target.launches)) {
      why = *reason;
      return failure();
    }
    for (gpu::LaunchFuncOp launch : target.launches) {
      int64_t gx = *getConstant(launch.getGridSizeX());
      int64_t bx = *getConstant(launch.getBlockSizeX());
      if (bx == n) {
        why = "the kernel already runs with " + std::to_string(n) +
              " threads per block";
        return failure();
      }
      if ((gx * bx) % n != 0) {
        why = "the launch's " + std::to_string(gx * bx) +
              " threads are not a multiple of " + std::to_string(n);
        return failure();
      }
    }
    if (!usesOnlyGlobalIndexX(target.kernel, why))
      return failure();
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createBlockSizeFamily() {
  return std::make_unique<BlockSizeFamily>();
}
