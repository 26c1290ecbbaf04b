//===- Nesting.cpp - How deep a source text nests -------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Support/Nesting.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace {
/// An open group: its opening character and, in a group of a type,
/// attribute or affine expression, the operators of the expression it is in
/// so far (each one a level of the affine parser's recursion).
struct Group {
  char open;
  unsigned operators = 0;
};
} // namespace

static bool isNameChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

static char getOpener(char close) {
  return close == '}' ? '{' : close == ']' ? '[' : close == ')' ? '(' : '<';
}

std::optional<std::string> autoprof::checkSourceNesting(llvm::StringRef text,
                                                        unsigned limit) {
  llvm::SmallVector<Group> groups;
  // The parser's recursion at this point: the open groups and the
  // operators counted in them.
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  auto at = [&](size_t i) { return i < text.size() ? text[i] : '\0'; };
  auto close = [&](char open) {
    while (!groups.empty()) {
      Group group = groups.pop_back_val();
      depth -= 1 + group.operators;
      if (group.open == open)
        return;
    }
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool deeper = false;
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
    } else if (c == '/' && at(i + 1) == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '{' || c == '[' || c == '(' ||
               // `tuple<`, `!llvm.ptr<`, `affine_map<`: a parameter list
               // (not a comparison such as `"x" < 4.0`).
               (c == '<' && i > 0 && isNameChar(text[i - 1]))) {
      groups.push_back({c});
      deeper = true;
    } else if (c == '}' || c == ']' || c == ')') {
      close(getOpener(c));
    } else if (c == '>' && !groups.empty() && groups.back().open == '<' &&
               at(i - 1) != '-' && at(i + 1) != '=') {
      close('<');
    } else if (c == ',' && !groups.empty()) {
      depth -= groups.back().operators;
      groups.back().operators = 0;
    } else if (!groups.empty() && groups.back().open != '{') {
      // Affine expressions (`d0 + d1 * 2`, `-d0`, `d0 floordiv 4`) recurse
      // once per operator; so do chains of them in any list.
      bool isOperator = c == '+' || c == '*' || (c == '-' && at(i + 1) != '>');
      if (!isOperator && llvm::isAlpha(c) &&
          (i == 0 || !isNameChar(text[i - 1])))
        for (llvm::StringRef word : {"floordiv", "ceildiv", "mod"})
          if (text.substr(i).starts_with(word) &&
              !isNameChar(at(i + word.size()))) {
            isOperator = true;
            i += word.size() - 1;
            break;
          }
      if (isOperator) {
        ++groups.back().operators;
        deeper = true;
      }
    }
    if (deeper && ++depth > limit)
      return "the text nests more than " + std::to_string(limit) +
             " levels deep at line " + std::to_string(line) + ", column " +
             std::to_string(i - lineStart + 1) +
             " (brackets, <...> and operators of one expression; the "
             "parser would run out of stack)";
  }
  return std::nullopt;
}
