//===- PtxRewriteTest.cpp - Directives on PTX entries ---------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/PtxRewrite.h"
#include "autoprof/Import/ImportedKernel.h"
#include "autoprof/Import/KernelSpec.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

using namespace mlir::autoprof;

namespace {

/// Two entries, one name the prefix of the other; the second as Triton
/// writes it, with a block size fixed by `.reqntid`.
constexpr const char *kPtx = R"(.version 8.0
.target sm_90
.address_size 64

.visible .entry scale(
	.param .u64 scale_param_0
)
{
	ret;
}

.visible .entry scale_twice(
	.param .u64 .ptr .global .align 1 scale_twice_param_0
)
.reqntid 128, 1, 1
{
	ret;
}
)";

TEST(PtxRewriteTest, AddsDirectiveBetweenParametersAndBody) {
  std::string ptx = kPtx;
  EXPECT_EQ(addEntryDirective(ptx, "scale", ".maxnreg 64"), std::nullopt);
  EXPECT_NE(ptx.find(" scale_param_0\n)\n.maxnreg 64\n{"), std::string::npos)
      << ptx;
  // The other entry is untouched.
  EXPECT_NE(ptx.find(".reqntid 128, 1, 1\n{"), std::string::npos);
}

TEST(PtxRewriteTest, FindsTheEntryByItsWholeName) {
  std::string ptx = kPtx;
  EXPECT_EQ(addEntryDirective(ptx, "scale_twice", ".maxnreg 32"),
            std::nullopt);
  EXPECT_NE(ptx.find(".reqntid 128, 1, 1\n.maxnreg 32\n{"), std::string::npos)
      << ptx;
  EXPECT_EQ(ptx.find("scale_param_0\n)\n.maxnreg"), std::string::npos);
}

/// `.entryk (` is no declaration of `k` (PTX needs a blank after
/// `.entry`): the directive goes to the real one, whose parameters and body
/// read as before (the readers and the editor agree on the entry).
TEST(PtxRewriteTest, ReadersAndEditorAgreeOnTheEntry) {
  std::string ptx = ".version 8.0\n.target sm_90\n"
                    "// .entryk (x) { }\n"
                    ".visible .entry k(\n  .param .u64 p0,\n  .param .f32 p1\n)\n"
                    "{\n  ret;\n}\n";
  llvm::Expected<PtxEntry> before = readPtxEntry(ptx, "k");
  ASSERT_TRUE(static_cast<bool>(before)) << llvm::toString(before.takeError());
  EXPECT_EQ(getPtxEntryBody(ptx, "k"), "\n  ret;\n");
  ASSERT_EQ(addEntryDirective(ptx, "k", ".maxntid 256, 1, 1"), std::nullopt);
  EXPECT_NE(ptx.find(")\n.maxntid 256, 1, 1\n{"), std::string::npos) << ptx;
  llvm::Expected<PtxEntry> after = readPtxEntry(ptx, "k");
  ASSERT_TRUE(static_cast<bool>(after)) << llvm::toString(after.takeError());
  EXPECT_EQ(after->paramTypes, before->paramTypes);
  EXPECT_EQ(after->paramTypes, (std::vector<std::string>{".u64", ".f32"}));
  EXPECT_EQ(getPtxEntryBody(ptx, "k"), "\n  ret;\n");
}

TEST(PtxRewriteTest, RefusesADirectiveTheEntryHas) {
  std::string ptx = kPtx;
  EXPECT_EQ(checkNoEntryDirective(ptx, "scale_twice", ".reqntid"),
            "entry 'scale_twice' already declares .reqntid");
  EXPECT_EQ(checkNoEntryDirective(ptx, "scale", ".reqntid"), std::nullopt);
  ASSERT_EQ(addEntryDirective(ptx, "scale", ".maxnreg 64"), std::nullopt);
  EXPECT_EQ(addEntryDirective(ptx, "scale", ".maxnreg 32"),
            "entry 'scale' already declares .maxnreg");
}

TEST(PtxRewriteTest, RefusesAMissingEntry) {
  std::string ptx = kPtx;
  EXPECT_EQ(addEntryDirective(ptx, "scal", ".maxnreg 64"),
            "the PTX has no entry 'scal'");
  EXPECT_EQ(ptx, kPtx);
}

