//===- MaxRegisters.cpp - max-registers=R: a register cap -----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Caps registers per thread at R (nvvm.maxnreg): more resident warps for
// kernels whose occupancy the register file limits.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class MaxRegistersFamily : public RewriteFamilyWithPlan<std::monostate> {
public:
  MaxRegistersFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::MaxRegisters) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    if (evidence.registerBound)
      ranked.push_back({7, evidence.registersPerThread > 96 ? 64 : 32});
  }

protected:
  FailureOr<std::monostate> matchPlan(const RewriteTarget &target, int64_t n,
                                      std::string &why) const override {
    std::optional<std::array<int64_t, 3>> block =
        getUniformBlock(target.launches);
    if (!block) {
      why = "the launches do not share one constant block size";
      return failure();
    }
    int64_t threads = (*block)[0] * (*block)[1] * (*block)[2];
    const GpuTarget &gpu = *target.gpu;
    if (n < 16 || n > gpu.maxRegistersPerThread ||
        n * threads > gpu.registersPerBlock) {
      why = "a limit of " + std::to_string(n) + " registers for " +
            std::to_string(threads) + " threads is not valid (16-" +
            std::to_string(gpu.maxRegistersPerThread) + " and at most " +
            std::to_string(gpu.registersPerBlock) + " per block)";
      return failure();
    }
    if (target.kernel->hasAttr(NVVM::NVVMDialect::getMaxnregAttrName())) {
      why = "the kernel already has a register limit";
      return failure();
    }
    return std::monostate();
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n, std::monostate &) const override {
    rewriter.modifyOpInPlace(target.kernel, [&] {
      target.kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                             rewriter.getI32IntegerAttr(n));
    });
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createMaxRegistersFamily() {
  return std::make_unique<MaxRegistersFamily>();
}
