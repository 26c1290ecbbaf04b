//===- TransposeTile.cpp - transpose-tile=T: transpose through shared memory
//===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel that copies each element from where one thread dimension walks
// the input's contiguous memory to where another walks the output's can
// coalesce one side only: whichever dimension x runs along, the other
// access strides through memory. This family stages a T x T tile of the two
// dimensions' global indices in shared memory (padded by one element per row
// against bank conflicts): each block of T x 8 threads first loads the tile
// with consecutive lanes at consecutive input elements, then, after a
// barrier, stores it with consecutive lanes at consecutive output elements.
// Each of the 8 rows of threads handles T/8 rows of the tile. The remaining
// dimension runs along z.
//
// The kernel's own code stays what computes the addresses and the value: it
// is copied into each phase with the original thread, block and size ids
// recomputed, as a thread remap does (ThreadRemap.h), from the global index
// of the element the phase handles; the load's copy in the store phase reads
// the tile instead. Edges of non-dividing sizes are guarded, the barrier is
// not.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
/// What transpose-tile changes in a kernel.
struct TransposePlan {
  memref::LoadOp load;
  memref::StoreOp store;
  /// The original dimensions along which consecutive global indices walk
  /// the load's and the store's contiguous memory, and the third one.
  int loadDim = 0, storeDim = 1, otherDim = 2;
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
};

/// Rows of threads in a block; each handles T / kRows rows of the tile.
constexpr int64_t kRows = 8;
} // namespace

/// Elements between the addresses of consecutive global indices along each
/// dimension, when the address is affine in the global indices (block id *
/// block size + thread id); nothing otherwise.
static std::optional<std::array<int64_t, 3>>
getGlobalStrides(const MemoryAccess &access, std::array<int64_t, 3> grid,
                 std::array<int64_t, 3> block) {
  if (!access.address || !access.threadAffine)
    return std::nullopt;
  std::array<int64_t, 3> strides;
  for (int d = 0; d < 3; ++d) {
    int64_t thread = access.threadStride[d],
            blockStride = access.blockStride[d];
    if (block[d] > 1 && grid[d] > 1 && blockStride != thread * block[d])
      return std::nullopt;
    strides[d] = block[d] > 1 ? thread : blockStride;
  }
  return strides;
}

/// The one dimension (with more than one global index) whose consecutive
/// indices walk contiguous memory, or -1.
static int getContiguousDim(std::array<int64_t, 3> strides,
                            std::array<int64_t, 3> totals) {
  int found = -1;
  for (int d = 0; d < 3; ++d)
    if (totals[d] > 1 && (strides[d] == 1 || strides[d] == -1)) {
      if (found >= 0)
        return -1;
      found = d;
    }
  return found;
}

namespace {
class TransposeTileFamily : public RewriteFamilyWithPlan<TransposePlan> {
public:
  TransposeTileFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::TransposeTile) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Both sides coalesced at once: ahead of the remaps, which fix one.
    ranked.push_back({evidence.memoryBound ? 12.5 : 6, 32});
    ranked.push_back({evidence.memoryBound ? 12.4 : 5.9, 16});
  }

