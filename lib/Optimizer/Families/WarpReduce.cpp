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
// Integer combinations and floating-point minima and maxima come out exact.
// Floating-point sums and products are reassociated: in another order they
// round differently, by as much as the magnitude of their terms allows (not
// their result), so the rewrite marks the kernel `autoprof.reassociated`,
// and its verification bounds the difference by the terms' magnitude.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

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
  scf::ForOp loop;
  /// For each value the loop carries, the operation of its body that
  /// combines it with the iteration's contribution.
  SmallVector<Operation *> combiners;
  /// Operations outside the loop that write memory: lane 0 runs them.
  SmallVector<Operation *> writes;
  /// The geometry every launch shares, and how many hardware blocks along x
  /// an original block becomes (when its lanes exceed 1024 threads).
  std::array<int64_t, 3> grid = {1, 1, 1}, block = {1, 1, 1};
  int64_t split = 1;
};
} // namespace

/// The neutral element of `op` (an operation that combines two values of a
/// reduction), when it is one of the associative and commutative operations
/// the rewrite combines partial results with and works on f32 or i32.
static std::optional<TypedAttr> getCombinerIdentity(Operation *op) {
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return std::nullopt;
  Type type = op->getResult(0).getType();
  Builder b(op->getContext());
  if (type.isF32()) {
    float value;
    if (isa<arith::AddFOp>(op))
      value = -0.0f; // x + -0 == x, for x == -0 too
    else if (isa<arith::MulFOp>(op))
      value = 1.0f;
    else if (isa<arith::MaximumFOp>(op))
      value = -std::numeric_limits<float>::infinity();
    else if (isa<arith::MinimumFOp>(op))
      value = std::numeric_limits<float>::infinity();
    else if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op))
      value = std::numeric_limits<float>::quiet_NaN();
    else
      return std::nullopt;
    return TypedAttr(b.getF32FloatAttr(value));
  }
  if (!type.isInteger(32))
    return std::nullopt;
  int64_t value;
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(op))
    value = 0;
  else if (isa<arith::MulIOp>(op))
    value = 1;
  else if (isa<arith::AndIOp, arith::MinUIOp>(op))
    value = -1;
  else if (isa<arith::MaxSIOp>(op))
    value = std::numeric_limits<int32_t>::min();
  else if (isa<arith::MinSIOp>(op))
    value = std::numeric_limits<int32_t>::max();
  else
    return std::nullopt;
  return TypedAttr(b.getI32IntegerAttr(value));
}

/// The combining operations of `loop`'s carried values: each carried value
/// is used once, by an operation of the body's own block that combines it
/// with a value not derived from it and whose result only the yield uses, at
/// the same position. Empty, with `why`, otherwise.
static SmallVector<Operation *> findCombiners(scf::ForOp loop,
                                              std::string &why) {
  SmallVector<Operation *> combiners;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [index, carried] : llvm::enumerate(loop.getRegionIterArgs())) {
    Value yielded = yield.getOperand(index);
    Operation *combiner = yielded.getDefiningOp();
    if (!carried.hasOneUse() || !combiner ||
        combiner->getBlock() != loop.getBody() ||
        llvm::count(combiner->getOperands(), carried) != 1 ||
        !yielded.hasOneUse() || !getCombinerIdentity(combiner)) {
      why = "the loop's carried value #" + std::to_string(index) +
            " is not combined once per iteration by an f32 or i32 addition, "
            "product, minimum, maximum or bitwise operation";
      return {};
    }
    // The other operand must not depend on the carried value (it would not
    // be a reduction): the carried value has a single use, this one.
    combiners.push_back(combiner);
  }
  return combiners;
}

/// Whether `op` (or an operation nested in it) may write memory or has
/// effects the interface does not describe.
static bool mayWrite(Operation *op) {
  bool writes = false;
  op->walk([&](Operation *nested) {
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(nested)) {
      if (!effects.onlyHasEffect<MemoryEffects::Read>() &&
          !effects.hasNoEffect())
        writes = true;
    } else if (!nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
      writes = true;
    }
    return writes ? WalkResult::interrupt() : WalkResult::advance();
  });
  return writes;
}

