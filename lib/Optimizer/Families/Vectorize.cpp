//===- Vectorize.cpp - vectorize=V: V elements per thread -----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Each thread of a guarded elementwise kernel (`if (g < n) { ... }`, every
// access at [..., g]) handles V consecutive elements with vector loads,
// stores and arithmetic; the grid along x shrinks by V (rounded up, the
// bounds check then covering no more than the original threads). Fewer,
// wider memory instructions move the same bytes.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

/// Makes each thread of `region` handle n consecutive elements: g becomes
/// g*n, every load and store at [..., g] a vector access of n elements, and
/// every scalar operation in the guarded region the same operation on
/// vectors.
static void vectorizeRegion(RewriterBase &rewriter, VectorizableRegion region,
                            int64_t n) {
  Value g = region.globalIndex;
  Location loc = g.getLoc();
  rewriter.setInsertionPointAfterValue(g);
  Value width = arith::ConstantIndexOp::create(rewriter, loc, n);
  Value first = arith::MulIOp::create(rewriter, loc, g, width);
  // n*g < bound holds exactly when all of n*g .. n*g+n-1 are below it, since
  // the bound is a multiple of n.
  rewriter.modifyOpInPlace(region.guard,
                           [&] { region.guard.getLhsMutable().assign(first); });

  Block *body = region.guarded.thenBlock();
  IRMapping vectors;
  auto vectorType = [&](Type scalar) { return VectorType::get({n}, scalar); };
  // A value from outside the region is the same for every element.
  auto vectorOf = [&](Value scalar) -> Value {
    if (Value mapped = vectors.lookupOrNull(scalar))
      return mapped;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(body);
    Value splat = vector::BroadcastOp::create(
        rewriter, scalar.getLoc(), vectorType(scalar.getType()), scalar);
    vectors.map(scalar, splat);
    return splat;
  };
  auto indicesFor = [&](ValueRange indices) {
    SmallVector<Value> result(indices.begin(), indices.end());
    result.back() = first;
    return result;
  };
  auto alignment = [&](Type element) {
    return llvm::MaybeAlign(n * element.getIntOrFloatBitWidth() / 8);
  };
  SmallVector<Operation *> scalarOps;
  for (Operation &op : body->without_terminator())
    scalarOps.push_back(&op);
  for (Operation *op : scalarOps) {
    rewriter.setInsertionPoint(op);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Type element = load.getType();
      Value vector = vector::LoadOp::create(
          rewriter, load.getLoc(), vectorType(element), load.getMemRef(),
          indicesFor(load.getIndices()), /*nontemporal=*/false,
          alignment(element));
      vectors.map(load.getResult(), vector);
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      Type element = store.getValueToStore().getType();
      vector::StoreOp::create(rewriter, store.getLoc(),
                              vectorOf(store.getValueToStore()),
                              store.getMemRef(), indicesFor(store.getIndices()),
                              /*nontemporal=*/false, alignment(element));
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto type = vectorType(constant.getType());
      Value splat = arith::ConstantOp::create(
          rewriter, constant.getLoc(), type,
          DenseElementsAttr::get(type, constant.getValue()));
      vectors.map(constant.getResult(), splat);
      continue;
    }
    // An elementwise operation: the same one, properties included, on
    // vectors.
    for (Value operand : op->getOperands())
      vectorOf(operand);
    Operation *vectorOp = rewriter.clone(*op, vectors);
    rewriter.modifyOpInPlace(vectorOp, [&] {
      for (OpResult result : vectorOp->getResults())
        result.setType(vectorType(result.getType()));
    });
  }
  // Every use of a scalar operation is a later scalar operation of the
  // region, erased before it.
  for (Operation *op : llvm::reverse(scalarOps))
    rewriter.eraseOp(op);
}

namespace {
class VectorizeFamily : public RewriteFamilyWithPlan<VectorizableRegion> {
public:
  StringRef getName() const override { return "vectorize"; }
  StringRef getSummary() const override {
    return "each thread handles V consecutive elements with vector loads, "
           "stores and arithmetic (grid x / V)";
  }
  std::optional<std::string> checkParameter(int64_t n) const override {
    if (n != 2 && n != 4 && n != 8 && n != 16)
      return std::string("the vector width must be 2, 4, 8 or 16");
    return std::nullopt;
  }

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Narrow scalar accesses waste load/store instructions and request
    // slots; one 128-bit access per thread moves the same bytes with fewer.
    // The width follows the narrowest element accessed. Scattered loads call
    // for remapping threads, not for wider loads.
    int64_t width = 16 / evidence.narrowestElementBytes;
    double penalty = evidence.isScattered() ? 3 : 0;
    ranked.push_back({(evidence.memoryBound ? 9.5 : 4) - penalty, width});
    if (width > 2)
      ranked.push_back(
          {(evidence.memoryBound ? 8.5 : 3.5) - penalty, width / 2});
  }

protected:
  FailureOr<VectorizableRegion> matchPlan(const RewriteTarget &target,
                                          int64_t n,
                                          std::string &why) const override {
    if (std::optional<std::string> reason = checkCoarsenable(target)) {
      why = *reason;
      return failure();
    }
    gpu::GPUFuncOp kernel = target.kernel;
    FailureOr<VectorizableRegion> region =
        findVectorizableRegion(kernel, target.launches, n, why);
    if (failed(region))
      return failure();
    // A grid that does not divide is rounded up; the extra threads fail the
    // bounds check, which must then cover no more than the original threads.
    if (checkGridDivisible(target.launches, n)) {
      for (gpu::LaunchFuncOp launch : target.launches) {
        std::optional<int64_t> bound =
            getLaunchValue(region->guard.getRhs(), kernel, launch);
        int64_t threads = *getConstant(launch.getGridSizeX()) *
                          *getConstant(launch.getBlockSizeX());
        if (!bound || *bound > threads) {
          why = "a launch's grid is not a multiple of " + std::to_string(n) +
                " blocks and its bounds check does not stop at its " +
                std::to_string(threads) + " threads";
          return failure();
        }
      }
      for (Operation &op : kernel.getBody().front().without_terminator())
        if (&op != region->guarded.getOperation() && !isMemoryEffectFree(&op)) {
          why = "a launch's grid is not a multiple of " + std::to_string(n) +
                " blocks and '" + op.getName().getStringRef().str() +
                "' outside the bounds check has side effects";
          return failure();
        }
    }
    return region;
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n,
                          VectorizableRegion &region) const override {
    shrinkGridX(rewriter, target.launches, n);
    vectorizeRegion(rewriter, region, n);
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createVectorizeFamily() {
  return std::make_unique<VectorizeFamily>();
}
