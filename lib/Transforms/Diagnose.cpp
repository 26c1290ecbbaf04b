//===- Diagnose.cpp - Bottleneck facts of profiled kernels ----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Diagnosis/BottleneckFacts.h"
#include "autoprof/Transforms/Passes.h"
#include "autoprof/Transforms/ProfileSelection.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_DIAGNOSEPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

namespace {
struct DiagnosePass
    : public mlir::autoprof::impl::DiagnosePassBase<DiagnosePass> {
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    AutoProfDialect::FactsAttrHelper factsAttr(&getContext());
    AutoProfDialect::MeasurementAttrHelper measurementAttr(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      // The collected metrics; missing ones are absent (never zero).
      DictionaryAttr measurement = measurementAttr.getAttr(kernel);
      llvm::StringMap<double> metrics = getMeasuredMetrics(kernel);
      bool measured = static_cast<bool>(measurement);
      if (!measured && emitRemarks)
        emitRemark(kernel.getLoc(), "@")
            << kernel.getName()
            << " has no measurement (run autoprof-profile first): every fact "
               "is unknown";
      SmallVector<NamedAttribute> entries;
      for (const BottleneckFact &fact : diagnose(metrics)) {
        entries.push_back(builder.getNamedAttr(
            fact.definition->name,
            builder.getStringAttr(getFactStateName(fact.state))));
        if (emitRemarks && measured)
          emitRemark(kernel.getLoc(), "@")
              << kernel.getName() << ": " << fact.definition->name << " is "
              << getFactStateName(fact.state) << " (" << fact.evidence << ")";
      }
      factsAttr.setAttr(kernel, builder.getDictionaryAttr(entries));
    });
  }
};
} // namespace
