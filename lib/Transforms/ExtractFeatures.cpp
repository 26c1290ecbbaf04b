//===- ExtractFeatures.cpp - Attach static features to kernels -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Import/ImportedKernel.h"
#include "autoprof/Import/PtxFeatures.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_EXTRACTFEATURESPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

namespace {
struct ExtractFeaturesPass
    : public mlir::autoprof::impl::ExtractFeaturesPassBase<
          ExtractFeaturesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The features describe the normalized kernels unless told otherwise.
    FailureOr<NormalizedCopy> copy =
        normalize ? normalizeCopy(module)
                  : FailureOr<NormalizedCopy>(NormalizedCopy());
    if (failed(copy))
      return signalPassFailure();
    llvm::DenseMap<Operation *, gpu::LaunchFuncOp> firstLaunch =
        findKernelLaunches(module);
    bool anyFailed = false;
    llvm::DenseMap<Operation *, KernelFeatures> computed;
    llvm::DenseSet<Operation *> rejected;

    module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      FailureOr<KernelFeatures> features =
          computeNormalizedFeatures(*copy, kernel, firstLaunch.lookup(kernel));
      if (failed(features)) {
        anyFailed = true;
        rejected.insert(kernel);
        return;
      }
      kernel->setAttr(kFeaturesAttrName, features->toAttr(&getContext()));
      computed.try_emplace(kernel, std::move(*features));
    });

    // Imported kernels: what their launch and PTX say.
    FailureOr<std::vector<ImportedKernel>> imported =
        findImportedKernels(module);
    if (failed(imported))
      anyFailed = true;
    else
      for (const ImportedKernel &kernel : *imported)
        kernel.binary->setAttr(
            kFeaturesAttrName,
            computePtxFeatures(kernel).toAttr(&getContext()));

    // Every launch must be static, not only the one the features describe.
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      // A rejected kernel has been diagnosed once already.
      if (!kernel || firstLaunch.lookup(kernel) == launch ||
          rejected.contains(kernel))
        return;
      FailureOr<KernelFeatures> other =
          computeNormalizedFeatures(*copy, kernel, launch);
      if (failed(other)) {
        anyFailed = true;
        return;
      }
      auto first = computed.find(kernel);
      if (first == computed.end())
        return;
      if (other->toAttr(&getContext()) != first->second.toAttr(&getContext()))
        launch.emitWarning("kernel @")
            << kernel.getName()
            << " is launched with several configurations; its features "
               "describe the first launch";
    });
    if (anyFailed)
      signalPassFailure();
  }
};
} // namespace
