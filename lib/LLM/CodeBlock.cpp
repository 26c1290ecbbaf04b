//===- CodeBlock.cpp - The code in a model's answer -----------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Fences follow CommonMark: a line of at least three backticks or tildes,
// indented by at most three spaces, opens a block; the block ends at a line
// of at least as many of the same character with nothing else on it.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/CodeBlock.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

using namespace autoprof::llm;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

llvm::StringRef autoprof::llm::getCodeLanguageName(CodeLanguage language) {
  switch (language) {
  case CodeLanguage::Unspecified:
    return "";
  case CodeLanguage::MLIR:
    return "mlir";
  case CodeLanguage::CUDA:
    return "cuda";
  }
  return "";
}

namespace {
/// An opening or closing fence line.
struct Fence {
  /// Spaces before the fence.
  size_t indent = 0;
  /// '`' or '~'.
  char marker = '`';
  /// Number of marker characters.
  size_t length = 0;
  /// What follows the marker characters, trimmed.
  llvm::StringRef info;
};

/// A block found in the answer.
struct RawBlock {
  std::string code;
  llvm::StringRef tag;
  /// 1-based line of the opening fence, for messages.
  size_t line = 0;
  bool closed = false;
};
} // namespace

/// Parses `line` as a fence, or returns std::nullopt.
static std::optional<Fence> parseFence(llvm::StringRef line) {
  Fence fence;
  fence.indent = line.size() - line.ltrim(' ').size();
  if (fence.indent > 3)
    return std::nullopt;
  llvm::StringRef rest = line.drop_front(fence.indent);
  if (rest.empty() || (rest.front() != '`' && rest.front() != '~'))
    return std::nullopt;
  fence.marker = rest.front();
  fence.length = rest.size() - rest.ltrim(fence.marker).size();
  if (fence.length < 3)
    return std::nullopt;
  fence.info = rest.drop_front(fence.length).trim();
  // A backtick in the info string makes the line inline code, not a fence.
  if (fence.marker == '`' && fence.info.contains('`'))
    return std::nullopt;
  return fence;
}

/// Removes up to `indent` leading spaces, as CommonMark does for the content
/// of an indented fence.
static llvm::StringRef dropIndent(llvm::StringRef line, size_t indent) {
  size_t spaces = line.size() - line.ltrim(' ').size();
  return line.drop_front(std::min(spaces, indent));
}

llvm::Expected<CodeBlock>
autoprof::llm::extractCodeBlock(llvm::StringRef answer) {
  llvm::SmallVector<llvm::StringRef> lines;
  answer.split(lines, '\n');

  llvm::SmallVector<RawBlock> blocks;
  std::optional<Fence> open;
  for (auto [index, rawLine] : llvm::enumerate(lines)) {
    llvm::StringRef line = rawLine.rtrim('\r');
    if (!open) {
      open = parseFence(line);
      if (open) {
        RawBlock block;
        // The language is the first word of the info string.
        block.tag = open->info.split(' ').first.split('{').first;
        block.line = index + 1;
        blocks.push_back(std::move(block));
      }
      continue;
    }
    std::optional<Fence> close = parseFence(line);
    if (close && close->marker == open->marker &&
        close->length >= open->length && close->info.empty()) {
      blocks.back().closed = true;
      open.reset();
      continue;
    }
    blocks.back().code += dropIndent(line, open->indent);
    blocks.back().code += '\n';
  }

  if (blocks.empty())
    return makeError("no code block in the answer");
  if (blocks.size() > 1)
    return makeError("several code blocks in the answer (" +
                     llvm::Twine(blocks.size()) + "); expected one");
  RawBlock &block = blocks.front();
  if (!block.closed)
    return makeError("the code block opened on line " +
                     llvm::Twine(block.line) +
                     " of the answer is not closed (was the answer cut "
                     "short?)");

  std::string tag = block.tag.lower();
  std::optional<CodeLanguage> language =
      llvm::StringSwitch<std::optional<CodeLanguage>>(tag)
          .Case("", CodeLanguage::Unspecified)
          .Case("mlir", CodeLanguage::MLIR)
          .Cases({"cuda", "cu", "cpp", "c++"}, CodeLanguage::CUDA)
          .Default(std::nullopt);
  if (!language)
    return makeError("the code block is tagged '" + block.tag +
                     "'; expected mlir, cuda, cu, cpp or c++");
  return CodeBlock{std::move(block.code), *language};
}
