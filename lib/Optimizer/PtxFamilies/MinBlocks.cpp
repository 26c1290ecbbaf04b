//===- MinBlocks.cpp - min-blocks=K on a PTX entry ------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Asks ptxas to fit K blocks of the launch's size on each SM: the entry
// declares `.maxntid` (the block size, as `__launch_bounds__` does) and
// `.minnctapersm K`, so that the register budget leaves room for them.
//
//===----------------------------------------------------------------------===//

#include "PtxFamilies.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace {
class MinBlocksFamily : public PtxRewriteFamily {
public:
  MinBlocksFamily() : PtxRewriteFamily(BuiltinRewriteFamily::MinBlocks) {}
  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // As for a gpu.func (Families/MinBlocks.cpp).
    ranked.push_back({evidence.registerBound ? 6.0 : 2.0, 2});
  }
  std::optional<std::string> apply(const ImportedKernel &kernel, int64_t n,
                                   PtxVariant &variant) const override {
    int64_t threads = ptx_rewrites::getBlockThreads(variant.launch);
    int64_t resident = kernel.getGpuTarget().threadsPerMultiprocessor;
    if (n < 2 || n * threads > resident)
      return "asking for " + std::to_string(n) + " blocks of " +
             std::to_string(threads) + " threads per SM exceeds " +
             std::to_string(resident) + " resident threads";
    if (kernel.isCubin())
      return std::string("the kernel is known only as a cubin, whose machine "
                         "code takes no .maxntid or .minnctapersm");
    // An entry with bounds of its own keeps them.
    for (StringRef bound : {".maxntid", ".reqntid", ".minnctapersm"})
      if (std::optional<std::string> why =
              checkNoEntryDirective(variant.ptx, kernel.entry, bound))
        return why;
    const unsigned *block = variant.launch.block;
    addVariantDirective(variant, kernel.entry,
                        ".maxntid " + std::to_string(block[0]) + ", " +
                            std::to_string(block[1]) + ", " +
                            std::to_string(block[2]));
    addVariantDirective(variant, kernel.entry,
                        ".minnctapersm " + std::to_string(n));
    return std::nullopt;
  }
};
} // namespace

std::unique_ptr<PtxRewriteFamily>
mlir::autoprof::ptx_rewrites::createMinBlocksFamily() {
  return std::make_unique<MinBlocksFamily>();
}
