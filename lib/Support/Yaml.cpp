//===- Yaml.cpp - YAML documents read as JSON values ----------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Support/Yaml.h"
#include "autoprof/Support/Json.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <cmath>

using namespace llvm;
namespace yaml = llvm::yaml;

namespace {
/// Reads the nodes of one stream; the first error stops it and is kept with
/// its position.
class YamlReader {
public:
  explicit YamlReader(StringRef text) : stream(text, sources) {
    sources.setDiagHandler(
        [](const SMDiagnostic &diagnostic, void *context) {
          auto *reader = static_cast<YamlReader *>(context);
          if (reader->error.empty())
            reader->error =
                formatv("{0}:{1}: {2}", diagnostic.getLineNo(),
                        diagnostic.getColumnNo() + 1, diagnostic.getMessage())
                    .str();
        },
        this);
  }

  Expected<json::Value> read() {
    yaml::document_iterator document = stream.begin();
    std::optional<json::Value> value;
    if (document != stream.end() && document->getRoot())
      value = convert(document->getRoot(), 1);
    if (error.empty() && document != stream.end() && ++document != stream.end())
      fail(document->getRoot(), "a spec is one YAML document, not several");
    if (!error.empty() || stream.failed())
      return createStringError(inconvertibleErrorCode(),
                               error.empty() ? "not a YAML document" : error);
    if (!value)
      return createStringError(inconvertibleErrorCode(),
                               "the document is empty");
    return std::move(*value);
  }

private:
  /// Keeps the first error, at `node`.
  std::nullopt_t fail(yaml::Node *node, const Twine &message) {
    if (!error.empty())
      return std::nullopt;
    // A node the parser made up (the empty key of "{ w, ? }") has no place
    // in the text.
    SMLoc start = node ? node->getSourceRange().Start : SMLoc();
    if (!start.isValid() || !sources.FindBufferContainingLoc(start)) {
      error = message.str();
      return std::nullopt;
    }
    auto [line, column] = sources.getLineAndColumn(start);
    error = formatv("{0}:{1}: {2}", line, column, message.str()).str();
    return std::nullopt;
  }

  /// The JSON value of a plain scalar.
  static json::Value plainValue(StringRef text) {
    if (text.empty() || text == "~" || text == "null")
      return nullptr;
    if (text == "true" || text == "false")
      return text == "true";
    // Decimal numbers only (strtod would also take "inf", "nan", hex and
    // leading blanks); the pattern is compiled once.
    static const Regex decimal(
        "^[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?$");
    if (!decimal.match(text))
      return text.str();
    int64_t integer;
    if (!text.getAsInteger(10, integer))
      return integer;
    double number;
    if (to_float(text, number) && std::isfinite(number))
      return number;
    return text.str();
  }

  std::optional<json::Value> convert(yaml::Node *node, unsigned depth) {
    if (!error.empty() || !node)
      return std::nullopt;
    if (depth > autoprof::kMaxJsonDepth)
      return fail(node, formatv("mappings and sequences nested more than {0} "
                                "levels deep",
                                autoprof::kMaxJsonDepth));
    if (!node->getAnchor().empty() || isa<yaml::AliasNode>(node))
      return fail(node, "anchors and aliases are not read");
    StringRef tag = node->getRawTag();
    if (!tag.empty())
      return fail(node, "tags are not read ('" + tag + "')");
    if (auto *scalar = dyn_cast<yaml::ScalarNode>(node)) {
      SmallString<64> storage;
      StringRef text = scalar->getValue(storage);
      StringRef raw = scalar->getRawValue();
      if (raw.starts_with("\"") || raw.starts_with("'"))
        return json::Value(text.str());
      return plainValue(text);
    }
    if (auto *block = dyn_cast<yaml::BlockScalarNode>(node))
      return json::Value(block->getValue().str());
    if (isa<yaml::NullNode>(node))
      return json::Value(nullptr);
    if (auto *sequence = dyn_cast<yaml::SequenceNode>(node)) {
      json::Array array;
      for (yaml::Node &item : *sequence) {
        std::optional<json::Value> value = convert(&item, depth + 1);
        if (!value)
          return std::nullopt;
        array.push_back(std::move(*value));
      }
      if (!error.empty())
        return std::nullopt;
      return json::Value(std::move(array));
    }
    if (auto *mapping = dyn_cast<yaml::MappingNode>(node)) {
      json::Object object;
      for (yaml::KeyValueNode &entry : *mapping) {
        auto *key = dyn_cast_or_null<yaml::ScalarNode>(entry.getKey());
        if (!key)
          return fail(entry.getKey(), "a key must be a scalar");
        SmallString<64> storage;
        std::string name = key->getValue(storage).str();
        if (object.find(name) != object.end())
          return fail(key, "duplicate key '" + name + "'");
        std::optional<json::Value> value = convert(entry.getValue(), depth + 1);
        if (!value)
          return std::nullopt;
        object[name] = std::move(*value);
      }
      if (!error.empty())
        return std::nullopt;
      return json::Value(std::move(object));
    }
    return fail(node, "an unknown kind of YAML node");
  }

  SourceMgr sources;
  yaml::Stream stream;
  std::string error;
};
} // namespace

Expected<json::Value> autoprof::parseYamlAsJson(StringRef text) {
  YamlReader reader(text);
  return reader.read();
}
