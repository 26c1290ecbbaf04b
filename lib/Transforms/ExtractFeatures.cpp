//===- ExtractFeatures.cpp - Attach static features to kernels -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Transforms/Passes.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_EXTRACTFEATURESPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

namespace {
struct ExtractFeaturesPass
    : public mlir::autoprof::impl::ExtractFeaturesPassBase<ExtractFeaturesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<Operation *, gpu::LaunchFuncOp> firstLaunch =
        findKernelLaunches(module);
    bool anyFailed = false;
    llvm::DenseMap<Operation *, KernelFeatures> computed;

    module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      FailureOr<KernelFeatures> features =
          KernelFeatures::compute(kernel, firstLaunch.lookup(kernel));
      if (failed(features)) {
        anyFailed = true;
        return;
      }
      kernel->setAttr(kFeaturesAttrName, features->toAttr(&getContext()));
      computed.try_emplace(kernel, std::move(*features));
    });

    // Every launch must be static, not only the one the features describe.
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel || firstLaunch.lookup(kernel) == launch)
        return;
      FailureOr<KernelFeatures> other = KernelFeatures::compute(kernel, launch);
      if (failed(other)) {
        anyFailed = true;
        return;
      }
      auto first = computed.find(kernel);
      if (first == computed.end())
        return;
      for (StringRef name : {"grid_blocks", "block_threads"})
        if (other->lookup(name) != first->second.lookup(name)) {
          launch.emitWarning("kernel @")
              << kernel.getName()
              << " is launched with several configurations; its features "
                 "describe the first launch";
          break;
        }
    });
    if (anyFailed)
      signalPassFailure();
  }
};
} // namespace
