//===- CodeBlock.h - The code in a model's answer ---------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A proposal from a language model is one fenced Markdown code block of MLIR
// or CUDA C++, possibly surrounded by prose. This header extracts it and says
// why when the answer does not have that shape, so that the message can be
// sent back to the model or logged.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LLM_CODEBLOCK_H
#define AUTOPROF_LLM_CODEBLOCK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace autoprof::llm {

/// The language of a code block.
enum class CodeLanguage {
  /// The fence has no language tag.
  Unspecified,
  /// Tagged `mlir`.
  MLIR,
  /// Tagged `cuda`, `cu`, `cpp` or `c++`.
  CUDA,
};

/// The name of `language`: "", "mlir" or "cuda".
llvm::StringRef getCodeLanguageName(CodeLanguage language);

/// The code of a fenced block and its language.
struct CodeBlock {
  /// The lines between the fences, each ending in a newline, with the
  /// indentation of the opening fence removed.
  std::string code;
  /// The language its tag names.
  CodeLanguage language = CodeLanguage::Unspecified;
};

/// Extracts the one fenced code block (``` or ~~~, optionally tagged) of
/// `answer`. Fails with "no code block in the answer", "several code blocks
/// in the answer (N); expected one", or a message naming an unclosed block
/// or a tag other than mlir, cuda, cu, cpp and c++.
llvm::Expected<CodeBlock> extractCodeBlock(llvm::StringRef answer);

} // namespace autoprof::llm

#endif // AUTOPROF_LLM_CODEBLOCK_H
