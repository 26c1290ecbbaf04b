//===- BlockReduce.cpp - block-reduce=S: rows of threads split a reduction ===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A thread that reduces a column on its own (y[j] += x[k] * A[k][j], the
// threads along x reading consecutive elements of each row) has coalesced
// loads, but a few thousand columns are a few thousand threads: most of the
// GPU idles while each of them walks a long loop. Here S threads along y
// share each original thread: thread (x, s) runs iterations s, s+S, ... of
// the reduction loop from the combining operation's neutral element; the S
// partial results meet in shared memory, and after a barrier each thread
// combines them in order and with the loop's initial value. The thread with
// s = 0 alone writes. As for warp-reduce (ReductionSplit.h), the S threads
// of one original thread take the same path to the combination and the
// others have no observable effect; the barrier needs, besides, that every
// thread of a block reaches it, so no condition around the loop may differ
// between the threads of a block. Where the block's B threads along x
// times S would exceed 1024 threads, the new blocks hold the largest
// divisor C of B with C * S <= 1024 original threads along x (at least
// 32: a warp of columns) and the grid along x grows by B / C; the kernel's
// x ids become those of the original launch, recomputed from the global
// index (the remap conditions of ReductionSplit.h hold, so no thread
// depended on which others shared its block).
//
//===----------------------------------------------------------------------===//

#include "Families.h"
#include "ReductionSplit.h"

#include "../RewriteAnalysis.h"
#include "../ThreadRemap.h"

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
struct BlockReducePlan {
  ReductionSplit split;
  /// Original threads along x per new block: the original block's size
  /// along x, or a divisor of it where that times S exceeds 1024.
  int64_t columns = 1;
};

class BlockReduceFamily : public RewriteFamilyWithPlan<BlockReducePlan> {
public:
  BlockReduceFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::BlockReduce) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // S threads per column: the fewest that give the GPU's resident thread
    // slots 90% of a thread each come first (each doubling of S adds a
    // level of combining through shared memory), then the larger ones,
    // then the smaller ones, largest first. On an H200 (132 SMs of 2048
    // threads) a column reduction over 16384 columns ran at 82 us with
    // S = 8 (half the slots), 67 us with S = 16, 70 us with S = 32
    // (docs/results/optimize-upstream-h200.md, "Column reductions").
    double columns = evidence.blockThreads * evidence.gridBlocks;
    double slots = evidence.getResidentThreadSlots();
    auto fill = [&](int64_t s) { return columns * double(s) / slots; };
    // Worth it where the columns alone leave resident slots empty: more
    // threads per column fill them and keep more loads in flight.
    bool worth = fill(1) < 1;
    SmallVector<int64_t> order;
    for (int64_t s : {4, 8, 16, 32})
      if (fill(s) >= 0.9)
        order.push_back(s);
    for (int64_t s : {32, 16, 8, 4})
      if (fill(s) < 0.9)
        order.push_back(s);
    for (auto [position, s] : llvm::enumerate(order)) {
      std::string why = llvm::formatv(
          "{0:F0} threads fill {1:F2} of {2:F0} resident thread slots{3}",
          columns * double(s), fill(s), slots,
          evidence.describeMultiprocessors());
      ranked.push_back(
          {(worth ? 10.3 : 4.4) - 0.1 * double(position), s, why});
    }
  }

