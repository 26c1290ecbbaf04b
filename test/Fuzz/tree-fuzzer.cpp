//===- tree-fuzzer.cpp - Fuzzes the profiling-tree reader -----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for profiling-tree files: each input is a tree file,
// loaded the way `--autoprof-select-profile="tree-file=..."` loads it (parsed
// and verified with every dialect AutoProf tools register). A tree that loads
// is then evaluated on a few fixed feature sets and turned into a profile, as
// profile selection does: a verified tree must never crash either step.
// Diagnostics are captured, never printed.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/FeatureSchema.h"
#include "autoprof/InitAll.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

using namespace mlir;
using namespace mlir::autoprof;

namespace {
/// The tree file loadProfilingTree reads: one per process, rewritten for each
/// input and removed at exit.
class TreeFile {
public:
  TreeFile() {
    if (llvm::sys::fs::createTemporaryFile("tree-fuzzer", "mlir", path)) {
      llvm::errs() << "tree-fuzzer: cannot create a temporary file\n";
      std::abort();
    }
  }
  ~TreeFile() { llvm::sys::fs::remove(path); }

  /// Replaces the file's contents by `text`; returns the file's path.
  llvm::StringRef write(llvm::StringRef text) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      llvm::errs() << "tree-fuzzer: cannot write " << path << "\n";
      std::abort();
    }
    os << text;
    return path;
  }

private:
  llvm::SmallString<128> path;
};
} // namespace

/// The registry every AutoProf tool uses, built once.
static const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *result = new DialectRegistry;
    registerAllDialects(*result);
    return result;
  }();
  return *registry;
}

/// A feature dictionary with every known feature: at its minimum (which 0),
/// at its maximum (1), or at a value inside its range derived from `seed`
/// (2).
static DictionaryAttr buildFeatures(MLIRContext *context, int which,
                                    uint64_t seed) {
  Builder builder(context);
  SmallVector<NamedAttribute> entries;
  for (const FeatureInfo &feature : getFeatureSchema()) {
    // Unbounded ranges end at a large value a kernel can still have.
    double low = std::max(feature.minValue, -1e12);
    double high = std::min(feature.maxValue, 1e12);
    double value = low;
    if (which == 1) {
      value = high;
    } else if (which == 2) {
      uint64_t hash = llvm::hash_combine(seed, feature.name);
      double fraction = static_cast<double>(hash % 1024) / 1023.0;
      value = low + fraction * (high - low);
    }
    Attribute attr =
        feature.integral
            ? Attribute(builder.getI64IntegerAttr(static_cast<int64_t>(value)))
            : Attribute(builder.getF64FloatAttr(value));
    entries.push_back(builder.getNamedAttr(feature.name, attr));
  }
  return builder.getDictionaryAttr(entries);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static TreeFile file;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::StringRef path = file.write(text);

  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler swallow(&context,
                                  [](Diagnostic &) { return success(); });
  FailureOr<LoadedTree> loaded = loadProfilingTree(
      &context, path, /*treeName=*/"", UnknownLoc::get(&context));
  if (failed(loaded))
    return 0;

  uint64_t seed = llvm::hash_value(text);
  (void)buildProfileAttr(loaded->tree, DictionaryAttr::get(&context));
  for (int which = 0; which < 3; ++which)
    (void)buildProfileAttr(loaded->tree, buildFeatures(&context, which, seed));
  return 0;
}
