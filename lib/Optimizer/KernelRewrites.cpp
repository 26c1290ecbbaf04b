//===- KernelRewrites.cpp - Built-in rewrites of a kernel and launch ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Rewrites named "family=parameter", resolved through the family registry
// (RewriteFamily.h); the families themselves are in Families/.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/KernelRewrites.h"

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Optimizer/RewriteFamily.h"
#include "autoprof/Transforms/NormalizeKernels.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::autoprof;

std::string KernelRewrite::str() const {
  return family + "=" + std::to_string(parameter);
}

FailureOr<KernelRewrite>
mlir::autoprof::parseKernelRewrite(StringRef text, std::string &error) {
  auto [family, parameter] = text.trim().split('=');
  KernelRewrite rewrite;
  rewrite.family = family.str();
  const RewriteFamilyRegistry &registry = RewriteFamilyRegistry::get();
  if (!registry.lookup(family)) {
    error = "unknown rewrite '" + family.str() + "'; known: ";
    llvm::raw_string_ostream os(error);
    llvm::interleaveComma(
        registry.getFamilies(), os,
        [&](const RewriteFamily *known) { os << known->getName(); });
    return failure();
  }
  if (!parameter.empty() && parameter.getAsInteger(10, rewrite.parameter)) {
    error = "the parameter of '" + family.str() +
            "' must be an integer, got '" + parameter.str() + "'";
    return failure();
  }
  return rewrite;
}

/// Why a launch of `launches` cannot run as written, or nothing: a constant
/// grid or block size outside what a GPU launches (blocks of 1 to 1024
/// threads, at most 1024 x 1024 x 64; grids of 1 to 2^31 - 1 x 65535 x
/// 65535 blocks). The families compute with these sizes (thread counts,
/// divisions by a block's width), so no family looks at such a kernel.
static std::optional<std::string>
checkLaunchGeometry(ArrayRef<gpu::LaunchFuncOp> launches) {
  static constexpr const char *kDims[] = {"x", "y", "z"};
  static constexpr int64_t kBlockLimits[] = {1024, 1024, 64};
  static constexpr int64_t kGridLimits[] = {2147483647, 65535, 65535};
  for (gpu::LaunchFuncOp launch : launches) {
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    int64_t threads = 1;
    bool allConstant = true;
    for (int d = 0; d < 3; ++d) {
      Value blockSize = d == 0 ? block.x : d == 1 ? block.y : block.z;
      Value gridSize = d == 0 ? grid.x : d == 1 ? grid.y : grid.z;
      if (std::optional<int64_t> size = getConstantIntValue(blockSize)) {
        if (*size < 1 || *size > kBlockLimits[d])
          return llvm::formatv("a launch's block has {0} threads along {1} "
                               "(a GPU launches 1 to {2})",
                               *size, kDims[d], kBlockLimits[d])
              .str();
        threads *= *size;
      } else {
        allConstant = false;
      }
      if (std::optional<int64_t> size = getConstantIntValue(gridSize))
        if (*size < 1 || *size > kGridLimits[d])
          return llvm::formatv("a launch's grid has {0} blocks along {1} "
                               "(a GPU launches 1 to {2})",
                               *size, kDims[d], kGridLimits[d])
              .str();
    }
    if (allConstant && threads > 1024)
      return llvm::formatv("a launch's block has {0} threads (a GPU "
                           "launches at most 1024)",
                           threads)
          .str();
  }
  return std::nullopt;
}

/// Matches `rewrite` on `target`: unknown families, kernels that are never
/// launched or launched with sizes no GPU runs, fallbacks a rewrite keeps
/// as they were and invalid parameters are refused before the family
/// looks.
static RewriteMatch matchRewrite(const KernelRewrite &rewrite,
                                 const RewriteTarget &target,
                                 const RewriteFamily *&family) {
  family = RewriteFamilyRegistry::get().lookup(rewrite.family);
  if (!family)
    return RewriteMatch::failure("unknown rewrite '" + rewrite.family + "'");
  if (target.launches.empty())
    return RewriteMatch::failure("the kernel is never launched");
  if (std::optional<std::string> why = checkLaunchGeometry(target.launches))
    return RewriteMatch::failure(std::move(*why));
  gpu::GPUFuncOp kernel = target.kernel;
  if (FlatSymbolRefAttr original =
          AutoProfDialect::FallbackOfAttrHelper(kernel.getContext())
              .getAttr(kernel))
    return RewriteMatch::failure("the kernel is the fallback of @" +
                                 original.getValue().str() +
                                 " and stays as it was");
  if (std::optional<std::string> why =
          family->checkParameter(rewrite.parameter))
    return RewriteMatch::failure(std::move(*why));
  return family->match(target, rewrite.parameter);
}

std::optional<std::string>
mlir::autoprof::checkKernelRewrite(const KernelRewrite &rewrite,
                                   ModuleOp module, gpu::GPUFuncOp kernel,
                                   const GpuTarget *gpu) {
  const RewriteFamily *family;
  RewriteMatch match =
      matchRewrite(rewrite, RewriteTarget::get(module, kernel, gpu), family);
  if (match.succeeded())
    return std::nullopt;
  return match.getReason().str();
}

