//===- FeatureSchema.h - Names and ranges of kernel features ----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The kernel features a profiling tree may test. The schema is shared by the
// feature extraction analysis (which produces them), the tree verifier (which
// rejects unknown names and impossible thresholds) and tree evaluation.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_ANALYSIS_FEATURESCHEMA_H
#define AUTOPROF_ANALYSIS_FEATURESCHEMA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::autoprof {

/// Whether a feature is known from the IR alone or needs a run on the GPU.
enum class FeatureKind {
  /// Computed from the kernel and its host launch.
  Static,
  /// Measured by one cheap timed run; absent until the kernel has run.
  Dynamic,
};

/// One kernel feature.
struct FeatureInfo {
  /// The name splits test, e.g. "arith_intensity".
  llvm::StringRef name;
  /// One line for people and prompts.
  llvm::StringRef meaning;
  /// Static (from the IR) or dynamic (measured).
  FeatureKind kind;
  /// Whether values are whole numbers (stored as i64 attributes).
  bool integral;
  /// Inclusive range of possible values; a split threshold outside it makes
  /// one branch dead and is rejected by the verifier.
  double minValue;
  double maxValue;
};

/// All known features, in a stable order.
llvm::ArrayRef<FeatureInfo> getFeatureSchema();

/// Looks up a feature by exact name; null when unknown.
const FeatureInfo *lookupFeature(llvm::StringRef name);

/// Returns the known feature name closest to `name`, or "" when none is close.
std::string suggestFeature(llvm::StringRef name);

} // namespace mlir::autoprof

#endif // AUTOPROF_ANALYSIS_FEATURESCHEMA_H
