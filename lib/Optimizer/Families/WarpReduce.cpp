//===- WarpReduce.cpp - warp-reduce=L: lanes split a reduction loop -------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A thread that reduces a row on its own reads it one element per iteration
// while the other threads of its warp read other rows: every warp request
// touches as many sectors as it has threads, and a few thousand rows leave
// most of the GPU idle. Here L lanes of one warp share each original thread:
// lane l runs iterations l, l+L, ... of the reduction loop from the combining
// operation's neutral element, so consecutive lanes read consecutive
// elements; the L partial results are combined with butterfly shuffles among
// those lanes (nvvm.shfl.sync, with a mask naming just them) and broadcast
// from the first, and the loop's initial value is combined with the total,
// which replaces what the loop returned. The lanes of one original thread
// follow the same control flow up to the loop (nothing before it writes
// memory and the lane number enters only the loop's bounds), and lane 0
// alone performs every write of the kernel, so it does exactly what the
// original thread did; the other lanes only contribute their iterations.
// Where a load of the loop walks its row one element per iteration at
// aligned offsets and the trip count allows, each lane runs chunks of up to
// 128 bits of consecutive iterations instead (chunks l, l+L, ...), their
// loads one vector load: a warp then reads 512 contiguous bytes per request
// and each thread has four times the bytes in flight (the buffers are taken
// to start at 16-byte boundaries, as the vectorize family takes them).
// Integer combinations and floating-point minima and maxima come out exact.
// Floating-point sums and products are reassociated: in another order they
// round differently, by as much as the magnitude of their terms allows (not
// their result), so the rewrite marks the kernel `autoprof.reassociated`,
// and its verification bounds the difference by the terms' magnitude.
//
//===----------------------------------------------------------------------===//

#include "Families.h"
#include "ReductionSplit.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
/// What warp-reduce changes in a kernel.
struct WarpReducePlan {
  ReductionSplit reduction;
  /// How many hardware blocks along x an original block becomes (when its
  /// lanes exceed 1024 threads).
  int64_t split = 1;
};
} // namespace

/// Whether splitting `loop` across lanes makes its loads walk contiguous
/// memory: one of them moves by one element per iteration, and none that
/// moves with the loop is already contiguous across the threads of a block
/// dimension (splitting would scatter it; coalesce serves it better). By the
/// memory-access analysis of the kernel with `block`.
static bool splitCoalesces(MemoryAccessAnalysis &analysis, scf::ForOp loop,
                           std::array<int64_t, 3> block, int64_t step,
                           std::string &why) {
  std::optional<unsigned> iv;
  for (auto [index, atom] : llvm::enumerate(analysis.getAtoms()))
    if (atom.kind == IndexAtomKind::InductionVar &&
        atom.value == loop.getInductionVar())
      iv = index;
  bool unitStride = false;
  for (const MemoryAccess &access : analysis.getAccesses()) {
    if (!access.reads || !loop->isProperAncestor(access.op) || !access.address)
      continue;
    int64_t perIteration = iv ? access.address->coefficientOf(*iv) * step : 0;
    if (perIteration == 1 || perIteration == -1)
      unitStride = true;
    for (int d = 0; d < 3; ++d)
      if (block[d] > 1 && access.threadAffine && perIteration != 0 &&
          std::abs(access.threadStride[d]) == 1) {
        why = std::string("a load of the loop already walks contiguous "
                          "memory across the threads along ") +
              "xyz"[d] + " (splitting the loop would scatter it)";
        return false;
      }
  }
  if (!unitStride) {
    why = "no load of the loop walks contiguous memory from one iteration "
          "to the next";
    return false;
  }
  return true;
}

namespace {
class WarpReduceFamily : public RewriteFamilyWithPlan<WarpReducePlan> {
public:
  WarpReduceFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::WarpReduce) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // A memory-bound reduction, or one with too few threads to fill the
    // GPU (fewer than 2^17), gains from more lanes reading each row.
    bool worth = evidence.memoryBound ||
                 evidence.blockThreads * evidence.gridBlocks < (1 << 17);
    double bonus = remapBonus(evidence);
    ranked.push_back({(worth ? 10.5 : 4.6) + bonus, 32});
    ranked.push_back({(worth ? 10.4 : 4.5) + bonus, 8});
  }