/// Whether `op` itself (not what it nests) writes memory.
static bool writesItself(Operation *op) {
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op))
    return !effects.onlyHasEffect<MemoryEffects::Read>() &&
           !effects.hasNoEffect();
  return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
}

/// Whether `value` may depend on what the kernel reads from memory: its
/// definition, through operands and the values regions carry, reaches a
/// memory read (or an operation whose effects are unknown).
static bool dependsOnMemory(Value value) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work = {value};
  while (!work.empty()) {
    Value current = work.pop_back_val();
    Operation *def = current.getDefiningOp();
    if (!def) {
      // A region's argument (an induction variable, an iter_arg) depends on
      // what its operation takes; the kernel's arguments are values.
      Operation *owner = cast<BlockArgument>(current).getOwner()->getParentOp();
      if (!owner || isa<gpu::GPUFuncOp>(owner) || !seen.insert(owner).second)
        continue;
      llvm::append_range(work, owner->getOperands());
      owner->walk([&](scf::YieldOp yield) {
        llvm::append_range(work, yield.getOperands());
      });
      continue;
    }
    if (!seen.insert(def).second)
      continue;
    if (!isMemoryEffectFree(def) && !isa<scf::ForOp, scf::IfOp>(def))
      return true;
    llvm::append_range(work, def->getOperands());
    def->walk([&](scf::YieldOp yield) {
      llvm::append_range(work, yield.getOperands());
    });
  }
  return false;
}

/// Whether every floating-point value the kernel stores is a sum, difference
/// or product of loaded values, scalars and constants (through the values
/// loops, branches and shuffles carry): then the reference on the absolute
/// values of the inputs bounds each term's magnitude, which is what the
/// verification of a reassociated sum relies on.
static bool storesSumsOfProducts(gpu::GPUFuncOp kernel, std::string &why) {
  llvm::SmallPtrSet<Operation *, 32> seen;
  SmallVector<Value> work;
  kernel.walk([&](memref::StoreOp store) {
    if (isa<FloatType>(store.getValueToStore().getType()))
      work.push_back(store.getValueToStore());
  });
  while (!work.empty()) {
    Value current = work.pop_back_val();
    Operation *def = current.getDefiningOp();
    if (!def) {
      Operation *owner = cast<BlockArgument>(current).getOwner()->getParentOp();
      if (!owner || isa<gpu::GPUFuncOp>(owner) || !seen.insert(owner).second)
        continue;
      if (auto loop = dyn_cast<scf::ForOp>(owner)) {
        llvm::append_range(work, loop.getInitArgs());
        llvm::append_range(work,
                           loop.getBody()->getTerminator()->getOperands());
      }
      continue;
    }
    if (!seen.insert(def).second)
      continue;
    if (isa<memref::LoadOp, arith::ConstantOp>(def))
      continue;
    if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp>(def)) {
      llvm::append_range(work, def->getOperands());
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      unsigned index = cast<OpResult>(current).getResultNumber();
      work.push_back(loop.getInitArgs()[index]);
      work.push_back(loop.getBody()->getTerminator()->getOperand(index));
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      unsigned index = cast<OpResult>(current).getResultNumber();
      work.push_back(ifOp.thenYield().getOperand(index));
      if (!ifOp.getElseRegion().empty())
        work.push_back(ifOp.elseYield().getOperand(index));
      continue;
    }
    why = "a stored value is computed with '" +
          def->getName().getStringRef().str() +
          "', not only with sums, differences and products of loaded values "
          "(the magnitude that bounds a reassociated sum's rounding would not "
          "hold)";
    return false;
  }
  return true;
}

