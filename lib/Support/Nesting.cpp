//===- Nesting.cpp - How deep a source text nests -------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Support/Nesting.h"

std::optional<std::string>
autoprof::checkSourceNesting(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    } else if (c == '"') {
      // A string literal, with its escapes; it ends at the line's end at the
      // latest (the parser reports an unterminated one).
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < text.size() && text[i] == '\n')
        --i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '{' || c == '[' || c == '(') {
      if (++depth > limit)
        return "brackets nest more than " + std::to_string(limit) +
               " levels deep at line " + std::to_string(line) +
               ", column " + std::to_string(i - lineStart + 1) +
               " (the parser would run out of stack)";
    } else if ((c == '}' || c == ']' || c == ')') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}
