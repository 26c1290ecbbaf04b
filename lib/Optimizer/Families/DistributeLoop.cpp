//===- DistributeLoop.cpp - distribute-loop=L: lanes split a loop ---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A thread walking a row alone makes its warp touch 32 rows at once. L
// lanes per original thread split the iterations of its loop (lane l takes
// iterations l, l+L, ...), so consecutive lanes touch consecutive elements;
// blocks hold min(B, 1024/L) original threads, L times as many hardware
// threads.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class DistributeLoopFamily : public RewriteFamilyWithPlan<scf::ForOp> {
public:
  DistributeLoopFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::DistributeLoop) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    double bonus = remapBonus(evidence);
    ranked.push_back({(evidence.memoryBound ? 9.7 : 4.5) + bonus, 32});
    ranked.push_back({(evidence.memoryBound ? 9.6 : 4.4) + bonus, 8});
  }

protected:
  FailureOr<scf::ForOp> matchPlan(const RewriteTarget &target, int64_t n,
                                  std::string &why) const override {
    if (std::optional<std::string> reason =
            checkOneDimensionalResizable(target.kernel, target.launches)) {
      why = *reason;
      return failure();
    }
    for (gpu::LaunchFuncOp launch : target.launches) {
      int64_t threads = *getConstant(launch.getGridSizeX()) *
                        *getConstant(launch.getBlockSizeX());
      int64_t perBlock =
          std::min<int64_t>(*getConstant(launch.getBlockSizeX()), 1024 / n);
      if (threads % perBlock != 0) {
        why = "the launch's " + std::to_string(threads) +
              " threads do not fill blocks of " + std::to_string(perBlock);
        return failure();
      }
    }
    if (!usesOnlyGlobalIndexX(target.kernel, why))
      return failure();
    return findDistributableLoop(target.kernel, why);
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n, scf::ForOp &loop) const override {
    for (gpu::LaunchFuncOp launch : target.launches) {
      int64_t bx = *getConstant(launch.getBlockSizeX());
      int64_t threads = *getConstant(launch.getGridSizeX()) * bx;
      int64_t perBlock = std::min<int64_t>(bx, 1024 / n);
      setLaunchSizes(rewriter, launch, {threads / perBlock}, {perBlock * n});
    }
    gpu::GPUFuncOp kernel = target.kernel;
    Block &body = kernel.getBody().front();
    Location loc = kernel.getLoc();
    rewriter.setInsertionPointToStart(&body);
    Value lanes = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value bdim = gpu::BlockDimOp::create(rewriter, loc, gpu::Dimension::x);
    Value lane = arith::RemUIOp::create(rewriter, loc, tid, lanes);
    Value originalTid = arith::DivUIOp::create(rewriter, loc, tid, lanes);
    Value originalBdim = arith::DivUIOp::create(rewriter, loc, bdim, lanes);
    // The x ids appear only in the global index (checked), so every other
    // use is that index's.
    SmallVector<std::pair<Operation *, Value>> replacements;
    kernel.walk([&](Operation *op) {
      if (auto id = dyn_cast<gpu::ThreadIdOp>(op);
          id && id != tid.getDefiningOp() &&
          id.getDimension() == gpu::Dimension::x)
        replacements.push_back({op, originalTid});
      else if (auto dim = dyn_cast<gpu::BlockDimOp>(op);
               dim && dim != bdim.getDefiningOp() &&
               dim.getDimension() == gpu::Dimension::x)
        replacements.push_back({op, originalBdim});
    });
    for (auto [op, replacement] : replacements)
      rewriter.replaceAllUsesWith(op->getResult(0), replacement);
    rewriter.setInsertionPoint(loop);
    Value offset = arith::MulIOp::create(rewriter, loc, lane, loop.getStep());
    Value lower =
        arith::AddIOp::create(rewriter, loc, loop.getLowerBound(), offset);
    Value step = arith::MulIOp::create(rewriter, loc, loop.getStep(), lanes);
    rewriter.modifyOpInPlace(loop, [&] {
      loop.getLowerBoundMutable().assign(lower);
      loop.getStepMutable().assign(step);
    });
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createDistributeLoopFamily() {
  return std::make_unique<DistributeLoopFamily>();
}
