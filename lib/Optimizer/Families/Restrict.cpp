//===- Restrict.cpp - restrict=1: no-alias and read-only buffers ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Marks every buffer argument llvm.noalias and the never-written ones
// llvm.readonly, so that loads can use the read-only data path and be
// reordered across stores. Legal only when the launches provably pass
// distinct buffers.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Transforms/EvaluationJobs.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class RestrictFamily : public RewriteFamilyWithPlan<std::monostate> {
public:
  RestrictFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::Restrict) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Loads through the read-only path help memory-bound kernels most.
    ranked.push_back({evidence.memoryBound ? 9.0 : 5.0, 1});
  }

protected:
  FailureOr<std::monostate> matchPlan(const RewriteTarget &target, int64_t,
                                      std::string &why) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    bool anyToMark = false;
    for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes()))
      if (isa<MemRefType>(type) &&
          !kernel.getArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName()))
        anyToMark = true;
    if (!anyToMark) {
      why = "every buffer is already marked no-alias";
      return failure();
    }
    if (!passesDistinctBuffers(target.launches, why))
      return failure();
    return std::monostate();
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t, std::monostate &) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    rewriter.modifyOpInPlace(kernel, [&] {
      for (auto [index, arg] : llvm::enumerate(
               kernel.getArguments().take_front(kernel.getNumArguments()))) {
        if (!isa<MemRefType>(arg.getType()))
          continue;
        kernel.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(),
                          rewriter.getUnitAttr());
        if (inferBufferRole(arg) == ::autoprof::runtime::BufferRole::Input)
          kernel.setArgAttr(index, LLVM::LLVMDialect::getReadonlyAttrName(),
                            rewriter.getUnitAttr());
      }
    });
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createRestrictFamily() {
  return std::make_unique<RestrictFamily>();
}
