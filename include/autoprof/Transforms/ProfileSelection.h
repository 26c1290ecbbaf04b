//===- ProfileSelection.h - Choose the metrics of a kernel ------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Loading profiling trees and turning a tree evaluation into the
// `autoprof.profile` attribute; shared by the passes that select, collect and
// use profiles.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TRANSFORMS_PROFILESELECTION_H
#define AUTOPROF_TRANSFORMS_PROFILESELECTION_H

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Dialect/AutoProf/IR/TreeEvaluation.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::autoprof {

/// Name of the attribute that carries a kernel's selected profile.
constexpr StringLiteral kProfileAttrName =
    AutoProfDialect::ProfileAttrHelper::getNameStr();

/// A parsed, verified profiling tree and the module that owns it.
struct LoadedTree {
  OwningOpRef<ModuleOp> module;
  TreeOp tree;
};

/// The trees the tools carry, for when no tree file is given.
enum class ShippedTree {
  /// The hand-written starting tree (lib/Transforms/StartingTree.mlir):
  /// what --autoprof-profile collects, and what a chat model's prompt
  /// carries.
  Starting,
  /// The tree learned for the built-in proposer's search
  /// (lib/Transforms/LearnedTree.mlir, docs/results/learn-h100.md).
  LearnedForSearch,
};

/// Loads the tree named `treeName` (or the only tree) from `treeFile`, or
/// the `shipped` tree when `treeFile` is empty. Parse and verification
/// errors are reported with the tree file's locations, and a summary at
/// `loc`.
FailureOr<LoadedTree>
loadProfilingTree(MLIRContext *context, StringRef treeFile, StringRef treeName,
                  Location loc, ShippedTree shipped = ShippedTree::Starting);

/// Evaluates `tree` on `features` and builds the `autoprof.profile`
/// dictionary: tree, leaf, path, decisions, groups, expanded metric names and
/// summary. `evaluation`, when given, receives the evaluation.
DictionaryAttr buildProfileAttr(TreeOp tree, DictionaryAttr features,
                                TreeEvaluation *evaluation = nullptr);

/// The profile of `kernel`: its `autoprof.profile` attribute when present,
/// otherwise one selected with `tree` from its features (computed when
/// absent, with diagnostics on failure).
FailureOr<DictionaryAttr> getOrSelectProfile(gpu::GPUFuncOp kernel,
                                             gpu::LaunchFuncOp launch,
                                             TreeOp tree);

/// The profile of an imported kernel's `binary`: its `autoprof.profile`
/// attribute when present (an error at the binary when it names no metrics
/// array of strings), otherwise one selected with `tree` from `features`
/// (its features from the launch and the PTX).
FailureOr<DictionaryAttr>
getOrSelectProfile(gpu::BinaryOp binary, DictionaryAttr features, TreeOp tree);

/// The metrics a profiled kernel (a gpu.func, or an imported kernel's
/// gpu.binary) carries in its `autoprof.measurement` attribute
/// (autoprof-profile), by name; metrics that were not collected, and every
/// metric of a kernel without a measurement, are absent.
llvm::StringMap<double> getMeasuredMetrics(Operation *kernel);

} // namespace mlir::autoprof

#endif // AUTOPROF_TRANSFORMS_PROFILESELECTION_H
