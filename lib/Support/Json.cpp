//===- Json.cpp - JSON from outside the process ---------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Support/Json.h"

#include "llvm/Support/FormatVariadic.h"

unsigned autoprof::getJsonDepth(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

llvm::Expected<llvm::json::Value> autoprof::parseJson(llvm::StringRef text) {
  if (getJsonDepth(text) > kMaxJsonDepth)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("arrays and objects nested more than {0} levels deep",
                      kMaxJsonDepth));
  return llvm::json::parse(text);
}
