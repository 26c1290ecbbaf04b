//===- PrivatizeAtomics.cpp - privatize-atomics=C -------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Atomic adds into a small buffer contend on few addresses. This family
// coarsens by C (C > 1), so that each block collects more updates, then
// gives each block a zeroed shared copy of every buffer that is only the
// target of atomic adds, redirects the adds to it, and adds the copy's
// non-zero elements into the buffer at the end: one global atomic per
// element and block instead of one per update.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

/// Gives every block a zeroed shared copy of `buffer`, redirects the atomic
/// adds to it, and adds each non-zero element into `buffer` at the end.
/// Every thread reaches both barriers: the body is a single block.
static void privatizeAtomics(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                             BlockArgument buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  Location loc = buffer.getLoc();
  MLIRContext *context = kernel.getContext();
  auto sharedType = MemRefType::get(
      type.getShape(), type.getElementType(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(context,
                                 gpu::GPUDialect::getWorkgroupAddressSpace()));
  BlockArgument shared;
  rewriter.modifyOpInPlace(kernel, [&] {
    shared = kernel.addWorkgroupAttribution(sharedType, loc);
  });
  rewriter.replaceAllUsesWith(buffer, shared);

  Block &body = kernel.getBody().front();
  Type element = type.getElementType();
  auto zeroAttr = cast<TypedAttr>(rewriter.getZeroAttr(element));
  // for (e = tid; e < size; e += block_dim) ...
  auto forEachElement = [&](function_ref<void(Value)> bodyFn) {
    Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value step = gpu::BlockDimOp::create(rewriter, loc, gpu::Dimension::x);
    Value size =
        arith::ConstantIndexOp::create(rewriter, loc, type.getNumElements());
    auto loop = scf::ForOp::create(rewriter, loc, tid, size, step);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    bodyFn(loop.getInductionVar());
  };

  rewriter.setInsertionPointToStart(&body);
  forEachElement([&](Value e) {
    Value zero = arith::ConstantOp::create(rewriter, loc, zeroAttr);
    memref::StoreOp::create(rewriter, loc, zero, shared, e);
  });
  gpu::BarrierOp::create(rewriter, loc);

  rewriter.setInsertionPoint(body.getTerminator());
  gpu::BarrierOp::create(rewriter, loc);
  forEachElement([&](Value e) {
    Value partial = memref::LoadOp::create(rewriter, loc, shared, e);
    Value zero = arith::ConstantOp::create(rewriter, loc, zeroAttr);
    Value nonZero =
        isa<FloatType>(element)
            ? arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNE,
                                    partial, zero)
                  .getResult()
            : arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                    partial, zero)
                  .getResult();
    auto ifOp = scf::IfOp::create(rewriter, loc, nonZero);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    memref::AtomicRMWOp::create(rewriter, loc,
                                isa<FloatType>(element)
                                    ? arith::AtomicRMWKind::addf
                                    : arith::AtomicRMWKind::addi,
                                partial, buffer, e);
  });
}

namespace {
class PrivatizeAtomicsFamily
    : public RewriteFamilyWithPlan<SmallVector<BlockArgument>> {
public:
  PrivatizeAtomicsFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::PrivatizeAtomics) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Atomic adds into a small buffer contend on few addresses; a shared
    // copy per block turns them into fast shared-memory atomics.
    if (evidence.getFeature("atomics") <= 0)
      return;
    ranked.push_back({10.3, 16});
    ranked.push_back({10.2, 64});
    ranked.push_back({10.1, 1});
  }

protected:
  FailureOr<SmallVector<BlockArgument>>
  matchPlan(const RewriteTarget &target, int64_t n,
            std::string &why) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    SmallVector<BlockArgument> buffers = findPrivatizableBuffers(
        kernel, target.gpu->staticSharedPerBlock, why);
    if (buffers.empty())
      return failure();
    if (!kernel.getBody().hasOneBlock()) {
      why = "the kernel's body is not a single block, so not every thread is "
            "known to reach its end";
      return failure();
    }
    std::optional<std::array<int64_t, 3>> block =
        getUniformBlock(target.launches);
    if (!block || (*block)[1] != 1 || (*block)[2] != 1) {
      why = "the launches do not share one constant 1-D block";
      return failure();
    }
    bool synchronizes = false;
    kernel.walk([&](gpu::BarrierOp) { synchronizes = true; });
    if (synchronizes) {
      why = "the kernel already synchronizes its blocks";
      return failure();
    }
    // The parameter coarsens first, so that each block's shared copy
    // collects more updates before it is added into the buffer.
    if (n > 1) {
      std::optional<std::string> reason = checkCoarsenable(target);
      if (!reason)
        reason = checkGridDivisible(target.launches, n);
      if (reason) {
        why = *reason;
        return failure();
      }
    }
    return buffers;
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n,
                          SmallVector<BlockArgument> &buffers) const override {
    if (n > 1) {
      shrinkGridX(rewriter, target.launches, n);
      coarsenKernel(rewriter, target.kernel, n);
    }
    for (BlockArgument buffer : buffers)
      privatizeAtomics(rewriter, target.kernel, buffer);
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createPrivatizeAtomicsFamily() {
  return std::make_unique<PrivatizeAtomicsFamily>();
}
