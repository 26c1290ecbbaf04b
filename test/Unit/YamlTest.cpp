//===- YamlTest.cpp - YAML documents read as JSON values ------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Support/Yaml.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> value = parseYamlAsJson(text);
  if (value)
    return "";
  return llvm::toString(value.takeError());
}

TEST(Yaml, PlainScalarsTakeTheirJsonTypes) {
  llvm::Expected<llvm::json::Value> value = parseYamlAsJson(
      "int: -42\nfloat: 2.5e3\nyes: true\nno: false\nnothing: ~\n"
      "empty:\nword: f32\nquoted: '7'\ndouble: \"1.5\"\n"
      "huge: 123456789012345678901234\nblock: |\n  two\n  lines\n");
  ASSERT_TRUE(static_cast<bool>(value)) << llvm::toString(value.takeError());
  const llvm::json::Object &object = *value->getAsObject();
  EXPECT_EQ(object.getInteger("int"), -42);
  EXPECT_EQ(object.getNumber("float"), 2500.0);
  EXPECT_EQ(object.getBoolean("yes"), true);
  EXPECT_EQ(object.getBoolean("no"), false);
  // (Object::getNull returns std::optional<std::nullptr_t>, which GCC and
  // the clang that built libLLVM pass differently: compare the values.)
  EXPECT_EQ(*object.get("nothing"), llvm::json::Value(nullptr));
  EXPECT_EQ(*object.get("empty"), llvm::json::Value(nullptr));
  EXPECT_EQ(object.getString("word"), "f32");
  // Quoted scalars stay strings, whatever they spell.
  EXPECT_EQ(object.getString("quoted"), "7");
  EXPECT_EQ(object.getString("double"), "1.5");
  // An integer beyond 64 bits is a number, as JSON reads it.
  EXPECT_EQ(object.getNumber("huge"), 123456789012345678901234.0);
  EXPECT_EQ(object.getString("block"), "two\nlines\n");
}

TEST(Yaml, FlowAndBlockCollectionsAreArraysAndObjects) {
  llvm::Expected<llvm::json::Value> value =
      parseYamlAsJson("grid: [4, 1, 1]\nparams:\n  - {kind: scalar, value: 2}\n"
                      "  - kind: buffer\n    count: 8\n");
  ASSERT_TRUE(static_cast<bool>(value)) << llvm::toString(value.takeError());
  EXPECT_EQ(*value,
            llvm::json::Value(llvm::json::Object{
                {"grid", llvm::json::Array{4, 1, 1}},
                {"params",
                 llvm::json::Array{
                     llvm::json::Object{{"kind", "scalar"}, {"value", 2}},
                     llvm::json::Object{{"kind", "buffer"}, {"count", 8}}}}}));
}

TEST(Yaml, WhatJsonCannotSayIsRefusedWithItsPosition) {
  EXPECT_EQ(errorOf("a: 1\na: 2\n"), "2:1: duplicate key 'a'");
  EXPECT_EQ(errorOf("a: &x 1\nb: *x\n"),
            "1:7: anchors and aliases are not read");
  EXPECT_EQ(errorOf("a: !!int 1\n"), "1:10: tags are not read ('!!int')");
  EXPECT_EQ(errorOf("? [1, 2]\n: 3\n"), "1:4: a key must be a scalar");
  EXPECT_NE(errorOf("a: 1\n---\nb: 2\n").find("one YAML document"),
            std::string::npos);
  EXPECT_EQ(errorOf("a: [1, 2\n"), "1:9: Could not find closing ]!");
}

// Nodes the parser makes up have no position: the error has none either
// (the fuzzer's input that read one).
TEST(Yaml, ErrorsAtNodesWithoutAPlaceHaveNoPosition) {
  EXPECT_NE(errorOf("{\n w,?\n%p"), "");
}

// A hostile document cannot exhaust the stack: nesting is bounded as for
// JSON, however deep the input goes.
TEST(Yaml, DeepNestingIsRefused) {
  EXPECT_NE(errorOf(std::string(300, '[') + std::string(300, ']'))
                .find("nested more than 256 levels deep"),
            std::string::npos);
  std::string deep = std::string(200000, '[') + std::string(200000, ']');
  EXPECT_NE(errorOf(deep), "");
}

} // namespace
