//===- RaiseKernels.cpp - Print kernels raised to iteration spaces --------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Raise/IterationSpace.h"
#include "autoprof/Transforms/NormalizeKernels.h"
#include "autoprof/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_RAISEKERNELSPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

namespace {
struct RaiseKernelsPass
    : public mlir::autoprof::impl::RaiseKernelsPassBase<RaiseKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OwningOpRef<ModuleOp> copy = module.clone();
    if (failed(normalizeKernels(*copy)))
      return signalPassFailure();
    llvm::SetVector<gpu::GPUFuncOp> launched;
    copy->walk([&](gpu::LaunchFuncOp launch) {
      if (auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
              launch, launch.getKernel()))
        launched.insert(kernel);
    });
    SymbolTable symbols(module);
    for (gpu::GPUFuncOp kernel : launched) {
      std::string why;
      FailureOr<IterationSpace> space = raiseKernel(kernel, why);
      if (failed(space)) {
        emitRemark(kernel.getLoc()) << "@" << kernel.getName()
                                    << " not raised: " << why;
        continue;
      }
      emitRemark(kernel.getLoc())
          << "@" << kernel.getName() << " raised: " << space->describe();
      OpBuilder builder(module.getContext());
      auto function = func::FuncOp::create(
          builder, kernel.getLoc(), (kernel.getName() + "_raised").str(),
          builder.getFunctionType(kernel.getArgumentTypes(), {}));
      symbols.insert(function);
      Block *entry = function.addEntryBlock();
      builder.setInsertionPointToStart(entry);
      buildAffineNest(builder, kernel.getLoc(), *space, entry->getArguments());
      func::ReturnOp::create(builder, kernel.getLoc());
    }
  }
};
} // namespace
