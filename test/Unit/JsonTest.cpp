//===- JsonTest.cpp - JSON from outside the process -----------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Support/Json.h"

#include "gtest/gtest.h"

#include <string>

using namespace autoprof;

namespace {

std::string nested(unsigned depth) {
  return "{\"a\":" + std::string(depth, '[') + std::string(depth, ']') + "}";
}

TEST(JsonTest, CountsNestingOutsideStrings) {
  EXPECT_EQ(getJsonDepth("1"), 0u);
  EXPECT_EQ(getJsonDepth(R"({"a": [1, {"b": []}]})"), 4u);
  // Brackets in strings, escaped quotes included, do not nest.
  EXPECT_EQ(getJsonDepth(R"({"a": "[[[{\"[[[", "b": ["]]]"]})"), 2u);
}

TEST(JsonTest, ParsesDocumentsOfOrdinaryDepth) {
  llvm::Expected<llvm::json::Value> value = parseJson(nested(kMaxJsonDepth - 1));
  EXPECT_TRUE(static_cast<bool>(value)) << llvm::toString(value.takeError());
}

TEST(JsonTest, RefusesDeepNestingInsteadOfOverflowingTheStack) {
  // A hundred thousand levels overflow llvm::json::parse's recursion.
  llvm::Expected<llvm::json::Value> value = parseJson(nested(100000));
  ASSERT_FALSE(static_cast<bool>(value));
  EXPECT_EQ(llvm::toString(value.takeError()),
            "arrays and objects nested more than 256 levels deep");
}

TEST(JsonTest, ReportsSyntaxErrors) {
  llvm::Expected<llvm::json::Value> value = parseJson("{\"a\": ");
  ASSERT_FALSE(static_cast<bool>(value));
  // llvm::json::parse's message, with the place: "[1:7, byte=6]".
  EXPECT_NE(llvm::toString(value.takeError()).find("[1:"), std::string::npos);
}

} // namespace
