//===- CoarsenRows.cpp - coarsen-rows=R: R neighbouring rows per thread ---===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Each thread does the work of R threads that are neighbours along y (or
// z): the grid along that dimension shrinks by R, and the thread runs the
// original threads of global indices g*R .. g*R+R-1 there, their loops
// unrolled and jammed into one. Where neighbouring threads read
// overlapping windows (the rows of a stencil, a convolution or a pooling
// window), the jammed body loads each shared element once for all R rows,
// and the block's halo shrinks relative to its outputs.
//
// Where windows slide along x alone (a 1-D convolution), the R threads are
// neighbours in memory: the window loops are unrolled as well, and the
// elements the R windows read, as the R outputs, become aligned vector
// loads and stores (mergeNeighbouringAccesses).
//
// Legal for kernels whose threads do not cooperate (checkRemappable): a
// thread running R original threads one interleaving of their operations
// after another is one of the schedules the original launch allows. Every
// id along the dimension is replaced by the original thread's (quotient
// and remainder of its global index by the unchanged block size), so uses
// of the geometry through constants stay true.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"
#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
struct CoarsenRowsPlan {
  gpu::Dimension dim = gpu::Dimension::y;
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
};

/// Whether `op` is a thread, block or global id along `dim`.
bool isIdAlong(Operation *op, gpu::Dimension dim) {
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return id.getDimension() == dim;
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    return id.getDimension() == dim;
  if (auto id = dyn_cast<gpu::GlobalIdOp>(op))
    return id.getDimension() == dim;
  return false;
}

