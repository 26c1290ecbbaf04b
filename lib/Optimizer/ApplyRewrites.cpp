//===- ApplyRewrites.cpp - Apply built-in kernel rewrites by name ---------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/KernelRewrites.h"
#include "autoprof/Optimizer/Passes.h"
#include "autoprof/Transforms/NormalizeKernels.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_APPLYREWRITESPASS
#include "autoprof/Optimizer/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

namespace {
struct ApplyRewritesPass
    : public mlir::autoprof::impl::ApplyRewritesPassBase<ApplyRewritesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (normalize && failed(normalizeKernels(module)))
      return signalPassFailure();
    SmallVector<gpu::GPUFuncOp> kernels;
    module.walk([&](gpu::GPUFuncOp func) {
      if (func.isKernel() &&
          (kernelName.empty() || func.getName() == kernelName))
        kernels.push_back(func);
    });
    if (kernels.size() != 1) {
      module.emitError() << (kernels.empty() ? "no kernel named"
                                             : "several kernels named")
                         << " '" << kernelName << "'"
                         << (kernelName.empty() ? "; pick one with kernel="
                                                : "");
      return signalPassFailure();
    }
    for (const std::string &text : rewrites) {
      std::string error;
      FailureOr<KernelRewrite> rewrite = parseKernelRewrite(text, error);
      if (failed(rewrite)) {
        module.emitError(error);
        return signalPassFailure();
      }
      if (failed(applyKernelRewrite(*rewrite, module, kernels.front())))
        return signalPassFailure();
    }
  }
};
} // namespace