protected:
  FailureOr<BlockReducePlan> matchPlan(const RewriteTarget &target, int64_t n,
                                       std::string &why) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    FailureOr<ReductionSplit> split = matchReductionSplit(target, n, why);
    if (failed(split))
      return failure();
    std::array<int64_t, 3> block = split->block;
    if (block[1] != 1 || block[2] != 1) {
      why = "the launches' blocks are not one-dimensional along x";
      return failure();
    }
    // Columns per block: all of the block's, or the largest divisor of
    // them that leaves n threads along y each within 1024 threads.
    int64_t columns = std::min<int64_t>(block[0], 1024 / n);
    while (block[0] % columns != 0)
      --columns;
    if (columns < std::min<int64_t>(block[0], 32)) {
      why = "blocks of " + std::to_string(block[0]) + " threads with " +
            std::to_string(n) +
            " along y each would exceed 1024 threads, and no divisor of " +
            std::to_string(block[0]) + " of at least 32 leaves them within";
      return failure();
    }
    std::optional<int64_t> gridX =
        llvm::checkedMul(split->grid[0], block[0] / columns);
    if (!gridX || *gridX > std::numeric_limits<int32_t>::max()) {
      why = "the new grid would exceed the hardware's limits";
      return failure();
    }
    int64_t sharedBytes =
        static_cast<int64_t>(split->combiners.size()) * columns * n * 4;
    if (sharedBytes > target.gpu->staticSharedPerBlock) {
      why = "the partial results would not fit in " +
            std::to_string(target.gpu->staticSharedPerBlock / 1024) +
            " KiB of shared memory";
      return failure();
    }
    // Every thread of a block reaches the barrier.
    for (Operation *parent = split->loop->getParentOp(); parent != kernel;
         parent = parent->getParentOp())
      if (auto ifOp = dyn_cast<scf::IfOp>(parent);
          ifOp && mayDifferInBlock(ifOp.getCondition())) {
        why = "the loop is under a condition that the threads of a block "
              "may not share (they must all reach the barrier)";
        return failure();
      }
    // The loop's loads are contiguous across the threads along x already:
    // more threads per column keep them coalesced.
    MemoryAccessAnalysis analysis(kernel, block);
    bool coalesced = false;
    for (const MemoryAccess &access : analysis.getAccesses()) {
      if (!access.reads || !split->loop->isProperAncestor(access.op) ||
          !access.threadAffine)
        continue;
      auto it = llvm::find(access.loops, split->loop);
      bool varies = it != access.loops.end() &&
                    access.loopVariant[std::distance(access.loops.begin(), it)];
      if (varies && block[0] > 1 &&
          (access.threadStride[0] == 1 || access.threadStride[0] == -1))
        coalesced = true;
    }
    if (!coalesced) {
      why = "no load of the loop is contiguous across the threads along x "
            "(warp-reduce serves a loop that walks contiguous memory "
            "itself)";
      return failure();
    }
    return BlockReducePlan{std::move(*split), columns};
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n,
                          BlockReducePlan &blockPlan) const override {
    ReductionSplit &plan = blockPlan.split;
    int64_t columns = blockPlan.columns;
    bool shrinks = columns != plan.block[0];
    gpu::GPUFuncOp kernel = target.kernel;
    Location loc = kernel.getLoc();
    Block &body = kernel.getBody().front();
    for (gpu::LaunchFuncOp launch : target.launches)
      setLaunchSizes(rewriter, launch,
                     {shrinks ? std::optional<int64_t>(plan.grid[0] *
                                                       plan.block[0] / columns)
                              : std::nullopt},
                     {shrinks ? std::optional<int64_t>(columns) : std::nullopt,
                      n, std::nullopt});

    // The y ids the kernel uses now, before new ones are created: with
    // blocks of one thread along y, the thread id is 0, the block size 1 and
    // the global id the block id. The x ids, where the blocks shrink along
    // x, become those of the original launch.
    SmallVector<Operation *> geometry, geometryX;
    kernel.walk([&](Operation *op) {
      if (!isGeometryOp(op))
        return;
      gpu::Dimension dim =
          op->getAttrOfType<gpu::DimensionAttr>("dimension").getValue();
      if (dim == gpu::Dimension::y &&
          isa<gpu::ThreadIdOp, gpu::BlockDimOp, gpu::GlobalIdOp>(op))
        geometry.push_back(op);
      else if (dim == gpu::Dimension::x && shrinks)
        geometryX.push_back(op);
    });
    rewriter.setInsertionPointToStart(&body);
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::y);
    Value column = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    if (shrinks) {
      Value blockX = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
      Value globalX = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, blockX, index(columns)), column);
      IRMapping mapping;
      mapGeometry(rewriter, loc, geometryX, {globalX, Value(), Value()},
                  plan.grid, plan.block, mapping);
      for (Operation *op : geometryX)
        rewriter.replaceOp(op, mapping.lookup(op->getResult(0)));
    }
    Value lanesValue = index(n);
    Value isFirstLane = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, lane, index(0));
    for (Operation *op : geometry) {
      rewriter.setInsertionPoint(op);
      Value replacement;
      if (isa<gpu::ThreadIdOp>(op))
        replacement = index(0);
      else if (isa<gpu::BlockDimOp>(op))
        replacement = index(1);
      else
        replacement =
            gpu::BlockIdOp::create(rewriter, op->getLoc(), gpu::Dimension::y);
      rewriter.replaceOp(op, replacement);
    }

    rewriter.setInsertionPoint(plan.loop);
    SplitLoop split = splitReductionLoop(rewriter, plan, lane, lanesValue);

    // Partial results to shared memory, a barrier, then each thread
    // combines its column's partial results in order.
    rewriter.setInsertionPointAfter(plan.loop);
    MLIRContext *context = kernel.getContext();
    SmallVector<Value> buffers;
    for (Value partial : plan.loop.getResults()) {
      auto type = MemRefType::get(
          {n, columns}, partial.getType(), MemRefLayoutAttrInterface(),
          gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
      Value buffer = kernel.addWorkgroupAttribution(type, loc);
      memref::StoreOp::create(rewriter, loc, partial, buffer,
                              ValueRange{lane, column});
      buffers.push_back(buffer);
    }
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> totals;
    for (auto [buffer, combiner, init] :
         llvm::zip(buffers, plan.combiners, split.initial)) {
      Value total = memref::LoadOp::create(rewriter, loc, buffer,
                                           ValueRange{index(0), column});
      for (int64_t s = 1; s < n; ++s)
        total = combinePartials(
            rewriter, combiner, total,
            memref::LoadOp::create(rewriter, loc, buffer,
                                   ValueRange{index(s), column}));
      totals.push_back(combinePartials(rewriter, combiner, init, total));
    }
    finishReductionSplit(rewriter, kernel, plan, split, totals, isFirstLane);
    if (shrinks)
      simplifyRecombinedIndices(kernel);
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createBlockReduceFamily() {
  return std::make_unique<BlockReduceFamily>();
}
