//===- Nesting.h - How deep a source text nests -----------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's parser recurses once per nested region, attribute or type, and runs
// out of stack some thousands of levels deep: a tree file, a reference
// module or a model's answer nested that deep would crash the tool. Texts
// that come from outside the process are checked here before they are
// parsed, as JSON is (Json.h).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SUPPORT_NESTING_H
#define AUTOPROF_SUPPORT_NESTING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace autoprof {

/// The deepest nesting a source text may have. Real modules stay far below
/// it (a kernel in a gpu.module in a module, with loop nests and attribute
/// dictionaries, is some tens of levels; an affine expression some terms).
constexpr unsigned kMaxSourceNesting = 1000;

/// Why `text` (MLIR source) cannot be parsed safely: outside string
/// literals and `//` comments, what the parser recurses on nests more than
/// `limit` levels deep, at a line and column this names. That is braces,
/// brackets and parentheses; the angle brackets of a type's or an
/// attribute's parameters (`tuple<`, `affine_map<`: a `<` right after a
/// name); and, in each list of a type, attribute or affine map (not a
/// region), the operators of one element (`+`, `-`, `*`, `floordiv`,
/// `ceildiv`, `mod`: the affine parser recurses once per operator). Nothing
/// when it does not.
std::optional<std::string>
checkSourceNesting(llvm::StringRef text, unsigned limit = kMaxSourceNesting);

} // namespace autoprof

#endif // AUTOPROF_SUPPORT_NESTING_H
