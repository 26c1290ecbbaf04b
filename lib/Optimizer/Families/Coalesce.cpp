//===- Coalesce.cpp - coalesce=P: the contiguous dimension along x --------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Threads next to each other along x should touch neighbouring elements.
// The dimension whose consecutive indices walk contiguous memory moves to x,
// with P threads of a block along it. A kernel that uses its ids only as
// global indices keeps its index arithmetic and has the roles of x and that
// dimension swapped; any other kernel gets its threads remapped (each
// original id recomputed from the new geometry, ThreadRemap.h).
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include <variant>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
using CoalesceOrRemap = std::variant<CoalescePlan, ThreadRemapPlan>;

class CoalesceFamily : public RewriteFamilyWithPlan<CoalesceOrRemap> {
public:
  CoalesceFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::Coalesce) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where most of the loads are rows each thread walks with a loop (a row
    // reduction), remapping the threads leaves them scattered: their
    // scattered requests are no reason to try it first (on an H200,
    // coalesce=32 made the row statistics of a softmax 1.19x slower), and
    // the reductions' own rewrites go first.
    if (evidence.rowWalkShare > 0.5) {
      ranked.push_back({evidence.memoryBound ? 3.4 : 2.4, 32});
      ranked.push_back({evidence.memoryBound ? 3.3 : 2.3, 64});
      return;
    }
    double bonus = remapBonus(evidence);
    ranked.push_back({(evidence.memoryBound ? 9.8 : 5) + bonus, 32});
    ranked.push_back({(evidence.memoryBound ? 8.9 : 4.2) + bonus, 64});
  }

protected:
  FailureOr<CoalesceOrRemap> matchPlan(const RewriteTarget &target, int64_t n,
                                       std::string &why) const override {
    FailureOr<CoalescePlan> swap =
        planCoalesce(target.kernel, target.launches, n, why);
    if (succeeded(swap))
      return CoalesceOrRemap(std::move(*swap));
    FailureOr<ThreadRemapPlan> remap =
        planRemap(RemapKind::Coalesce, n, target, why);
    if (failed(remap))
      return failure();
    return CoalesceOrRemap(*remap);
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t, CoalesceOrRemap &plan) const override {
    if (auto *remap = std::get_if<ThreadRemapPlan>(&plan)) {
      applyThreadRemap(rewriter, target.kernel, target.launches, *remap);
      return success();
    }
    const CoalescePlan &swap = std::get<CoalescePlan>(plan);
    // Swap the roles of x and the fastest dimension in the kernel...
    auto swapped = [&](gpu::Dimension dim) {
      if (dim == gpu::Dimension::x)
        return swap.fastest;
      return dim == swap.fastest ? gpu::Dimension::x : dim;
    };
    gpu::GPUFuncOp kernel = target.kernel;
    kernel.walk([&](Operation *op) {
      rewriter.modifyOpInPlace(op, [&] {
        if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
          id.setDimension(swapped(id.getDimension()));
        else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
          id.setDimension(swapped(id.getDimension()));
        else if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
          dim.setDimension(swapped(dim.getDimension()));
        else if (auto dim = dyn_cast<gpu::GridDimOp>(op))
          dim.setDimension(swapped(dim.getDimension()));
      });
    });
    // ... and give every launch its new shape, the same threads per
    // dimension.
    for (auto [launch, shape] : llvm::zip(target.launches, swap.shapes))
      setLaunchSizes(rewriter, launch,
                     {shape.first[0], shape.first[1], shape.first[2]},
                     {shape.second[0], shape.second[1], shape.second[2]});
    return success();
  }
};

} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createCoalesceFamily() {
  return std::make_unique<CoalesceFamily>();
}
