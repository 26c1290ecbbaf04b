//===- RegisterAccumulate.cpp - register-accumulate=1 ---------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Keeps an element that a loop loads and stores every iteration (C[i][j] +=
// ... in a naive matmul) in a register: one load before the loop, the value
// carried through iter_args, one store after it. The loop must run at least
// once (so the original stores too) and nothing else in it may touch the
// buffer. Loops around it that run at least once, leave the indices alone
// and touch the buffer nowhere else carry the element too (a convolution's
// window loops: one load and one store per result). When the launches are
// not proved to pass distinct buffers, the kernel is versioned: a run-time
// check of the buffers' address ranges picks the rewritten body, or the
// original one when they overlap.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

/// Versions the body of `kernel`: the code that follows runs as written only
/// when the buffers of `accumulations` overlap another buffer argument, and
/// otherwise runs the copy the accumulations are in, which the caller then
/// rewrites. The buffers' extents are their static sizes.
static void guardAgainstOverlap(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                                ArrayRef<Accumulation> accumulations) {
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointToStart(&body);
  // In the order the accumulations come, so that the check reads the same
  // on every run. Only the buffers a launch passes can overlap; workgroup
  // and private attributions are the kernel's own.
  llvm::SetVector<Value> accumulated;
  for (Accumulation acc : accumulations)
    accumulated.insert(acc.store.getMemRef());
  SmallVector<Value> passed;
  for (BlockArgument other :
       kernel.getArguments().take_front(kernel.getNumArguments()))
    if (isa<MemRefType>(other.getType()))
      passed.push_back(other);
  Value disjoint =
      buildBuffersApart(rewriter, loc, accumulated.getArrayRef(), passed);
  if (!disjoint)
    return;
  auto ifOp = scf::IfOp::create(rewriter, loc, disjoint, /*withElse=*/true);
  Block *then = ifOp.thenBlock();
  Operation *thenYield = then->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(std::next(ifOp->getIterator()),
                            body.getTerminator()->getIterator())))
    rewriter.moveOpBefore(&op, thenYield);
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  IRMapping mapping;
  for (Operation &op : then->without_terminator())
    rewriter.clone(op, mapping);
}

namespace {
class RegisterAccumulateFamily
    : public RewriteFamilyWithPlan<SmallVector<Accumulation>> {
public:
  RegisterAccumulateFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::RegisterAccumulate) {}

  void rank(const RewriteEvidence &,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Accumulating through memory costs a load and a store per iteration.
    ranked.push_back({10, 1});
  }

protected:
  FailureOr<SmallVector<Accumulation>>
  matchPlan(const RewriteTarget &target, int64_t,
            std::string &why) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    SmallVector<Accumulation> accumulations =
        findAccumulations(kernel, target.launches);
    if (accumulations.empty()) {
      why = "no loop loads and stores one element of a kernel buffer at "
            "loop-invariant indices (with a trip count known to be positive "
            "and no barrier, atomic or call in the loop)";
      return failure();
    }
    // Buffers not proved distinct get a run-time overlap check.
    std::string distinct;
    if (!passesDistinctBuffers(target.launches, distinct)) {
      if (!kernel.getBody().hasOneBlock()) {
        why = distinct + ", and a kernel whose body is not a single block "
                         "cannot check for the overlap at run time";
        return failure();
      }
      for (Type type : kernel.getArgumentTypes())
        if (auto memref = dyn_cast<MemRefType>(type);
            memref && !memref.hasStaticShape()) {
          why = distinct + ", and a dynamically shaped buffer's extent is "
                           "not known to check for the overlap";
          return failure();
        }
    }
    return accumulations;
  }

  LogicalResult
  applyPlan(RewriterBase &rewriter, const RewriteTarget &target, int64_t,
            SmallVector<Accumulation> &accumulations) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    std::string why;
    if (!passesDistinctBuffers(target.launches, why))
      guardAgainstOverlap(rewriter, kernel, accumulations);
    return carryInRegisters(rewriter, kernel, accumulations);
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createRegisterAccumulateFamily() {
  return std::make_unique<RegisterAccumulateFamily>();
}
