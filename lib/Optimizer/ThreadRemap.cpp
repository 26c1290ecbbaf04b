//===- ThreadRemap.cpp - Give a kernel a new thread geometry --------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "ThreadRemap.h"

#include "RewriteAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace {
/// (g mod C) + (g div C) * C -> g: an original id recombined into the
/// global index it came from, so that later analyses see the index again.
struct FoldRecombinedIndex : OpRewritePattern<arith::AddIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddIOp add,
                                PatternRewriter &rewriter) const override {
    for (auto [remValue, mulValue] : {std::pair(add.getLhs(), add.getRhs()),
                                      std::pair(add.getRhs(), add.getLhs())}) {
      auto rem = remValue.getDefiningOp<arith::RemUIOp>();
      auto mul = mulValue.getDefiningOp<arith::MulIOp>();
      if (!rem || !mul)
        continue;
      APInt size;
      if (!matchPattern(rem.getRhs(), m_ConstantInt(&size)))
        continue;
      // x mod n + (x div n) * n = x: the divisor and the factor must both
      // be the remainder's n (x mod 8 + (x div 16) * 8 is not x).
      for (auto [divValue, factor] : {std::pair(mul.getLhs(), mul.getRhs()),
                                      std::pair(mul.getRhs(), mul.getLhs())}) {
        auto div = divValue.getDefiningOp<arith::DivUIOp>();
        APInt divisor, scale;
        if (div && div.getLhs() == rem.getLhs() &&
            matchPattern(div.getRhs(), m_ConstantInt(&divisor)) &&
            matchPattern(factor, m_ConstantInt(&scale)) && divisor == size &&
            scale == size) {
          rewriter.replaceOp(add, rem.getLhs());
          return success();
        }
      }
    }
    return failure();
  }
};
} // namespace

