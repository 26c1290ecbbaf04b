//===- LaunchBounds.cpp - launch-bounds=1: promise the block size ---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Promises ptxas the exact block size every launch uses (nvvm.maxntid), so
// that it can allocate registers for that many threads and no more.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class LaunchBoundsFamily
    : public RewriteFamilyWithPlan<std::array<int64_t, 3>> {
public:
  LaunchBoundsFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::LaunchBounds) {}

  void rank(const RewriteEvidence &,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    ranked.push_back({1, 1});
  }

protected:
  FailureOr<std::array<int64_t, 3>> matchPlan(const RewriteTarget &target,
                                              int64_t,
                                              std::string &why) const override {
    return matchLaunchBounds(target, why);
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t,
                          std::array<int64_t, 3> &block) const override {
    setMaxThreads(rewriter, target.kernel, block);
    return success();
  }
};
} // namespace

FailureOr<std::array<int64_t, 3>>
mlir::autoprof::rewrites::matchLaunchBounds(const RewriteTarget &target,
                                            std::string &why) {
  std::optional<std::array<int64_t, 3>> block =
      getUniformBlock(target.launches);
  if (!block) {
    why = "the launches do not share one constant block size";
    return failure();
  }
  gpu::GPUFuncOp kernel = target.kernel;
  if (kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()) ||
      kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName())) {
    why = "the kernel already has launch bounds";
    return failure();
  }
  return *block;
}

void mlir::autoprof::rewrites::setMaxThreads(RewriterBase &rewriter,
                                             gpu::GPUFuncOp kernel,
                                             std::array<int64_t, 3> block) {
  rewriter.modifyOpInPlace(kernel, [&] {
    kernel->setAttr(
        NVVM::NVVMDialect::getMaxntidAttrName(),
        rewriter.getDenseI32ArrayAttr({static_cast<int32_t>(block[0]),
                                       static_cast<int32_t>(block[1]),
                                       static_cast<int32_t>(block[2])}));
  });
}

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createLaunchBoundsFamily() {
  return std::make_unique<LaunchBoundsFamily>();
}
