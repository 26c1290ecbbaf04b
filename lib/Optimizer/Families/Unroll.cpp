//===- Unroll.cpp - unroll=F: unroll innermost loops ----------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Unrolls the innermost scf.for loops with a constant step by F (upstream's
// loopUnrollByFactor, which keeps a remainder loop): independent loads and
// FMAs of consecutive iterations can then overlap.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class UnrollFamily : public RewriteFamilyWithPlan<SmallVector<scf::ForOp>> {
public:
  UnrollFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::Unroll) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Constant-trip loops: unrolling exposes independent loads and FMAs,
    // which compute-bound kernels need most.
    if (evidence.getFeature("loop_depth") <= 0)
      return;
    ranked.push_back({evidence.memoryBound ? 6.0 : 8.0, 4});
    ranked.push_back({evidence.memoryBound ? 5.0 : 7.0, 8});
  }

protected:
  FailureOr<SmallVector<scf::ForOp>>
  matchPlan(const RewriteTarget &target, int64_t n,
            std::string &why) const override {
    SmallVector<scf::ForOp> loops = getUnrollableLoops(target.kernel, n);
    if (loops.empty()) {
      why = "no innermost scf.for with a constant step that runs at least " +
            std::to_string(n) + " iterations";
      return failure();
    }
    return loops;
  }

  LogicalResult applyPlan(RewriterBase &, const RewriteTarget &target,
                          int64_t n,
                          SmallVector<scf::ForOp> &loops) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    for (scf::ForOp loop : loops)
      if (failed(loopUnrollByFactor(loop, n)))
        return kernel.emitError("unrolling a loop of @")
               << kernel.getName() << " by " << n << " failed";
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily> mlir::autoprof::rewrites::createUnrollFamily() {
  return std::make_unique<UnrollFamily>();
}
