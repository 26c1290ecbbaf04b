//===- Json.h - JSON from outside the process -------------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// AutoProf reads JSON written by others: kernel specs, chat requests, a
// model server's answers, cached answers, a worker's results, outcome
// tables. llvm::json::parse recurses once per level of nesting, so a
// document of tens of thousands of nested brackets overflows the stack;
// parseJson refuses documents nested deeper than any AutoProf format
// before parsing them.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SUPPORT_JSON_H
#define AUTOPROF_SUPPORT_JSON_H

#include "llvm/Support/JSON.h"

namespace autoprof {

/// Levels of arrays and objects a document may nest (AutoProf's own formats
/// use fewer than ten).
constexpr unsigned kMaxJsonDepth = 256;

/// The deepest nesting of arrays and objects in `text` (brackets inside
/// strings do not count), scanning until it exceeds `limit`.
unsigned getJsonDepth(llvm::StringRef text, unsigned limit = kMaxJsonDepth);

/// llvm::json::parse of `text`, or an error when it is not JSON or nests
/// arrays and objects more than kMaxJsonDepth levels deep.
llvm::Expected<llvm::json::Value> parseJson(llvm::StringRef text);

} // namespace autoprof

#endif // AUTOPROF_SUPPORT_JSON_H
