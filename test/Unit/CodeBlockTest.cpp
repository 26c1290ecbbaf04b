//===- CodeBlockTest.cpp - Extracting the code of a model's answer --------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/CodeBlock.h"

#include "gtest/gtest.h"

using namespace autoprof::llm;

namespace {

/// The error message of `result`, which must be an error.
std::string errorOf(llvm::Expected<CodeBlock> result) {
  EXPECT_FALSE(static_cast<bool>(result));
  return result ? "" : llvm::toString(result.takeError());
}

TEST(CodeBlock, ExtractsTheBlockAndItsLanguage) {
  llvm::Expected<CodeBlock> block =
      extractCodeBlock("Here is a faster kernel:\n\n```mlir\ngpu.module @m {\n"
                       "}\n```\n\nIt coalesces the loads.\n");
  ASSERT_TRUE(static_cast<bool>(block)) << llvm::toString(block.takeError());
  EXPECT_EQ(block->code, "gpu.module @m {\n}\n");
  EXPECT_EQ(block->language, CodeLanguage::MLIR);
  EXPECT_EQ(getCodeLanguageName(block->language), "mlir");
}

TEST(CodeBlock, NamesCudaByAnyOfItsTags) {
  for (const char *tag : {"cuda", "cu", "cpp", "c++", "CUDA"}) {
    llvm::Expected<CodeBlock> block = extractCodeBlock(
        std::string("```") + tag + "\n__global__ void k() {}\n```");
    ASSERT_TRUE(static_cast<bool>(block)) << llvm::toString(block.takeError());
    EXPECT_EQ(block->language, CodeLanguage::CUDA) << tag;
    EXPECT_EQ(block->code, "__global__ void k() {}\n");
  }
}

TEST(CodeBlock, AcceptsAnUntaggedBlock) {
  llvm::Expected<CodeBlock> block = extractCodeBlock("```\nx\n```\n");
  ASSERT_TRUE(static_cast<bool>(block)) << llvm::toString(block.takeError());
  EXPECT_EQ(block->language, CodeLanguage::Unspecified);
  EXPECT_EQ(block->code, "x\n");
}

TEST(CodeBlock, HandlesTildesLongFencesIndentationAndCRLF) {
  llvm::Expected<CodeBlock> block =
      extractCodeBlock("~~~~ cuda\r\nint a;\r\n```\r\nint b;\r\n~~~~\r\n");
  ASSERT_TRUE(static_cast<bool>(block)) << llvm::toString(block.takeError());
  // A shorter or different fence inside the block is code.
  EXPECT_EQ(block->code, "int a;\n```\nint b;\n");

  block = extractCodeBlock("  ```mlir\n    a\n  b\n  ```\n");
  ASSERT_TRUE(static_cast<bool>(block)) << llvm::toString(block.takeError());
  EXPECT_EQ(block->code, "  a\nb\n");
}

TEST(CodeBlock, RejectsAnAnswerWithoutCode) {
  EXPECT_EQ(errorOf(extractCodeBlock("I cannot make this kernel faster.")),
            "no code block in the answer");
  // Inline code is not a block.
  EXPECT_EQ(errorOf(extractCodeBlock("Use ```__ldg``` for the loads.")),
            "no code block in the answer");
}

TEST(CodeBlock, RejectsSeveralBlocks) {
  EXPECT_EQ(errorOf(extractCodeBlock(
                "Before:\n```mlir\na\n```\nAfter:\n```mlir\nb\n```\n"
                "Launch:\n```cpp\nc\n```\n")),
            "several code blocks in the answer (3); expected one");
}

TEST(CodeBlock, RejectsAnUnclosedBlock) {
  EXPECT_EQ(errorOf(extractCodeBlock("Here:\n```mlir\ngpu.module @m {\n")),
            "the code block opened on line 2 of the answer is not closed (was "
            "the answer cut short?)");
}

TEST(CodeBlock, RejectsAnotherLanguage) {
  EXPECT_EQ(errorOf(extractCodeBlock("```python\nprint(1)\n```")),
            "the code block is tagged 'python'; expected mlir, cuda, cu, cpp "
            "or c++");
}

} // namespace