const PtxRewriteFamily &getFamily(llvm::StringRef name) {
  for (const std::unique_ptr<PtxRewriteFamily> &family :
       getPtxRewriteFamilies())
    if (family->getName() == name)
      return *family;
  ADD_FAILURE() << "no family " << name.str();
  return *getPtxRewriteFamilies().front();
}

TEST(PtxRewriteTest, DirectivesAddedToAVariantAreRemembered) {
  PtxVariant variant{kPtx, {}};
  EXPECT_EQ(addVariantDirective(variant, "scale", ".maxnreg 64"),
            std::nullopt);
  EXPECT_EQ(variant.directives, std::vector<std::string>{".maxnreg 64"});
  // One the entry has already is neither added nor remembered.
  EXPECT_NE(addVariantDirective(variant, "scale_twice", ".reqntid 64"),
            std::nullopt);
  EXPECT_EQ(variant.directives.size(), 1u);
}

TEST(PtxRewriteTest, FastMathRecompilesCudaSourcesOnly) {
  const PtxRewriteFamily &fastMath = getFamily("fast-math");
  ImportedKernel kernel;
  kernel.entry = "scale";
  kernel.ptx = kPtx;
  PtxVariant variant{kPtx, {}};
  // Only PTX: nothing to compile anew.
  EXPECT_EQ(fastMath.apply(kernel, 3, variant),
            "the kernel is known only as PTX: fast math is an option of the "
            "CUDA compiler");
  EXPECT_FALSE(variant.recompile);

  kernel.cudaSource = "extern \"C\" __global__ void scale(float *x) {}";
  // A level replaces the kernel's own value of a flag and keeps the rest.
  variant.compileOptions = {"-DTILE=32", "--ftz=false"};
  EXPECT_EQ(fastMath.apply(kernel, 2, variant), std::nullopt);
  EXPECT_TRUE(variant.recompile);
  EXPECT_EQ(variant.compileOptions,
            (std::vector<std::string>{"-DTILE=32", "--ftz=true",
                                      "--prec-div=false",
                                      "--prec-sqrt=false"}));
  // A level whose options are there already does not apply; nor does any
  // after --use_fast_math.
  PtxVariant again = variant;
  EXPECT_EQ(fastMath.apply(kernel, 1, again),
            "the kernel is compiled with --ftz=true already");
  again.compileOptions = {"--use_fast_math"};
  EXPECT_EQ(fastMath.apply(kernel, 2, again),
            "the kernel is compiled with --use_fast_math already");
  EXPECT_EQ(fastMath.apply(kernel, 4, again),
            "fast-math levels are 1 to 3, not 4");
}

TEST(PtxRewriteTest, FastMathIsRankedFromTheFeatures) {
  const PtxRewriteFamily &fastMath = getFamily("fast-math");
  mlir::MLIRContext context;
  mlir::Builder builder(&context);
  auto rank = [&](double special, double flops) {
    RewriteEvidence evidence;
    evidence.features = builder.getDictionaryAttr(
        {builder.getNamedAttr("special_functions",
                              builder.getF64FloatAttr(special)),
         builder.getNamedAttr("flops", builder.getF64FloatAttr(flops))});
    llvm::SmallVector<RankedParameter> ranked;
    fastMath.rank(evidence, ranked);
    return ranked;
  };
  // No floating-point work: nothing to gain.
  EXPECT_TRUE(rank(0, 0).empty());
  // Special functions: --use_fast_math first.
  llvm::SmallVector<RankedParameter> ranked = rank(2, 96);
  ASSERT_EQ(ranked.size(), 3u);
  EXPECT_EQ(ranked.front().parameter, 3);
  EXPECT_TRUE(llvm::all_of(llvm::drop_begin(ranked), [&](const auto &entry) {
    return entry.score < ranked.front().score;
  }));
  // Arithmetic without special functions: the division and root level
  // first, --use_fast_math after it.
  ranked = rank(0, 8);
  ASSERT_EQ(ranked.size(), 3u);
  llvm::stable_sort(ranked, [](const auto &a, const auto &b) {
    return a.score > b.score;
  });
  EXPECT_EQ(ranked[0].parameter, 2);
  EXPECT_EQ(ranked[1].parameter, 3);
}

} // namespace
