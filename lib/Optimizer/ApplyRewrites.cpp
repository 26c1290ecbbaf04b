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
    // The rewrites first: a misspelt one is reported before anything runs.
    SmallVector<KernelRewrite> parsed;
    for (const std::string &text : rewrites) {
      std::string error;
      FailureOr<KernelRewrite> rewrite = parseKernelRewrite(text, error);
      if (failed(rewrite)) {
        emitError(module.getLoc(), error);
        return signalPassFailure();
      }
      parsed.push_back(*rewrite);
    }
    if (normalize && failed(normalizeKernels(module)))
      return signalPassFailure();
    // `kernel=name` or, where several GPU modules hold a kernel of that
    // name, `kernel=module::name` (how reports name kernels).
    StringRef wanted = kernelName;
    StringRef moduleName, funcName;
    std::tie(moduleName, funcName) = wanted.rsplit("::");
    if (funcName.empty())
      std::swap(moduleName, funcName);
    SmallVector<gpu::GPUFuncOp> kernels;
    module.walk([&](gpu::GPUFuncOp func) {
      auto parent = func->getParentOfType<gpu::GPUModuleOp>();
      if (func.isKernel() && (funcName.empty() || func.getName() == funcName) &&
          (moduleName.empty() || (parent && parent.getName() == moduleName)))
        kernels.push_back(func);
    });
    if (kernels.size() != 1) {
      InFlightDiagnostic diag = emitError(module.getLoc());
      if (kernels.empty())
        diag << "no kernel named '" << kernelName << "'";
      else if (kernelName.empty())
        diag << "the module has several kernels; pick one with kernel=NAME "
                "or kernel=MODULE::NAME";
      else
        diag << "several kernels named '" << kernelName
             << "'; pick one with kernel=MODULE::NAME";
      return signalPassFailure();
    }
    const GpuTarget *gpu = nullptr;
    if (!chip.empty() && !(gpu = findGpuTarget(chip))) {
      emitError(module.getLoc(), "autoprof-apply-rewrites: no description of "
                                 "chip '")
          << chip << "' (described: " << listGpuTargets() << ")";
      return signalPassFailure();
    }
    for (const KernelRewrite &rewrite : parsed)
      if (failed(applyKernelRewrite(rewrite, module, kernels.front(), gpu)))
        return signalPassFailure();
  }
};
} // namespace
