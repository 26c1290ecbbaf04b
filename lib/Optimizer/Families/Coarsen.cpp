//===- Coarsen.cpp - coarsen=C: each thread does the work of C ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Each thread does the work of C threads of C consecutive blocks: the grid
// along x shrinks by C and the body runs in a loop over the blocks it
// stands for. Fewer, longer-lived blocks amortize the index math and the
// block launch.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
class CoarsenFamily : public RewriteFamilyWithPlan<std::monostate> {
public:
  CoarsenFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::Coarsen) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Many short-lived blocks: fewer blocks doing more work each.
    bool many = evidence.gridBlocks >= 16384;
    ranked.push_back({many ? 6.5 : 2.5, 4});
    ranked.push_back({many ? 6.0 : 2.0, 2});
  }

protected:
  FailureOr<std::monostate> matchPlan(const RewriteTarget &target, int64_t n,
                                      std::string &why) const override {
    std::optional<std::string> reason = checkCoarsenable(target);
    if (!reason)
      reason = checkGridDivisible(target.launches, n);
    if (reason) {
      why = *reason;
      return failure();
    }
    return std::monostate();
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n, std::monostate &) const override {
    shrinkGridX(rewriter, target.launches, n);
    coarsenKernel(rewriter, target.kernel, n);
    return success();
  }
};
} // namespace

std::optional<std::string>
mlir::autoprof::rewrites::checkCoarsenable(const RewriteTarget &target) {
  gpu::GPUFuncOp kernel = target.kernel;
  if (kernel.getNumWorkgroupAttributions() != 0 ||
      kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()))
    return std::string("the kernel has workgroup memory or a required block "
                       "size");
  if (!kernel.getBody().hasOneBlock())
    return std::string("the kernel's body is not a single block");
  if (std::optional<std::string> why =
          checkConstantLaunches(target.launches, /*oneDimensionalGrid=*/false))
    return why;
  std::string why;
  if (!usesOnlyGlobalIndexX(kernel, why))
    return why;
  return std::nullopt;
}

void mlir::autoprof::rewrites::coarsenKernel(RewriterBase &rewriter,
                                             gpu::GPUFuncOp kernel, int64_t n) {
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointToStart(&body);
  Value blockId = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value factor = arith::ConstantIndexOp::create(rewriter, loc, n);
  auto loop = scf::ForOp::create(rewriter, loc, zero, factor, one);
  // Everything after the loop except the terminator moves into it.
  Operation *yield = loop.getBody()->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(std::next(loop->getIterator()),
                            body.getTerminator()->getIterator())))
    rewriter.moveOpBefore(&op, yield);
  rewriter.setInsertionPointToStart(loop.getBody());
  Value first = arith::MulIOp::create(rewriter, loc, blockId, factor);
  Value virtualBlock =
      arith::AddIOp::create(rewriter, loc, first, loop.getInductionVar());
  SmallVector<gpu::BlockIdOp> oldIds;
  loop.getBody()->walk([&](gpu::BlockIdOp id) {
    if (id.getDimension() == gpu::Dimension::x)
      oldIds.push_back(id);
  });
  for (gpu::BlockIdOp id : oldIds)
    rewriter.replaceOp(id, virtualBlock);
}

std::unique_ptr<RewriteFamily> mlir::autoprof::rewrites::createCoarsenFamily() {
  return std::make_unique<CoarsenFamily>();
}
