//===- FastMath.cpp - fast-math=N on a CUDA source ------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Compiles an imported kernel's CUDA C++ anew with NVRTC's floating-point
// options that trade accuracy for speed, one level at a time:
//   1  --ftz=true: single-precision denormals flush to zero;
//   2  also --prec-div=false --prec-sqrt=false: division and square roots
//      round approximately;
//   3  --use_fast_math: all of the above, fused multiply-adds and the
//      intrinsic (approximate) transcendental functions (__expf, __sinf);
//      the kernel's own values of the flags it implies (--ftz, --prec-div,
//      --prec-sqrt, --fmad) are dropped.
// A candidate is kept only when the worker's verification accepts its
// outputs, within the tolerance every candidate is held to: fast math is
// tried where the tolerance allows it, and a kernel whose results it moves
// too far keeps its precise arithmetic. A kernel known only as PTX has no
// source to compile anew.
//
//===----------------------------------------------------------------------===//

#include "PtxFamilies.h"

#include "autoprof/Diagnosis/BottleneckFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::autoprof;

/// The NVRTC options of each level.
static SmallVector<StringRef> getLevelOptions(int64_t level) {
  switch (level) {
  case 1:
    return {"--ftz=true"};
  case 2:
    return {"--ftz=true", "--prec-div=false", "--prec-sqrt=false"};
  case 3:
    return {"--use_fast_math"};
  default:
    return {};
  }
}

namespace {
class FastMathFamily : public PtxRewriteFamily {
public:
  FastMathFamily() : PtxRewriteFamily(BuiltinRewriteFamily::FastMath) {}
  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Fast math shortens arithmetic: worth it where the SMs, not memory,
    // limit the kernel, and most where its special functions do.
    bool sfuBound =
        evidence.getFact("special-function-bound") == FactState::True;
    bool smBound = evidence.getFact("compute-bound") == FactState::True ||
                   evidence.getFact("issue-bound") == FactState::True;
    bool dramBound = evidence.getFact("dram-bound") == FactState::True;
    double special = evidence.getFeature("special_functions");
    double flops = evidence.getFeature("flops");
    // --use_fast_math also approximates division and contracts: worth a
    // try on arithmetic without special functions too, after the levels
    // that change less.
    if (special > 0)
      ranked.push_back(
          {sfuBound ? 9.0 : smBound ? 7.0 : dramBound ? 1.0 : 4.0, 3});
    else if (flops > 0)
      ranked.push_back({smBound ? 4.0 : dramBound ? 0.5 : 1.5, 3});
    if (flops > 0) {
      ranked.push_back({smBound ? 5.0 : dramBound ? 0.5 : 2.0, 2});
      ranked.push_back({smBound ? 3.0 : 0.5, 1});
    }
  }
  std::optional<std::string> apply(const ImportedKernel &kernel,
                                   int64_t level,
                                   PtxVariant &variant) const override {
    if (kernel.cudaSource.empty())
      return std::string("the kernel is known only as PTX: fast math is an "
                         "option of the CUDA compiler");
    SmallVector<StringRef> options = getLevelOptions(level);
    if (options.empty())
      return "fast-math levels are 1 to 3, not " + std::to_string(level);
    std::vector<std::string> &current = variant.compileOptions;
    if (llvm::is_contained(current, "--use_fast_math"))
      return std::string("the kernel is compiled with --use_fast_math already");
    if (llvm::all_of(options, [&](StringRef option) {
          return llvm::is_contained(current, option);
        }))
      return "the kernel is compiled with " + llvm::join(options, " ") +
             " already";
    // A level's `--flag=value` replaces the kernel's own value of the flag;
    // --use_fast_math replaces every value it implies (--ftz=false would
    // otherwise stand beside it).
    if (level == 3)
      llvm::erase_if(current, [](const std::string &existing) {
        return llvm::is_contained({"--ftz", "--prec-div", "--prec-sqrt",
                                   "--fmad"},
                                  StringRef(existing).split('=').first);
      });
    for (StringRef option : options) {
      StringRef flag = option.split('=').first;
      llvm::erase_if(current, [&](const std::string &existing) {
        return StringRef(existing).split('=').first == flag;
      });
      current.push_back(option.str());
    }
    variant.recompile = true;
    return std::nullopt;
  }
};
} // namespace

std::unique_ptr<PtxRewriteFamily>
mlir::autoprof::ptx_rewrites::createFastMathFamily() {
  return std::make_unique<FastMathFamily>();
}