namespace mlir::autoprof::rewrites {

/// GPU ops a remapped kernel may contain: the ids and sizes it replaces and
/// ops that do not depend on which hardware thread runs them.
static bool isRemappableGpuOp(Operation *op) {
  return isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             gpu::GlobalIdOp, gpu::ReturnOp, gpu::PrintfOp>(op);
}

std::optional<std::string> checkRemappable(gpu::GPUFuncOp kernel,
                                           ArrayRef<gpu::LaunchFuncOp> launches,
                                           std::array<int64_t, 3> &grid,
                                           std::array<int64_t, 3> &block) {
  if (launches.empty())
    return std::string("the kernel is never launched");
  if (std::optional<std::string> tied = checkBlockShapeIsFree(kernel))
    return tied;
  if (kernel.getNumPrivateAttributions() != 0)
    return std::string("the kernel has private attributions");
  if (!kernel.getBody().hasOneBlock())
    return std::string("the kernel's body is not a single block");
  if (!kernel.getBody().front().getTerminator() ||
      kernel.getBody().front().getTerminator()->getNumOperands() != 0)
    return std::string("the kernel's body does not end in gpu.return");
  std::optional<std::string> why;
  kernel.walk([&](Operation *op) {
    if (why)
      return WalkResult::interrupt();
    StringRef dialect = op->getName().getDialectNamespace();
    if ((dialect == "gpu" && !isRemappableGpuOp(op) && op != kernel) ||
        dialect == "nvvm" || dialect == "nvgpu" || isa<CallOpInterface>(op))
      why = "it uses '" + op->getName().getStringRef().str() +
            "', which depends on how threads are grouped";
    return WalkResult::advance();
  });
  if (why)
    return why;
  std::optional<std::array<int64_t, 3>> uniformBlock =
      getUniformBlock(launches);
  if (!uniformBlock)
    return std::string("the launches do not share one constant block size");
  block = *uniformBlock;
  // An empty launch runs no thread; nothing can be said of its geometry.
  if (llvm::any_of(block, [](int64_t size) { return size < 1; }))
    return std::string("a launch's block has a dimension of size 0");
  for (auto [index, constLaunch] : llvm::enumerate(launches)) {
    gpu::LaunchFuncOp launch = constLaunch;
    gpu::KernelDim3 sizes = launch.getGridSizeOperandValues();
    std::array<std::optional<int64_t>, 3> current = {
        getConstant(sizes.x), getConstant(sizes.y), getConstant(sizes.z)};
    if (!current[0] || !current[1] || !current[2])
      return std::string("a launch's grid is not constant");
    std::array<int64_t, 3> values = {*current[0], *current[1], *current[2]};
    if (llvm::any_of(values, [](int64_t size) { return size < 1; }))
      return std::string("a launch's grid has a dimension of size 0");
    if (index != 0 && values != grid)
      return std::string("the launches do not share one grid");
    grid = values;
    if (launch.getDynamicSharedMemorySize())
      return std::string("a launch uses dynamic shared memory");
  }
  return std::nullopt;
}

FailureOr<ThreadRemapPlan> planThreadRemap(std::array<int64_t, 3> grid,
                                           std::array<int64_t, 3> block,
                                           int fastest, int64_t threadsX,
                                           int64_t threadsPerBlock,
                                           std::string &why) {
  ThreadRemapPlan plan;
  plan.oldGrid = grid;
  plan.oldBlock = block;
  // fastest -> x, the others keep their order along y and z.
  SmallVector<int> order = {fastest};
  for (int d = 0; d < 3; ++d)
    if (d != fastest)
      order.push_back(d);
  std::array<int64_t, 3> totals;
  for (int e = 0; e < 3; ++e) {
    plan.newDimOf[order[e]] = e;
    totals[e] = grid[order[e]] * block[order[e]];
  }
  // Warps stay full along x unless the dimension is smaller than a warp.
  auto roundToWarp = [](int64_t n) { return (n + 31) / 32 * 32; };
  plan.newBlock[0] = std::min(threadsX, roundToWarp(totals[0]));
  int64_t left = std::max<int64_t>(1, threadsPerBlock / plan.newBlock[0]);
  plan.newBlock[1] = std::min(totals[1], left);
  left = std::max<int64_t>(1, left / plan.newBlock[1]);
  plan.newBlock[2] = std::min({totals[2], left, int64_t(64)});
  for (int e = 0; e < 3; ++e)
    plan.newGrid[e] = (totals[e] + plan.newBlock[e] - 1) / plan.newBlock[e];
  if (plan.newGrid[0] > 2147483647 || plan.newGrid[1] > 65535 ||
      plan.newGrid[2] > 65535) {
    why = "the new grid would exceed the hardware's limits";
    return failure();
  }
  if (plan.newGrid == grid && plan.newBlock == block &&
      plan.newDimOf == std::array<int, 3>{0, 1, 2}) {
    why = "the kernel already has this geometry";
    return failure();
  }
  return plan;
}

void simplifyRecombinedIndices(gpu::GPUFuncOp kernel) {
  RewritePatternSet patterns(kernel.getContext());
  patterns.add<FoldRecombinedIndex>(kernel.getContext());
  arith::AddIOp::getCanonicalizationPatterns(patterns, kernel.getContext());
  arith::MulIOp::getCanonicalizationPatterns(patterns, kernel.getContext());
  // Not converging only leaves the index less simplified.
  (void)applyPatternsGreedily(kernel, std::move(patterns));
}

void applyThreadRemap(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                      ArrayRef<gpu::LaunchFuncOp> launches,
                      const ThreadRemapPlan &plan) {
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  // The ids and sizes the kernel uses now, before new ones are created.
  SmallVector<Operation *> geometry;
  kernel.walk([&](Operation *op) {
    if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
            gpu::GlobalIdOp>(op))
      geometry.push_back(op);
  });

