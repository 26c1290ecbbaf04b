//===- MaxRegisters.cpp - max-registers=N on a PTX entry ------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Caps the registers of each thread of an imported kernel at N: the entry
// declares `.maxnreg N`, as `-maxrregcount` or nvvm.maxnreg would. Where
// registers limit how many warps an SM holds, a cap raises the occupancy at
// the price of spills.
//
//===----------------------------------------------------------------------===//

#include "PtxFamilies.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace {
class MaxRegistersFamily : public PtxRewriteFamily {
public:
  MaxRegistersFamily() : PtxRewriteFamily(BuiltinRewriteFamily::MaxRegisters) {}
  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // As for a gpu.func (Families/MaxRegisters.cpp).
    if (evidence.registerBound)
      ranked.push_back({7, evidence.registersPerThread > 96 ? 64 : 32});
  }
  std::optional<std::string> apply(const ImportedKernel &kernel, int64_t n,
                                   PtxVariant &variant) const override {
    int64_t threads = ptx_rewrites::getBlockThreads(variant.launch);
    const GpuTarget &gpu = kernel.getGpuTarget();
    if (n < 16 || n > gpu.maxRegistersPerThread ||
        n * threads > gpu.registersPerBlock)
      return "a limit of " + std::to_string(n) + " registers for " +
             std::to_string(threads) + " threads is not valid (16-" +
             std::to_string(gpu.maxRegistersPerThread) + " and at most " +
             std::to_string(gpu.registersPerBlock) + " per block)";
    return addVariantDirective(variant, kernel.entry,
                               ".maxnreg " + std::to_string(n));
  }
};
} // namespace

std::unique_ptr<PtxRewriteFamily>
mlir::autoprof::ptx_rewrites::createMaxRegistersFamily() {
  return std::make_unique<MaxRegistersFamily>();
}
