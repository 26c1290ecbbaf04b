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
    AutoProfDialect::ImportedAttrHelper importedAttr(&getContext());
    getOperation().walk([&](Operation *op) {
      if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op)) {
        if (kernel.isKernel())
          diagnoseKernel(op, kernel.getName());
      } else if (auto binary = dyn_cast<gpu::BinaryOp>(op)) {
        // A kernel imported from PTX or CUDA carries its measurement on
        // its binary.
        if (importedAttr.getAttr(binary))
          diagnoseKernel(op, binary.getSymName());
      }
    });
  }

  /// Attaches the facts of the kernel `op` (a gpu.func or an imported
  /// kernel's gpu.binary) named `name`.
  void diagnoseKernel(Operation *op, StringRef name) {
    Builder builder(&getContext());
    AutoProfDialect::FactsAttrHelper factsAttr(&getContext());
    AutoProfDialect::MeasurementAttrHelper measurementAttr(&getContext());
    // The collected metrics; missing ones are absent (never zero).
    DictionaryAttr measurement = measurementAttr.getAttr(op);
    llvm::StringMap<double> metrics = getMeasuredMetrics(op);
    bool measured = static_cast<bool>(measurement);
    if (!measured && emitRemarks)
      emitRemark(op->getLoc(), "@")
          << name
          << " has no measurement (run autoprof-profile first): every fact "
             "is unknown";
    SmallVector<NamedAttribute> entries;
    for (const BottleneckFact &fact : diagnose(metrics)) {
      entries.push_back(builder.getNamedAttr(
          fact.definition->name,
          builder.getStringAttr(getFactStateName(fact.state))));
      if (emitRemarks && measured)
        emitRemark(op->getLoc(), "@")
            << name << ": " << fact.definition->name << " is "
            << getFactStateName(fact.state) << " (" << fact.evidence << ")";
    }
    factsAttr.setAttr(op, builder.getDictionaryAttr(entries));
  }
};
} // namespace
