//===- MinBlocks.cpp - min-blocks=K: resident blocks per SM ---------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Asks ptxas for K resident blocks per SM (nvvm.minctasm, with the exact
// block size as nvvm.maxntid): it then limits registers so that K blocks
// fit, trading spills for occupancy.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class MinBlocksFamily : public RewriteFamilyWithPlan<std::array<int64_t, 3>> {
public:
  MinBlocksFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::MinBlocks) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Register-limited occupancy: more resident blocks.
    ranked.push_back({evidence.registerBound ? 6.0 : 2.0, 2});
  }

protected:
  FailureOr<std::array<int64_t, 3>> matchPlan(const RewriteTarget &target,
                                              int64_t n,
                                              std::string &why) const override {
    FailureOr<std::array<int64_t, 3>> block = matchLaunchBounds(target, why);
    if (failed(block))
      return failure();
    int64_t threads = (*block)[0] * (*block)[1] * (*block)[2];
    int64_t resident = target.gpu->threadsPerMultiprocessor;
    if (n < 2 || n * threads > resident) {
      why = "asking for " + std::to_string(n) + " blocks of " +
            std::to_string(threads) + " threads per SM exceeds " +
            std::to_string(resident) + " resident threads";
      return failure();
    }
    if (target.kernel->hasAttr(NVVM::NVVMDialect::getMinctasmAttrName())) {
      why = "the kernel already asks for resident blocks";
      return failure();
    }
    return block;
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n,
                          std::array<int64_t, 3> &block) const override {
    setMaxThreads(rewriter, target.kernel, block);
    rewriter.modifyOpInPlace(target.kernel, [&] {
      target.kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                             rewriter.getI32IntegerAttr(n));
    });
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMinBlocksFamily() {
  return std::make_unique<MinBlocksFamily>();
}
