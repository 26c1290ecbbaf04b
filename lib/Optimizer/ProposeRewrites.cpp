//===- ProposeRewrites.cpp - Attach the applicable rewrites to kernels ----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Optimizer/KernelRewrites.h"
#include "autoprof/Optimizer/Passes.h"
#include "autoprof/Transforms/EvaluationJobs.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_PROPOSEREWRITESPASS
#include "autoprof/Optimizer/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

namespace {
struct ProposeRewritesPass
    : public mlir::autoprof::impl::ProposeRewritesPassBase<
          ProposeRewritesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const GpuTarget *gpu = nullptr;
    if (!chip.empty() && !(gpu = findGpuTarget(chip))) {
      emitError(module.getLoc(), "autoprof-propose-rewrites: no description "
                                 "of chip '")
          << chip << "' (described: " << listGpuTargets() << ")";
      return signalPassFailure();
    }
    if (normalize && failed(normalizeKernels(module)))
      return signalPassFailure();
    llvm::DenseMap<Operation *, gpu::LaunchFuncOp> launches =
        findKernelLaunches(module);
    Builder builder(&getContext());
    AutoProfDialect::ProposalsAttrHelper proposals(&getContext());
    bool anyFailed = false;
    module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      gpu::LaunchFuncOp launch = launches.lookup(kernel);
      if (!launch) {
        emitRemark(kernel.getLoc(), "@")
            << kernel.getName() << " is never launched; nothing to propose";
        return;
      }
      FailureOr<KernelFeatures> features =
          KernelFeatures::compute(kernel, launch);
      if (failed(features)) {
        anyFailed = true;
        return;
      }
      SmallVector<RefusedRewrite> refused;
      SmallVector<ProposedRewrite> proposed;
      SmallVector<KernelRewrite> ranked = proposeKernelRewrites(
          module, kernel, features->toAttr(&getContext()),
          getMeasuredMetrics(kernel),
          emitRemarks && emitRefusals ? &refused : nullptr,
          emitRemarks ? &proposed : nullptr, gpu);
      SmallVector<Attribute> names;
      for (const KernelRewrite &rewrite : ranked)
        names.push_back(builder.getStringAttr(rewrite.str()));
      proposals.setAttr(kernel, builder.getArrayAttr(names));
      // Why each is where it is: its score and the facts its family
      // addresses, as the profile decides them.
      for (auto [index, entry] : llvm::enumerate(proposed)) {
        InFlightDiagnostic remark = emitRemark(kernel.getLoc(), "@");
        remark << kernel.getName() << ": proposal " << index + 1 << ": "
               << entry.rewrite.str() << " (score "
               << llvm::formatv("{0:F2}", entry.score) << ")";
        if (!entry.why.empty())
          remark << "; " << entry.why;
        if (entry.facts.empty())
          remark << "; addresses no bottleneck fact";
        for (auto [i, fact] : llvm::enumerate(entry.facts))
          remark << (i == 0 ? "; addresses " : ", ") << fact.definition->name
                 << ": " << getFactStateName(fact.state) << " ("
                 << fact.evidence << ")";
      }
      for (const RefusedRewrite &refusal : refused)
        emitRemark(kernel.getLoc(), "@")
            << kernel.getName() << ": " << refusal.rewrite.str()
            << " does not apply: " << refusal.reason;
    });
    if (anyFailed)
      signalPassFailure();
  }
};
} // namespace