/// Whether `op` is, or holds, an id along `dim`.
bool involvesIdAlong(Operation *op, gpu::Dimension dim) {
  bool found = false;
  op->walk([&](Operation *nested) {
    found |= isIdAlong(nested, dim);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Where the loops over the R original threads go: the first operation of
/// a block from which on every operation runs once per original thread.
/// Operations before it involve no id along `dim` and write nothing, so
/// running them once for all R is the same. An scf.if without results that
/// is all that follows, on a condition computed before it, is entered: the
/// loop goes into each of its branches, around the loops the branches hold.
LogicalResult findLoopSites(Block &block, gpu::Dimension dim,
                            SmallVectorImpl<Operation *> &sites,
                            std::string &why) {
  Operation *first = nullptr;
  for (Operation &op : block.without_terminator()) {
    if (involvesIdAlong(&op, dim)) {
      first = &op;
      break;
    }
    if (mayWriteMemory(&op)) {
      why = "'" + op.getName().getStringRef().str() +
            "' writes memory before the thread's index along the coarsened "
            "dimension is known";
      return failure();
    }
  }
  if (!first)
    return success();
  if (first->getNextNode() == block.getTerminator())
    if (auto branch = dyn_cast<scf::IfOp>(first);
        branch && branch->getNumResults() == 0) {
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty() &&
            failed(findLoopSites(region->front(), dim, sites, why)))
          return failure();
      return success();
    }
  sites.push_back(first);
  return success();
}

/// Whether every scf.for inside `loop` is nested only in scf.for loops
/// below it: upstream's unroll-and-jam widens each inner loop's iteration
/// arguments and would not follow a loop inside a branch it copies whole.
bool isJammable(scf::ForOp loop) {
  bool ok = true;
  loop.getBody()->walk([&](scf::ForOp inner) {
    for (Operation *parent = inner->getParentOp(); parent != loop;
         parent = parent->getParentOp())
      ok &= isa<scf::ForOp>(parent);
  });
  return ok;
}

/// The longest window loop along x that is unrolled.
constexpr int64_t kMaxUnrolledWindow = 32;

/// Whether `loop` is a window loop vectorizeWindows unrolls: innermost, of
/// at most kMaxUnrolledWindow iterations.
bool isUnrollableWindow(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  bool nested = loop.getBody()
                    ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
                    .wasInterrupted();
  return trips && trips->getZExtValue() <= kMaxUnrolledWindow && !nested;
}

/// Along x the R original threads of a thread are neighbours in memory:
/// after jamming, a window loop reads the R windows' elements at
/// consecutive addresses, one iteration's a step from the last's. Each
/// such loop (innermost, of at most kMaxUnrolledWindow iterations) is
/// unrolled, so that the elements the windows share are loaded once and
/// the neighbours merge into aligned vector loads, as the R outputs merge
/// into vector stores.
void vectorizeWindows(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                      std::array<int64_t, 3> block) {
  llvm::SetVector<scf::ForOp> windows;
  {
    MemoryAccessAnalysis analysis(kernel, block);
    for (const MemoryAccess &access : analysis.getAccesses()) {
      if (!access.reads || access.writes || access.shared || !access.address ||
          (access.threadStride[0] == 0 && access.blockStride[0] == 0))
        continue;
      for (auto [constLoop, variant] :
           llvm::zip(access.loops, access.loopVariant)) {
        scf::ForOp loop = constLoop;
        if (!variant || !isUnrollableWindow(loop))
          continue;
        for (auto [atom, coefficient] : access.address->terms)
          if (analysis.getAtoms()[atom].value == loop.getInductionVar() &&
              std::abs(coefficient) == 1)
            windows.insert(loop);
      }
    }
  }
  for (scf::ForOp loop : windows)
    (void)loopUnrollFull(loop);
  simplifyRecombinedIndices(kernel);
  // The copies' ids and equal loads become one, so that their indices are
  // one affine form plus constants.
  DominanceInfo dominance(kernel);
  eliminateCommonSubExpressions(rewriter, dominance, kernel);
  mergeNeighbouringAccesses(rewriter, kernel, block);
}

class CoarsenRowsFamily : public RewriteFamilyWithPlan<CoarsenRowsPlan> {
public:
  CoarsenRowsFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::CoarsenRows) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Neighbouring threads read overlapping windows: a thread that computes
    // several of them loads the shared rows once, into registers instead of
    // through L1 again (a coalesced 3x3 convolution with its accumulator in
    // a register had L1 and L2 near 75% busy on an H200 and DRAM at half
    // its bandwidth; with 4 rows per thread it ran 52.6 us instead of 74.0,
    // where staging the window in shared memory ran 124.7). After the
    // remaps and register accumulation, which it needs (an accumulator
    // stored every iteration keeps the loads apart); before halo-tile.
    if (std::max(evidence.windowShare, evidence.windowShareX) < 0.3)
      return;
    ranked.push_back({evidence.memoryBound ? 9.75 : 5.6, 4});
    ranked.push_back({evidence.memoryBound ? 8.5 : 4.4, 2});
  }

protected:
  FailureOr<CoarsenRowsPlan> matchPlan(const RewriteTarget &target, int64_t n,
                                       std::string &why) const override {
    CoarsenRowsPlan plan;
    if (std::optional<std::string> reason = checkRemappable(
            target.kernel, target.launches, plan.grid, plan.block)) {
      why = *reason;
      return failure();
    }
    MemoryAccessAnalysis analysis(target.kernel, plan.block);
    double y = analysis.getWindowShare(gpu::Dimension::y);
    double z = analysis.getWindowShare(gpu::Dimension::z);
    double x = analysis.getWindowShare(gpu::Dimension::x);
    if (y == 0 && z == 0 && x == 0) {
      why = "no load reads a window that overlaps the windows of "
            "neighbouring threads";
      return failure();
    }
    plan.dim = y == 0 && z == 0 ? gpu::Dimension::x
               : z > y          ? gpu::Dimension::z
                                : gpu::Dimension::y;
    // Along x the copies' loads merge only where the window loop is
    // unrolled and writes nothing (a version of it, where the kernel is
    // versioned on aliasing).
    if (plan.dim == gpu::Dimension::x) {
      bool unrollable = false, writeFree = false;
      for (const MemoryAccess &access : analysis.getAccesses()) {
        scf::ForOp loop = analysis.getSlidingLoop(access, plan.dim);
        if (!loop || !isUnrollableWindow(loop))
          continue;
        unrollable = true;
        writeFree |= !mayWriteMemory(loop);
      }
      if (!unrollable) {
        why = "no window loop along x is an innermost loop of at most " +
              std::to_string(kMaxUnrolledWindow) +
              " iterations, which the neighbours' loads need to merge";
        return failure();
      }
      if (!writeFree) {
        why = "every window loop along x writes memory in its iterations, "
              "so that the neighbours' loads could not merge (an "
              "accumulator kept in memory: register-accumulate first)";
        return failure();
      }
    }
    int d = static_cast<int>(plan.dim);
    if (plan.grid[d] % n != 0) {
      why = "the grid along " + std::string(1, "xyz"[d]) + " (" +
            std::to_string(plan.grid[d]) + " blocks) is not a multiple of " +
            std::to_string(n);
      return failure();
    }
    gpu::GPUFuncOp kernel = target.kernel;
    SmallVector<Operation *> sites;
    if (failed(findLoopSites(kernel.getBody().front(), plan.dim, sites, why)))
      return failure();
    if (sites.empty()) {
      why = "the kernel does not use its index along the coarsened dimension";
      return failure();
    }
    return plan;
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n, CoarsenRowsPlan &plan) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    gpu::Dimension dim = plan.dim;
    int d = static_cast<int>(dim);
    int64_t blockSize = plan.block[d];
    // The sizes along the dimension are the original launch's: the grid's
    // shrinks, the block's stays (a constant, for the index arithmetic to
    // fold).
    SmallVector<std::pair<Operation *, int64_t>> sizes;
    kernel.walk([&](Operation *op) {
      if (auto size = dyn_cast<gpu::GridDimOp>(op);
          size && size.getDimension() == dim)
        sizes.push_back({op, plan.grid[d]});
      if (auto size = dyn_cast<gpu::BlockDimOp>(op);
          size && size.getDimension() == dim)
        sizes.push_back({op, blockSize});
    });
    for (auto [size, value] : sizes) {
      rewriter.setInsertionPoint(size);
      rewriter.replaceOp(size, arith::ConstantIndexOp::create(
                                   rewriter, size->getLoc(), value));
    }

    SmallVector<Operation *> sites;
    std::string why;
    if (failed(findLoopSites(kernel.getBody().front(), dim, sites, why)))
      return kernel.emitError("coarsen-rows: ") << why;
    SmallVector<scf::ForOp> loops;
    for (Operation *site : sites) {
      Block *block = site->getBlock();
      Location loc = site->getLoc();
      rewriter.setInsertionPoint(site);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value rows = arith::ConstantIndexOp::create(rewriter, loc, n);
      auto loop = scf::ForOp::create(rewriter, loc, zero, rows, one);
      Operation *yield = loop.getBody()->getTerminator();
      for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
               site->getIterator(), block->getTerminator()->getIterator())))
        rewriter.moveOpBefore(&op, yield);
      // The ids the body uses now are those of the original threads.
      SmallVector<Operation *> ids;
      loop.getBody()->walk([&](Operation *op) {
        if (isIdAlong(op, dim))
          ids.push_back(op);
      });
      rewriter.setInsertionPointToStart(loop.getBody());
      Value blockId = gpu::BlockIdOp::create(rewriter, loc, dim);
      Value global = blockId;
      if (blockSize > 1) {
        Value threadId = gpu::ThreadIdOp::create(rewriter, loc, dim);
        Value size = arith::ConstantIndexOp::create(rewriter, loc, blockSize);
        Value first = arith::MulIOp::create(rewriter, loc, blockId, size);
        global = arith::AddIOp::create(rewriter, loc, first, threadId);
      }
      Value scaled = arith::MulIOp::create(rewriter, loc, global, rows);
      Value original =
          arith::AddIOp::create(rewriter, loc, scaled, loop.getInductionVar());
      Value originalThread, originalBlock;
      if (blockSize > 1) {
        Value size = arith::ConstantIndexOp::create(rewriter, loc, blockSize);
        originalThread = arith::RemUIOp::create(rewriter, loc, original, size);
        originalBlock = arith::DivUIOp::create(rewriter, loc, original, size);
      } else {
        originalThread = arith::ConstantIndexOp::create(rewriter, loc, 0);
        originalBlock = original;
      }
      for (Operation *id : ids) {
        Value replacement = isa<gpu::ThreadIdOp>(id)  ? originalThread
                            : isa<gpu::BlockIdOp>(id) ? originalBlock
                                                      : original;
        rewriter.replaceOp(id, replacement);
      }
      loops.push_back(loop);
    }
    for (gpu::LaunchFuncOp launch : target.launches) {
      std::array<std::optional<int64_t>, 3> grid;
      grid[d] = plan.grid[d] / n;
      setLaunchSizes(rewriter, launch, grid, {});
    }
    simplifyRecombinedIndices(kernel);

    for (scf::ForOp loop : loops) {
      // Constants move out, so that the inner loops' bounds are defined
      // outside the loop being jammed.
      SmallVector<Operation *> constants;
      loop.getBody()->walk([&](Operation *op) {
        if (op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
            matchPattern(op, m_Constant()))
          constants.push_back(op);
      });
      for (Operation *constant : constants)
        rewriter.moveOpBefore(constant, loop);
      if (isJammable(loop) && succeeded(loopUnrollJamByFactor(loop, n)))
        continue;
      if (failed(loopUnrollFull(loop)))
        return kernel.emitError("coarsen-rows: unrolling the loop over the ")
               << n << " rows of @" << kernel.getName() << " failed";
    }
    // The copies' index arithmetic folds (j + 1 over a loop promoted at
    // j = 0, ...).
    simplifyRecombinedIndices(kernel);
    if (dim == gpu::Dimension::x)
      vectorizeWindows(rewriter, kernel, plan.block);
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createCoarsenRowsFamily() {
  return std::make_unique<CoarsenRowsFamily>();
}