/// Whether splitting `loop` across lanes makes its loads walk contiguous
/// memory: one of them moves by one element per iteration, and none that
/// moves with the loop is already contiguous across the threads of a block
/// dimension (splitting would scatter it; coalesce serves it better). By the
/// memory-access analysis of the kernel with `block`.
static bool splitCoalesces(gpu::GPUFuncOp kernel, scf::ForOp loop,
                           std::array<int64_t, 3> block, int64_t step,
                           std::string &why) {
  MemoryAccessAnalysis analysis(kernel, block);
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
  StringRef getName() const override { return "warp-reduce"; }
  StringRef getSummary() const override {
    return "L lanes of a warp split a reduction loop and combine their "
           "partial results with shuffles";
  }
  std::optional<std::string> checkParameter(int64_t n) const override {
    if (n != 4 && n != 8 && n != 16 && n != 32)
      return std::string("the number of lanes must be 4, 8, 16 or 32");
    return std::nullopt;
  }

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
    WarpReducePlan plan;
    if (std::optional<std::string> reason =
            checkRemappable(kernel, target.launches, plan.grid, plan.block)) {
      why = *reason;
      return failure();
    }
    SmallVector<scf::ForOp> loops;
    kernel.walk([&](scf::ForOp loop) {
      if (loop.getNumResults() != 0)
        loops.push_back(loop);
    });
    if (loops.empty()) {
      why = "no scf.for carries a reduction in iter_args (register-"
            "accumulate makes one of an accumulation through memory)";
      return failure();
    }
    if (loops.size() != 1) {
      why = "the kernel has several loops that carry values";
      return failure();
    }
    scf::ForOp loop = plan.loop = loops.front();
    plan.combiners = findCombiners(loop, why);
    if (plan.combiners.empty())
      return failure();

    // Bounds: lane l starts at lb + l*step and steps by L*step, which must
    // not overflow past the upper bound.
    std::optional<int64_t> lb = getConstant(loop.getLowerBound()),
                           ub = getConstant(loop.getUpperBound()),
                           step = getConstant(loop.getStep());
    if (!lb || !ub || !step || *step <= 0 || loop.getUnsignedCmp()) {
      why = "the loop does not have constant bounds and a positive step";
      return failure();
    }
    std::optional<int64_t> stride = llvm::checkedMul(*step, n);
    if (!stride || !llvm::checkedAdd(*ub, *stride) ||
        !llvm::checkedAdd(*lb, *stride)) {
      why = "the loop's bounds are too close to the index's limits";
      return failure();
    }

    // Only reads in the loop: every lane runs its share of the iterations.
    Operation *effect = nullptr;
    loop.getBody()->walk([&](Operation *op) {
      if (!effect && writesItself(op))
        effect = op;
    });
    if (effect) {
      why = "the loop writes memory ('" +
            effect->getName().getStringRef().str() + "')";
      return failure();
    }
    // Run once per thread, after no write: the lanes reach the shuffles
    // together, having read what the original thread read.
    for (Operation *ancestor = loop; ancestor->getParentOp() != kernel;
         ancestor = ancestor->getParentOp()) {
      Operation *parent = ancestor->getParentOp();
      if (!isa<scf::IfOp>(parent)) {
        why = "the loop is nested in '" +
              parent->getName().getStringRef().str() +
              "' (only scf.if may enclose it)";
        return failure();
      }
    }
    for (Operation *ancestor = loop; ancestor != kernel;
         ancestor = ancestor->getParentOp()) {
      for (Operation *before = ancestor->getPrevNode(); before;
           before = before->getPrevNode())
        if (mayWrite(before)) {
          why = "'" + before->getName().getStringRef().str() +
                "' may write memory before the loop";
          return failure();
        }
    }
    // Every other write is left to lane 0; an effect whose result the
    // kernel uses cannot be.
    bool ok = true;
    kernel.walk([&](Operation *op) {
      if (!ok || op == kernel.getOperation() || loop->isAncestor(op) ||
          !writesItself(op))
        return;
      if (op->getNumResults() != 0 || op->getNumRegions() != 0) {
        why = "'" + op->getName().getStringRef().str() +
              "' writes memory and returns a value or holds regions";
        ok = false;
        return;
      }
      plan.writes.push_back(op);
    });
    if (!ok)
      return failure();
    // The other lanes run the code around the loop too, without its writes:
    // what they read after lane 0 wrote may differ from what lane 0 reads,
    // so no address, bound or branch outside the loop may depend on memory.
    kernel.walk([&](Operation *op) {
      if (!ok || loop->isAncestor(op))
        return;
      SmallVector<Value> controls;
      if (auto load = dyn_cast<memref::LoadOp>(op))
        llvm::append_range(controls, load.getIndices());
      else if (auto store = dyn_cast<memref::StoreOp>(op))
        llvm::append_range(controls, store.getIndices());
      else if (auto ifOp = dyn_cast<scf::IfOp>(op))
        controls.push_back(ifOp.getCondition());
      else if (auto other = dyn_cast<scf::ForOp>(op))
        llvm::append_range(controls,
                           ValueRange{other.getLowerBound(),
                                      other.getUpperBound(), other.getStep()});
      else if (op->getNumRegions() != 0 && op != kernel.getOperation())
        controls.push_back(Value()); // unknown control flow
      else if (!isMemoryEffectFree(op) &&
               !op->hasTrait<OpTrait::IsTerminator>())
        llvm::append_range(controls, op->getOperands());
      for (Value control : controls)
        if (!control || dependsOnMemory(control)) {
          why = "outside the loop, '" + op->getName().getStringRef().str() +
                "' has an address, bound or condition that depends on memory "
                "(the other lanes could read it after lane 0 wrote it)";
          ok = false;
          return;
        }
    });
    if (!ok)
      return failure();
    // The verification of a reassociated float sum bounds its rounding by
    // the magnitude of its terms, which holds for sums of products.
    if (llvm::any_of(plan.combiners,
                     [](Operation *combiner) {
                       return isa<arith::AddFOp, arith::MulFOp>(combiner);
                     }) &&
        !storesSumsOfProducts(kernel, why))
      return failure();

    // Geometry: each original block of B threads needs B*L hardware threads;
    // beyond 1024 it is split along x into several hardware blocks.
    int64_t lanes = plan.block[0] * n * plan.block[1] * plan.block[2];
    while (lanes / plan.split > 1024)
      plan.split *= 2;
    if (plan.block[0] % plan.split != 0) {
      why = "blocks of " + std::to_string(plan.block[0]) +
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
    if (plan.grid[0] * plan.split > 2147483647) {
      why = "the new grid would exceed the hardware's limits";
      return failure();
    }
    if (!splitCoalesces(kernel, loop, plan.block, *step, why))
      return failure();
    return plan;
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n, WarpReducePlan &plan) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    Location loc = kernel.getLoc();
    Block &body = kernel.getBody().front();
    int64_t perBlockX = plan.block[0] / plan.split;
    for (gpu::LaunchFuncOp launch : target.launches)
      setLaunchSizes(rewriter, launch, {plan.grid[0] * plan.split},
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
        replacement = index(plan.block[0]);
      else if (isa<gpu::GridDimOp>(op))
        replacement = index(plan.grid[0]);
      else
        replacement = arith::AddIOp::create(
            rewriter, op->getLoc(),
            arith::MulIOp::create(rewriter, op->getLoc(), blockId,
                                  index(plan.block[0])),
            thread);
      rewriter.replaceOp(op, replacement);
    }

    // Lane l runs iterations l, l+L, ... from the neutral elements.
    scf::ForOp loop = plan.loop;
    rewriter.setInsertionPoint(loop);
    Value offset = arith::MulIOp::create(rewriter, loc, lane, loop.getStep());
    Value lower =
        arith::AddIOp::create(rewriter, loc, loop.getLowerBound(), offset);
    Value step =
        arith::MulIOp::create(rewriter, loc, loop.getStep(), lanesValue);
    SmallVector<Value> initial(loop.getInitArgs());
    SmallVector<Value> identities;
    for (Operation *combiner : plan.combiners)
      identities.push_back(arith::ConstantOp::create(
          rewriter, loc, *getCombinerIdentity(combiner)));
    // Partial results in another order may overflow where the original did
    // not: the combinations promise nothing about overflow.
    // Likewise, the neutral elements are infinities and NaNs: no fast-math
    // flag may assume there are none.
    auto dropOverflowFlags = [](Operation *op) {
      if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op))
        op->setAttr(flags.getIntegerOverflowAttrName(),
                    arith::IntegerOverflowFlagsAttr::get(
                        op->getContext(), arith::IntegerOverflowFlags::none));
      if (auto flags = dyn_cast<arith::ArithFastMathInterface>(op))
        op->setAttr(
            flags.getFastMathAttrName(),
            arith::FastMathFlagsAttr::get(
                op->getContext(), flags.getFastMathFlagsAttr().getValue() &
                                      ~(arith::FastMathFlags::nnan |
                                        arith::FastMathFlags::ninf)));
    };
    rewriter.modifyOpInPlace(loop, [&] {
      loop.getLowerBoundMutable().assign(lower);
      loop.getStepMutable().assign(step);
      loop.getInitArgsMutable().assign(identities);
    });
    for (Operation *combiner : plan.combiners)
      rewriter.modifyOpInPlace(combiner, [&] { dropOverflowFlags(combiner); });

    // The lanes of one original thread are L consecutive lanes of a warp,
    // starting at a multiple of L: the shuffles name just them.
    rewriter.setInsertionPointAfter(loop);
    Type i32 = rewriter.getI32Type();
    auto i32Constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, i32, value);
    };
    Value laneInWarp = arith::IndexCastUIOp::create(
        rewriter, loc, i32,
        gpu::LaneIdOp::create(rewriter, loc, IntegerAttr()));
    Value firstLane =
        arith::AndIOp::create(rewriter, loc, laneInWarp, i32Constant(32 - n));
    Value mask =
        n == 32 ? i32Constant(-1)
                : arith::ShLIOp::create(rewriter, loc,
                                        i32Constant((1ll << n) - 1), firstLane)
                      .getResult();
    Value clamp = i32Constant(31);
    auto combine = [&](Operation *combiner, Value lhs, Value rhs) -> Value {
      Operation *op = rewriter.clone(*combiner);
      op->setOperands({lhs, rhs});
      dropOverflowFlags(op);
      return op->getResult(0);
    };
    for (auto [result, combiner, init] :
         llvm::zip(loop.getResults(), plan.combiners, initial)) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : result.getUses())
        uses.push_back(&use);
      Value partial = result;
      for (int64_t distance = n / 2; distance >= 1; distance /= 2) {
        Value other = NVVM::ShflOp::create(
            rewriter, loc, partial.getType(), mask, partial,
            i32Constant(distance), clamp, NVVM::ShflKind::bfly, UnitAttr());
        partial = combine(combiner, partial, other);
      }
      // Every lane takes the first lane's total, bit for bit.
      partial = NVVM::ShflOp::create(rewriter, loc, partial.getType(), mask,
                                     partial, firstLane, clamp,
                                     NVVM::ShflKind::idx, UnitAttr());
      Value total = combine(combiner, init, partial);
      for (OpOperand *use : uses)
        rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(total); });
    }

    // Floating-point sums and products now add their terms in another order.
    if (llvm::any_of(plan.combiners, [](Operation *combiner) {
          return isa<arith::AddFOp, arith::MulFOp>(combiner);
        }))
      AutoProfDialect::ReassociatedAttrHelper(kernel.getContext())
          .setAttr(kernel, rewriter.getUnitAttr());

    // Lane 0 alone writes.
    for (Operation *write : plan.writes) {
      rewriter.setInsertionPoint(write);
      auto ifOp = scf::IfOp::create(rewriter, write->getLoc(), isFirstLane,
                                    /*withElseRegion=*/false);
      rewriter.moveOpBefore(write, ifOp.thenBlock()->getTerminator());
    }
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createWarpReduceFamily() {
  return std::make_unique<WarpReduceFamily>();
}
