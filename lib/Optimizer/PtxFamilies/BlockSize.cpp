//===- BlockSize.cpp - block-size=N of a block-size-generic PTX kernel ----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Launches an imported kernel with blocks of N threads and as many blocks as
// cover the threads of the original launch. Only where its spec says the
// kernel computes the same result with any block size that covers the
// problem (`block_size_generic`), with a one-dimensional launch, no bounds
// on its entry that a new size would break and no dynamic shared memory
// (which may be sized for the block); the verification then checks the
// spec's word on the inputs it generates.
//
//===----------------------------------------------------------------------===//

#include "PtxFamilies.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace {
class BlockSizeFamily : public PtxRewriteFamily {
public:
  BlockSizeFamily() : PtxRewriteFamily(BuiltinRewriteFamily::BlockSize) {}
  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Tiny or huge blocks waste schedulers or occupancy; too few waves or
    // a low occupancy make the size worth trying first.
    bool extreme = evidence.blockThreads < 128 || evidence.blockThreads > 512;
    bool addressed = evidence.getFact("too-few-waves") == FactState::True ||
                     evidence.getFact("low-occupancy") == FactState::True ||
                     evidence.getFact("tail-effect") == FactState::True;
    double score = addressed ? 9 : extreme ? 8 : 3;
    ranked.push_back({score, 256});
    ranked.push_back({score - 0.5, 128});
    ranked.push_back({score - 0.5, 512});
  }
  std::optional<std::string> apply(const ImportedKernel &kernel, int64_t n,
                                   PtxVariant &variant) const override {
    ::autoprof::runtime::JobLaunch &launch = variant.launch;
    if (!kernel.blockSizeGeneric)
      return std::string("the kernel spec does not say the kernel is block "
                         "size generic");
    if (n < 32 || n > 1024 || n % 32 != 0)
      return "blocks of " + std::to_string(n) +
             " threads are not whole warps within 1024";
    if (launch.block[1] != 1 || launch.block[2] != 1 || launch.grid[1] != 1 ||
        launch.grid[2] != 1)
      return std::string("the launch is not one-dimensional");
    if (launch.block[0] == n)
      return "the blocks already have " + std::to_string(n) + " threads";
    if (launch.dynamicSharedBytes != 0)
      return std::string("the launch has dynamic shared memory, which may "
                         "be sized for the block");
    if (kernel.isCubin()) {
      // The block sizes the machine code was compiled for.
      const CubinEntry &cubin = *kernel.cubinEntry;
      if (cubin.requiredThreads)
        return std::string("the cubin's entry requires its block size "
                           "(.reqntid)");
      if (cubin.maxThreads) {
        const auto &max = *cubin.maxThreads;
        uint64_t bound = uint64_t(max[0]) * max[1] * max[2];
        if (uint64_t(n) > bound)
          return "the cubin's entry was compiled for blocks of at most " +
                 std::to_string(bound) + " threads";
      }
    } else {
      for (StringRef bound : {".maxntid", ".reqntid", ".minnctapersm"})
        if (std::optional<std::string> why =
                checkNoEntryDirective(variant.ptx, kernel.entry, bound))
          return why;
    }
    uint64_t threads = uint64_t(launch.grid[0]) * launch.block[0];
    uint64_t blocks = (threads + n - 1) / n;
    if (blocks > 2147483647u)
      return std::string("the grid would exceed the hardware's limit");
    launch.block[0] = unsigned(n);
    launch.grid[0] = unsigned(blocks);
    return std::nullopt;
  }
};
} // namespace

std::unique_ptr<PtxRewriteFamily>
mlir::autoprof::ptx_rewrites::createBlockSizeFamily() {
  return std::make_unique<BlockSizeFamily>();
}
