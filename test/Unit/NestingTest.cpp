//===- NestingTest.cpp - How deep a source text nests ---------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Support/Nesting.h"

#include "gtest/gtest.h"

#include <string>

using autoprof::checkSourceNesting;

namespace {

TEST(NestingTest, CountsEveryKindOfBracket) {
  EXPECT_EQ(checkSourceNesting("a { b [ c ( d ) ] }", 3), std::nullopt);
  EXPECT_EQ(checkSourceNesting("a {\n b [ c ( d ) ] }", 2),
            "the text nests more than 2 levels deep at line 2, column 8 "
            "(brackets, <...> and operators of one expression; the parser "
            "would run out of stack)");
  // Depth is what is open at once, not how many brackets there are.
  EXPECT_EQ(checkSourceNesting("{}{}{}{}{}{}", 1), std::nullopt);
}

TEST(NestingTest, SkipsStringsAndComments) {
  EXPECT_EQ(checkSourceNesting(R"(x = "{{{{[[[(((" {})", 1), std::nullopt);
  EXPECT_EQ(checkSourceNesting(R"(x = "\"{{{" {})", 1), std::nullopt);
  EXPECT_EQ(checkSourceNesting("// {{{{\n{}", 1), std::nullopt);
  // A string literal ends at the line's end at the latest.
  EXPECT_NE(checkSourceNesting("\"open\n{{", 1), std::nullopt);
}

TEST(NestingTest, StrayClosingBracketsDoNotHideDepth) {
  EXPECT_NE(checkSourceNesting("}}}}{{", 1), std::nullopt);
}

TEST(NestingTest, CountsTheParametersOfTypesAndAttributes) {
  EXPECT_EQ(checkSourceNesting("tuple<tuple<i32>>", 2), std::nullopt);
  EXPECT_NE(checkSourceNesting("tuple<tuple<tuple<i32>>>", 2), std::nullopt);
  // A comparison, an arrow and >= open and close nothing.
  EXPECT_EQ(checkSourceNesting("\"x\" < 4.0 < 5.0 < 6.0", 1), std::nullopt);
  EXPECT_EQ(checkSourceNesting("affine_map<(d0) -> (d0)> affine_set<(d0) : "
                               "(d0 >= 0)>",
                               2),
            std::nullopt);
  EXPECT_EQ(checkSourceNesting("!llvm.ptr<1> memref<4xf32, strided<[1]>>", 3),
            std::nullopt);
}

TEST(NestingTest, CountsTheOperatorsOfOneExpression) {
  // affine_map<(d0) -> (d0 + d0 + d0)>: the group of the map, its results
  // and their two operators.
  llvm::StringRef map = "affine_map<(d0) -> (d0 + d0 - d0)>";
  EXPECT_EQ(checkSourceNesting(map, 4), std::nullopt);
  EXPECT_NE(checkSourceNesting(map, 3), std::nullopt);
  EXPECT_NE(checkSourceNesting("(d0 floordiv 2 mod 2 ceildiv 2)", 3),
            std::nullopt);
  EXPECT_NE(checkSourceNesting("(- - - d0)", 3), std::nullopt);
  // A comma starts another expression; words that contain an operator's
  // name are not one.
  EXPECT_EQ(checkSourceNesting("[-1, -2, -3, -4, -5]", 2), std::nullopt);
  EXPECT_EQ(checkSourceNesting("(model, modulo, d0mod)", 1), std::nullopt);
  // Operators in a region's operations are not one expression.
  EXPECT_EQ(checkSourceNesting("{ %a = arith.constant -1 : i32\n"
                               "  %b = arith.constant -2 : i32\n"
                               "  %c = arith.constant -3 : i32 }",
                               1),
            std::nullopt);
}

TEST(NestingTest, RefusesWhatWouldExhaustTheStack) {
  std::string chain = "affine_map<(d0) -> (d0";
  for (int i = 0; i < 5000; ++i)
    chain += " + d0";
  EXPECT_NE(checkSourceNesting(chain + ")>"), std::nullopt);
  std::string types;
  for (int i = 0; i < 5000; ++i)
    types += "tuple<";
  EXPECT_NE(checkSourceNesting(types), std::nullopt);
  std::string deep(5000, '{');
  EXPECT_NE(checkSourceNesting(deep), std::nullopt);
  std::string fine(autoprof::kMaxSourceNesting, '[');
  EXPECT_EQ(checkSourceNesting(fine), std::nullopt);
}

} // namespace
