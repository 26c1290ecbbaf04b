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
            "brackets nest more than 2 levels deep at line 2, column 8 (the "
            "parser would run out of stack)");
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

TEST(NestingTest, RefusesWhatWouldExhaustTheStack) {
  std::string deep(5000, '{');
  EXPECT_NE(checkSourceNesting(deep), std::nullopt);
  std::string fine(autoprof::kMaxSourceNesting, '[');
  EXPECT_EQ(checkSourceNesting(fine), std::nullopt);
}

} // namespace