  rewriter.setInsertionPointToStart(&body);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  static constexpr gpu::Dimension kDims[] = {
      gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z};
  std::array<Value, 3> globalIndex, oldThread, oldBlock, inBounds;
  for (int d = 0; d < 3; ++d) {
    int e = plan.newDimOf[d];
    Value index;
    if (plan.newGrid[e] * plan.newBlock[e] == 1) {
      index = constant(0);
    } else {
      Value blockId = gpu::BlockIdOp::create(rewriter, loc, kDims[e]);
      Value threadId = gpu::ThreadIdOp::create(rewriter, loc, kDims[e]);
      index = blockId;
      if (plan.newBlock[e] > 1) {
        Value first = arith::MulIOp::create(rewriter, loc, blockId,
                                            constant(plan.newBlock[e]));
        index = arith::AddIOp::create(rewriter, loc, first, threadId);
      }
    }
    globalIndex[d] = index;
    int64_t total = plan.oldGrid[d] * plan.oldBlock[d];
    if (plan.newGrid[e] * plan.newBlock[e] > total)
      inBounds[d] = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, index, constant(total));
    if (plan.oldBlock[d] == 1) {
      oldThread[d] = constant(0);
      oldBlock[d] = index;
    } else {
      Value size = constant(plan.oldBlock[d]);
      oldThread[d] = arith::RemUIOp::create(rewriter, loc, index, size);
      oldBlock[d] = arith::DivUIOp::create(rewriter, loc, index, size);
    }
  }
  Value guard;
  for (Value condition : inBounds)
    if (condition)
      guard = guard ? arith::AndIOp::create(rewriter, loc, guard, condition)
                          .getResult()
                    : condition;

  // The last op created above; what follows it is the original body.
  Operation *lastRemapOp = &*std::prev(rewriter.getInsertionPoint());
  for (Operation *op : geometry) {
    int d = 0;
    Value replacement;
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      d = static_cast<int>(id.getDimension());
      replacement = oldThread[d];
    } else if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      d = static_cast<int>(id.getDimension());
      replacement = oldBlock[d];
    } else if (auto id = dyn_cast<gpu::GlobalIdOp>(op)) {
      d = static_cast<int>(id.getDimension());
      replacement = globalIndex[d];
    } else if (auto size = dyn_cast<gpu::BlockDimOp>(op)) {
      rewriter.setInsertionPoint(op);
      replacement = arith::ConstantIndexOp::create(
          rewriter, op->getLoc(),
          plan.oldBlock[static_cast<int>(size.getDimension())]);
    } else if (auto size = dyn_cast<gpu::GridDimOp>(op)) {
      rewriter.setInsertionPoint(op);
      replacement = arith::ConstantIndexOp::create(
          rewriter, op->getLoc(),
          plan.oldGrid[static_cast<int>(size.getDimension())]);
    }
    rewriter.replaceOp(op, replacement);
  }

  // Threads past the original problem skip the whole body.
  if (guard) {
    rewriter.setInsertionPointAfter(lastRemapOp);
    auto ifOp = scf::IfOp::create(rewriter, loc, guard, /*withElse=*/false);
    Block *then = ifOp.thenBlock();
    then->getOperations().splice(
        then->without_terminator().begin(), body.getOperations(),
        std::next(ifOp->getIterator()), body.getTerminator()->getIterator());
  }

  simplifyRecombinedIndices(kernel);

  for (gpu::LaunchFuncOp launch : launches) {
    rewriter.setInsertionPoint(launch);
    auto at = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, launch.getLoc(), value);
    };
    rewriter.modifyOpInPlace(launch, [&] {
      launch.getGridSizeXMutable().assign(at(plan.newGrid[0]));
      launch.getGridSizeYMutable().assign(at(plan.newGrid[1]));
      launch.getGridSizeZMutable().assign(at(plan.newGrid[2]));
      launch.getBlockSizeXMutable().assign(at(plan.newBlock[0]));
      launch.getBlockSizeYMutable().assign(at(plan.newBlock[1]));
      launch.getBlockSizeZMutable().assign(at(plan.newBlock[2]));
    });
  }
}

} // namespace mlir::autoprof::rewrites