protected:
  FailureOr<WarpReducePlan> matchPlan(const RewriteTarget &target, int64_t n,
                                      std::string &why) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    FailureOr<ReductionSplit> reduction = matchReductionSplit(target, n, why);
    if (failed(reduction))
      return failure();
    WarpReducePlan plan{std::move(*reduction)};
    const ReductionSplit &r = plan.reduction;
    scf::ForOp loop = r.loop;
    int64_t step = *getConstant(loop.getStep());

    // Geometry: each original block of B threads needs B*L hardware threads;
    // beyond 1024 it is split along x into several hardware blocks.
    int64_t lanes = r.block[0] * n * r.block[1] * r.block[2];
    while (lanes / plan.split > 1024)
      plan.split *= 2;
    if (r.block[0] % plan.split != 0) {
      why = "blocks of " + std::to_string(r.block[0]) +
            " threads along x do not split into blocks of at most 1024 "
            "threads with " +
            std::to_string(n) + " lanes each";
      return failure();
    }
    if ((lanes / plan.split) % 32 != 0) {
      why = "blocks of " + std::to_string(lanes / plan.split) +
            " threads would not fill whole warps";
      return failure();
    }
    if (r.grid[0] * plan.split > 2147483647) {
      why = "the new grid would exceed the hardware's limits";
      return failure();
    }
    MemoryAccessAnalysis analysis(kernel, r.block);
    if (!splitCoalesces(analysis, loop, r.block, step, why))
      return failure();
    planChunks(analysis, plan.reduction, n);
    return plan;
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n, WarpReducePlan &plan) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    const ReductionSplit &r = plan.reduction;
    Location loc = kernel.getLoc();
    Block &body = kernel.getBody().front();
    int64_t perBlockX = r.block[0] / plan.split;
    for (gpu::LaunchFuncOp launch : target.launches)
      setLaunchSizes(rewriter, launch, {r.grid[0] * plan.split},
                     {perBlockX * n});

    // The x ids the kernel uses now, before new ones are created.
    SmallVector<Operation *> geometry;
    kernel.walk([&](Operation *op) {
      if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
              gpu::GlobalIdOp>(op) &&
          op->getAttrOfType<gpu::DimensionAttr>("dimension").getValue() ==
              gpu::Dimension::x)
        geometry.push_back(op);
    });
    rewriter.setInsertionPointToStart(&body);
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value hwThread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value hwBlock = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value lanesValue = index(n);
    Value lane = arith::RemUIOp::create(rewriter, loc, hwThread, lanesValue);
    Value thread = arith::DivUIOp::create(rewriter, loc, hwThread, lanesValue);
    Value blockId = hwBlock;
    if (plan.split > 1) {
      Value split = index(plan.split);
      Value part = arith::RemUIOp::create(rewriter, loc, hwBlock, split);
      Value first =
          arith::MulIOp::create(rewriter, loc, part, index(perBlockX));
      thread = arith::AddIOp::create(rewriter, loc, first, thread);
      blockId = arith::DivUIOp::create(rewriter, loc, hwBlock, split);
    }
    Value isFirstLane = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, lane, index(0));
    for (Operation *op : geometry) {
      rewriter.setInsertionPoint(op);
      Value replacement;
      if (isa<gpu::ThreadIdOp>(op))
        replacement = thread;
      else if (isa<gpu::BlockIdOp>(op))
        replacement = blockId;
      else if (isa<gpu::BlockDimOp>(op))
        replacement = index(r.block[0]);
      else if (isa<gpu::GridDimOp>(op))
        replacement = index(r.grid[0]);
      else
        replacement = arith::AddIOp::create(
            rewriter, op->getLoc(),
            arith::MulIOp::create(rewriter, op->getLoc(), blockId,
                                  index(r.block[0])),
            thread);
      rewriter.replaceOp(op, replacement);
    }

    // Lane l runs iterations l, l+L, ... from the neutral elements.
    rewriter.setInsertionPoint(r.loop);
    SplitLoop split = splitReductionLoop(rewriter, r, lane, lanesValue);

    // The lanes of one original thread are L consecutive lanes of a warp,
    // starting at a multiple of L: the shuffles name just them.
    rewriter.setInsertionPointAfter(r.loop);
    Type i32 = rewriter.getI32Type();
    auto i32Constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, i32, value);
    };
    auto [firstLane, mask] = buildLaneGroup(rewriter, loc, n);
    Value clamp = i32Constant(31);
    SmallVector<Value> totals;
    for (auto [result, combiner, init] : llvm::zip(
             plan.reduction.loop.getResults(), r.combiners, split.initial)) {
      Value partial = result;
      for (int64_t distance = n / 2; distance >= 1; distance /= 2) {
        Value other = NVVM::ShflOp::create(
            rewriter, loc, partial.getType(), mask, partial,
            i32Constant(distance), clamp, NVVM::ShflKind::bfly, UnitAttr());
        partial = combinePartials(rewriter, combiner, partial, other);
      }
      // Every lane takes the first lane's total, bit for bit.
      partial = NVVM::ShflOp::create(rewriter, loc, partial.getType(), mask,
                                     partial, firstLane, clamp,
                                     NVVM::ShflKind::idx, UnitAttr());
      totals.push_back(combinePartials(rewriter, combiner, init, partial));
    }
    finishReductionSplit(rewriter, kernel, r, split, totals, isFirstLane);
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createWarpReduceFamily() {
  return std::make_unique<WarpReduceFamily>();
}