LogicalResult mlir::autoprof::applyKernelRewrite(const KernelRewrite &rewrite,
                                                 ModuleOp module,
                                                 gpu::GPUFuncOp kernel,
                                                 const GpuTarget *gpu) {
  IRRewriter rewriter(kernel.getContext());
  return applyKernelRewrite(rewriter, rewrite, module, kernel, gpu);
}

LogicalResult mlir::autoprof::applyKernelRewrite(RewriterBase &rewriter,
                                                 const KernelRewrite &rewrite,
                                                 ModuleOp module,
                                                 gpu::GPUFuncOp kernel,
                                                 const GpuTarget *gpu) {
  RewriteTarget target = RewriteTarget::get(module, kernel, gpu);
  const RewriteFamily *family;
  RewriteMatch match = matchRewrite(rewrite, target, family);
  if (!match.succeeded())
    return emitError(kernel.getLoc(), "cannot apply ")
           << rewrite.str() << " to @" << kernel.getName() << ": "
           << match.getReason();
  bool hadKnownSizes =
      kernel.getKnownBlockSizeAttr() || kernel.getKnownGridSizeAttr();
  OpBuilder::InsertionGuard guard(rewriter);
  if (failed(
          family->apply(rewriter, target, rewrite.parameter, match.getPlan())))
    return failure();
  // Sizes the kernel promised about its launches must stay true.
  if (hadKnownSizes)
    recordKnownLaunchSizes(module, kernel);
  return success();
}

SmallVector<KernelRewrite> mlir::autoprof::proposeKernelRewrites(
    ModuleOp module, gpu::GPUFuncOp kernel, DictionaryAttr features,
    const llvm::StringMap<double> &metrics,
    SmallVectorImpl<RefusedRewrite> *refused,
    SmallVectorImpl<ProposedRewrite> *proposed, const GpuTarget *gpu) {
  RewriteTarget target = RewriteTarget::get(module, kernel, gpu);
  RewriteEvidence evidence =
      RewriteEvidence::compute(target, features, metrics);
  // (score, rewrite): higher scores are tried first, ties in registry order;
  // the rules are in docs/optimizer.md.
  SmallVector<ProposedRewrite> scored;
  for (const RewriteFamily *family :
       RewriteFamilyRegistry::get().getFamilies()) {
    SmallVector<RankedParameter> ranked;
    family->rank(evidence, ranked);
    for (RankedParameter &candidate : ranked) {
      KernelRewrite rewrite{family->getName().str(), candidate.parameter};
      const RewriteFamily *resolved;
      RewriteMatch match = matchRewrite(rewrite, target, resolved);
      if (!match.succeeded()) {
        if (refused)
          refused->push_back({rewrite, match.getReason().str()});
        continue;
      }
      ProposedRewrite entry{
          rewrite, candidate.score, {}, std::move(candidate.why)};
      for (StringRef name : family->getAddressedFacts())
        if (const BottleneckFact *fact = evidence.findFact(name))
          entry.facts.push_back(*fact);
      scored.push_back(std::move(entry));
    }
  }
  llvm::stable_sort(
      scored, [](const auto &a, const auto &b) { return a.score > b.score; });
  SmallVector<KernelRewrite> ranked;
  for (const ProposedRewrite &entry : scored)
    ranked.push_back(entry.rewrite);
  if (proposed)
    proposed->append(scored.begin(), scored.end());
  return ranked;
}

SmallVector<ProposedRewrite> mlir::autoprof::proposeRevisions(
    ModuleOp module, gpu::GPUFuncOp kernel, DictionaryAttr features,
    const llvm::StringMap<double> &metrics, const KernelRewrite &winner,
    const GpuTarget *gpu) {
  SmallVector<ProposedRewrite> revisions;
  const RewriteFamily *family =
      RewriteFamilyRegistry::get().lookup(winner.family);
  if (!family)
    return revisions;
  RewriteEvidence evidence = RewriteEvidence::compute(
      RewriteTarget::get(module, kernel, gpu), features, metrics);
  SmallVector<RankedParameter> ranked;
  family->rankRevisions(evidence, winner.parameter, ranked);
  for (RankedParameter &candidate : ranked) {
    const RewriteFamily *revision =
        candidate.family.empty()
            ? family
            : RewriteFamilyRegistry::get().lookup(candidate.family);
    if (!revision ||
        (revision == family && candidate.parameter == winner.parameter) ||
        revision->checkParameter(candidate.parameter))
      continue;
    ProposedRewrite entry{{revision->getName().str(), candidate.parameter},
                          candidate.score,
                          {},
                          std::move(candidate.why)};
    for (StringRef name : revision->getAddressedFacts())
      if (const BottleneckFact *fact = evidence.findFact(name))
        entry.facts.push_back(*fact);
    revisions.push_back(std::move(entry));
  }
  llvm::stable_sort(revisions, [](const auto &a, const auto &b) {
    return a.score > b.score;
  });
  return revisions;
}
