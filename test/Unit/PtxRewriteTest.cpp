//===- PtxRewriteTest.cpp - Directives on PTX entries ---------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/PtxRewrite.h"

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

} // namespace
