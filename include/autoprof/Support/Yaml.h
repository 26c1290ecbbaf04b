//===- Yaml.h - YAML documents read as JSON values --------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel spec may be written in YAML as well as JSON. Rather than a second
// reader for every field, a YAML document is read (llvm::yaml::Stream) into
// the JSON value it denotes, and the JSON reader checks it: mappings become
// objects, sequences arrays; a plain scalar is null (`null`, `~` or
// nothing), a boolean (`true`, `false`), an integer, a number or else a
// string; quoted and block scalars are strings. What JSON cannot say is
// refused with its line and column: anchors, aliases and tags, keys that
// are not scalars or repeat, a stream of several documents, nesting deeper
// than kMaxJsonDepth.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SUPPORT_YAML_H
#define AUTOPROF_SUPPORT_YAML_H

#include "llvm/Support/JSON.h"

namespace autoprof {

/// The JSON value of the one YAML document in `text`, or an error
/// ("3:7: duplicate key 'grid'").
llvm::Expected<llvm::json::Value> parseYamlAsJson(llvm::StringRef text);

} // namespace autoprof

#endif // AUTOPROF_SUPPORT_YAML_H
