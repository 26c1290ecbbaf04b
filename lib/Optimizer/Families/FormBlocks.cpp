//===- FormBlocks.cpp - form-blocks=N: blocks of N threads ----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// One-thread blocks (what mapping one parallel loop level to blocks gives)
// leave 31 of 32 lanes of every warp idle. This family remaps the threads
// (ThreadRemap.h): blocks of N threads along the dimension whose
// consecutive indices walk contiguous memory, the grid rounded up and the
// threads past the original problem skipping the body.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class FormBlocksFamily : public RewriteFamilyWithPlan<ThreadRemapPlan> {
public:
  FormBlocksFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::FormBlocks) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // One-thread blocks leave 31 of 32 lanes of every warp idle.
    if (evidence.blockThreads != 1)
      return;
    ranked.push_back({12, 256});
    ranked.push_back({11.9, 128});
    ranked.push_back({11.8, 512});
  }

protected:
  FailureOr<ThreadRemapPlan> matchPlan(const RewriteTarget &target, int64_t n,
                                       std::string &why) const override {
    return planRemap(RemapKind::FormBlocks, n, target, why);
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t, ThreadRemapPlan &plan) const override {
    applyThreadRemap(rewriter, target.kernel, target.launches, plan);
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createFormBlocksFamily() {
  return std::make_unique<FormBlocksFamily>();
}