protected:
  FailureOr<TransposePlan> matchPlan(const RewriteTarget &target, int64_t t,
                                     std::string &why) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    TransposePlan plan;
    if (std::optional<std::string> reason =
            checkRemappable(kernel, target.launches, plan.grid, plan.block)) {
      why = *reason;
      return failure();
    }
    for (Operation &op : kernel.getBody().front().without_terminator()) {
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        if (plan.load) {
          why = "the kernel loads more than once";
          return failure();
        }
        plan.load = load;
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        if (plan.store) {
          why = "the kernel stores more than once";
          return failure();
        }
        plan.store = store;
        continue;
      }
      if (isGeometryOp(&op) ||
          (op.getNumRegions() == 0 && isMemoryEffectFree(&op)))
        continue;
      why = "the body is not straight-line code of one load, one store and "
            "side-effect-free operations ('" +
            op.getName().getStringRef().str() + "')";
      return failure();
    }
    if (!plan.load || !plan.store) {
      why = "the kernel does not load and store one element each";
      return failure();
    }
    if (plan.load->isBeforeInBlock(plan.store) == false) {
      why = "the store comes before the load";
      return failure();
    }

    MemoryAccessAnalysis analysis(kernel, plan.block);
    std::optional<std::array<int64_t, 3>> loadStrides, storeStrides;
    for (const MemoryAccess &access : analysis.getAccesses()) {
      if (access.op == plan.load)
        loadStrides = getGlobalStrides(access, plan.grid, plan.block);
      else if (access.op == plan.store)
        storeStrides = getGlobalStrides(access, plan.grid, plan.block);
    }
    if (!loadStrides || !storeStrides) {
      why = "the analysis does not express both addresses as affine forms "
            "of the global indices";
      return failure();
    }
    std::array<int64_t, 3> totals;
    for (int d = 0; d < 3; ++d)
      totals[d] = plan.grid[d] * plan.block[d];
    plan.loadDim = getContiguousDim(*loadStrides, totals);
    plan.storeDim = getContiguousDim(*storeStrides, totals);
    if (plan.loadDim < 0 || plan.storeDim < 0) {
      why = "no single thread dimension walks the contiguous memory of both "
            "the load and the store";
      return failure();
    }
    if (plan.loadDim == plan.storeDim) {
      why = "the load and the store walk contiguous memory along the same "
            "thread dimension (no transposition)";
      return failure();
    }
    plan.otherDim = 3 - plan.loadDim - plan.storeDim;
    if (totals[plan.loadDim] < t || totals[plan.storeDim] < t) {
      why = "the transposed dimensions are smaller than a tile of " +
            std::to_string(t);
      return failure();
    }
    if (totals[plan.otherDim] > 65535 ||
        (totals[plan.storeDim] + t - 1) / t > 65535 ||
        (totals[plan.loadDim] + t - 1) / t > 2147483647) {
      why = "the new grid would exceed the hardware's limits";
      return failure();
    }
    return plan;
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t t, TransposePlan &plan) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    Location loc = kernel.getLoc();
    MLIRContext *context = kernel.getContext();
    std::array<int64_t, 3> totals;
    for (int d = 0; d < 3; ++d)
      totals[d] = plan.grid[d] * plan.block[d];
    int p = plan.loadDim, q = plan.storeDim, r = plan.otherDim;
    for (gpu::LaunchFuncOp launch : target.launches)
      setLaunchSizes(
          rewriter, launch,
          {(totals[p] + t - 1) / t, (totals[q] + t - 1) / t, totals[r]},
          {t, kRows, 1});

    Type element = plan.load.getResult().getType();
    auto tileType = MemRefType::get(
        {t, t + 1}, element, MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
    Value tile = kernel.addWorkgroupAttribution(tileType, loc);

    Block &body = kernel.getBody().front();
    SmallVector<Operation *> original;
    for (Operation &op : body.without_terminator())
      original.push_back(&op);
    SmallVector<Operation *> geometry =
        llvm::filter_to_vector(original, isGeometryOp);

    rewriter.setInsertionPointToStart(&body);
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value row = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::y);
    Value tileP = arith::MulIOp::create(
        rewriter, loc, gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x),
        index(t));
    Value tileQ = arith::MulIOp::create(
        rewriter, loc, gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::y),
        index(t));
    Value third = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::z);

    // Maps the original ids to those of the thread with global indices
    // `global` (one per original dimension), and guards the elements past
    // the problem's edge; the caller's code goes in the returned block.
    auto enter = [&](std::array<Value, 3> global, IRMapping &mapping) {
      mapGeometry(rewriter, loc, geometry, global, plan.grid, plan.block,
                  mapping);
      Value guard;
      for (int d : {p, q}) {
        if (totals[d] % t == 0)
          continue;
        Value inside =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  global[d], index(totals[d]));
        guard = guard ? arith::AndIOp::create(rewriter, loc, guard, inside)
                            .getResult()
                      : inside;
      }
      if (guard) {
        auto ifOp = scf::IfOp::create(rewriter, loc, guard,
                                      /*withElseRegion=*/false);
        rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      }
    };
    auto cloneSlice = [&](Operation *target, Operation *stop,
                          IRMapping &mapping) {
      for (Operation *op : getGeometrySlice(target, stop))
        rewriter.clone(*op, mapping);
    };

    // The element thread (lane, row) handles in `step` of a phase: in the
    // load phase the lanes run along the load's contiguous dimension, in
    // the store phase along the store's; its code goes where this leaves the
    // rewriter. Returns the element's row of the tile's rows of threads.
    auto enterPhase = [&](int64_t step, bool loading, IRMapping &mapping) {
      Value tileRow =
          arith::AddIOp::create(rewriter, loc, row, index(step * kRows));
      std::array<Value, 3> global;
      global[p] =
          arith::AddIOp::create(rewriter, loc, tileP, loading ? lane : tileRow);
      global[q] =
          arith::AddIOp::create(rewriter, loc, tileQ, loading ? tileRow : lane);
      global[r] = third;
      enter(global, mapping);
      return tileRow;
    };
    for (int64_t step = 0; step < t / kRows; ++step) {
      OpBuilder::InsertionGuard guard(rewriter);
      IRMapping mapping;
      Value tileRow = enterPhase(step, /*loading=*/true, mapping);
      cloneSlice(plan.load, nullptr, mapping);
      Operation *loaded = rewriter.clone(*plan.load, mapping);
      memref::StoreOp::create(rewriter, loc, loaded->getResult(0), tile,
                              ValueRange{tileRow, lane});
    }
    gpu::BarrierOp::create(rewriter, loc);
    // The element the original thread loaded comes from the tile.
    for (int64_t step = 0; step < t / kRows; ++step) {
      OpBuilder::InsertionGuard guard(rewriter);
      IRMapping mapping;
      Value tileRow = enterPhase(step, /*loading=*/false, mapping);
      Value staged = memref::LoadOp::create(rewriter, loc, tile,
                                            ValueRange{lane, tileRow});
      mapping.map(plan.load.getResult(), staged);
      cloneSlice(plan.store, plan.load, mapping);
      rewriter.clone(*plan.store, mapping);
    }
    for (Operation *op : llvm::reverse(original))
      rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createTransposeTileFamily() {
  return std::make_unique<TransposeTileFamily>();
}
