//===- ReductionSplit.cpp - A reduction loop shared by threads ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "ReductionSplit.h"

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

std::optional<TypedAttr>
mlir::autoprof::rewrites::getCombinerIdentity(Operation *op) {
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return std::nullopt;
  Type type = op->getResult(0).getType();
  Builder b(op->getContext());
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    APFloat value(semantics);
    if (isa<arith::AddFOp>(op))
      value = APFloat::getZero(semantics, /*Negative=*/true); // x + -0 == x
    else if (isa<arith::MulFOp>(op))
      value = APFloat::getOne(semantics);
    else if (isa<arith::MaximumFOp>(op))
      value = APFloat::getInf(semantics, /*Negative=*/true);
    else if (isa<arith::MinimumFOp>(op))
      value = APFloat::getInf(semantics);
    else if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op))
      value = APFloat::getQNaN(semantics);
    else
      return std::nullopt;
    return TypedAttr(b.getFloatAttr(floatType, value));
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return std::nullopt;
  unsigned width = intType.getWidth();
  APInt value;
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(op))
    value = APInt::getZero(width);
  else if (isa<arith::MulIOp>(op))
    value = APInt(width, 1);
  else if (isa<arith::AndIOp, arith::MinUIOp>(op))
    value = APInt::getAllOnes(width);
  else if (isa<arith::MaxSIOp>(op))
    value = APInt::getSignedMinValue(width);
  else if (isa<arith::MinSIOp>(op))
    value = APInt::getSignedMaxValue(width);
  else
    return std::nullopt;
  return TypedAttr(b.getIntegerAttr(intType, value));
}

/// getCombinerIdentity for the f32 and i32 combinations the split loops
/// take.
static std::optional<TypedAttr> getSplitCombinerIdentity(Operation *op) {
  if (op->getNumResults() != 1)
    return std::nullopt;
  Type type = op->getResult(0).getType();
  if (!type.isF32() && !type.isInteger(32))
    return std::nullopt;
  return getCombinerIdentity(op);
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
        !yielded.hasOneUse() || !getSplitCombinerIdentity(combiner)) {
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

/// Whether `value` may depend on what the kernel reads from memory: its
/// definition, through operands and the values regions carry, reaches a
/// memory read (or an operation whose effects are unknown).
static bool dependsOnMemory(Value value) {
  return reachesDefinition(value, touchesMemory);
}

/// Drops the flags a combination in another order breaks: partial results
/// may overflow where the original did not, and the neutral elements are
/// infinities and NaNs.
static void dropOrderFlags(Operation *op) {
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op))
    op->setAttr(flags.getIntegerOverflowAttrName(),
                arith::IntegerOverflowFlagsAttr::get(
                    op->getContext(), arith::IntegerOverflowFlags::none));
  if (auto flags = dyn_cast<arith::ArithFastMathInterface>(op))
    op->setAttr(flags.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(
                    op->getContext(), flags.getFastMathFlagsAttr().getValue() &
                                          ~(arith::FastMathFlags::nnan |
                                            arith::FastMathFlags::ninf)));
}

FailureOr<ReductionSplit>
mlir::autoprof::rewrites::matchReductionSplit(const RewriteTarget &target,
                                              int64_t n, std::string &why) {
  gpu::GPUFuncOp kernel = target.kernel;
  ReductionSplit plan;
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
  // Fewer than two iterations per thread leave most threads idle while the
  // combination still costs its shuffles or barriers (on an H200, a 9-tap
  // window split 8 ways ran 6.7x slower than the loop in one thread).
  int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
  if (trips < 2 * n) {
    why = "the loop has " + std::to_string(trips) +
          " iterations, fewer "
          "than 2 for each of " +
          std::to_string(n) + " threads";
    return failure();
  }

  // Only reads in the loop: every lane runs its share of the iterations.
  Operation *effect = nullptr;
  loop.getBody()->walk([&](Operation *op) {
    if (!effect && writesMemoryItself(op))
      effect = op;
  });
  if (effect) {
    why = "the loop writes memory ('" + effect->getName().getStringRef().str() +
          "')";
    return failure();
  }
  // Run once per thread, after no write: the lanes reach the shuffles
  // together, having read what the original thread read.
  for (Operation *ancestor = loop; ancestor->getParentOp() != kernel;
       ancestor = ancestor->getParentOp()) {
    Operation *parent = ancestor->getParentOp();
    if (!isa<scf::IfOp>(parent)) {
      why = "the loop is nested in '" + parent->getName().getStringRef().str() +
            "' (only scf.if may enclose it)";
      return failure();
    }
  }
  for (Operation *ancestor = loop; ancestor != kernel;
       ancestor = ancestor->getParentOp()) {
    for (Operation *before = ancestor->getPrevNode(); before;
         before = before->getPrevNode())
      if (mayWriteMemory(before)) {
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
        !writesMemoryItself(op))
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
    else if (!isMemoryEffectFree(op) && !op->hasTrait<OpTrait::IsTerminator>())
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

  plan.reassociates = llvm::any_of(plan.combiners, [](Operation *combiner) {
    return isa<arith::AddFOp, arith::MulFOp>(combiner);
  });
  return plan;
}

/// The widest vector a chunk load may read.
static constexpr int64_t kChunkBits = 128;

/// Whether `load`, in the body of `loop` (step `step`, from `lower`), reads
/// element i+1 of its buffer's innermost dimension at the iteration after
/// the one that reads element i, and `width` consecutive iterations from
/// any first one a thread runs read `width` elements aligned to their
/// size: by the affine form of its innermost index.
static bool walksAlignedChunks(MemoryAccessAnalysis &analysis, scf::ForOp loop,
                               memref::LoadOp load, int64_t lower, int64_t step,
                               int64_t width) {
  auto type = cast<MemRefType>(load.getMemRef().getType());
  Type element = type.getElementType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getRank() == 0 || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0 ||
      element.getIntOrFloatBitWidth() * width > kChunkBits ||
      type.getShape().back() % width != 0)
    return false;
  ValueRange indices = load.getIndices();
  if (!llvm::all_of(indices.drop_back(), [&](Value index) {
        return loop.isDefinedOutsideOfLoop(index);
      }))
    return false;
  std::optional<AffineIndex> form = analysis.express(indices.back());
  if (!form)
    return false;
  int64_t perIteration = 0;
  for (auto [atomIndex, coefficient] : form->terms) {
    const IndexAtom &atom = analysis.getAtoms()[atomIndex];
    if (atom.kind == IndexAtomKind::InductionVar &&
        atom.value == loop.getInductionVar()) {
      perIteration = coefficient * step;
      continue;
    }
    // Any other term is the same at every iteration and a multiple of the
    // width.
    if (!atom.value || !loop.isDefinedOutsideOfLoop(atom.value) ||
        llvm::is_contained(atom.roots, loop.getInductionVar()) ||
        coefficient % width != 0)
      return false;
  }
  // One element per iteration with a positive step: step and coefficient
  // 1. At the first iteration of a chunk the index is then the constant
  // plus the lower bound plus a multiple of the width.
  if (perIteration != 1)
    return false;
  std::optional<int64_t> first = llvm::checkedAdd(form->constant, lower);
  return first && *first % width == 0;
}

void mlir::autoprof::rewrites::planChunks(MemoryAccessAnalysis &analysis,
                                          ReductionSplit &split,
                                          int64_t lanes) {
  scf::ForOp loop = split.loop;
  int64_t lower = *getConstant(loop.getLowerBound());
  int64_t upper = *getConstant(loop.getUpperBound());
  int64_t step = *getConstant(loop.getStep());
  if (upper <= lower)
    return;
  int64_t trips = (upper - lower + step - 1) / step;
  SmallVector<memref::LoadOp> candidates;
  int64_t widestBytes = 0;
  for (auto load : loop.getBody()->getOps<memref::LoadOp>()) {
    Type element = load.getType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      continue;
    candidates.push_back(load);
    widestBytes =
        std::max<int64_t>(widestBytes, element.getIntOrFloatBitWidth() / 8);
  }
  if (candidates.empty())
    return;
  for (int64_t width = kChunkBits / 8 / widestBytes; width >= 2; width /= 2) {
    std::optional<int64_t> stride = llvm::checkedMul(step, lanes * width);
    if (trips % width != 0 || !stride || !llvm::checkedAdd(upper, *stride))
      continue;
    SmallVector<memref::LoadOp> chunkLoads;
    for (memref::LoadOp load : candidates)
      if (walksAlignedChunks(analysis, loop, load, lower, step, width))
        chunkLoads.push_back(load);
    if (chunkLoads.empty())
      continue;
    split.chunk = width;
    split.chunkLoads = std::move(chunkLoads);
    return;
  }
}

/// Makes each iteration of `loop` (whose step already covers the chunks of
/// every thread) run `chunk` consecutive original iterations in order, the
/// loads of `chunkLoads` of those iterations one vector load.
static void expandChunks(RewriterBase &rewriter, scf::ForOp loop,
                         Value originalStep, int64_t chunk,
                         ArrayRef<memref::LoadOp> chunkLoads) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator())
    ops.push_back(&op);
  Location loc = loop.getLoc();
  Value iv = loop.getInductionVar();
  SmallVector<Value> yielded(yield.getOperands());
  SmallVector<Value> carried = yielded;
  // copies[k] maps the first iteration's values to iteration k's.
  SmallVector<IRMapping> copies(chunk);
  rewriter.setInsertionPoint(yield);
  for (int64_t k = 1; k < chunk; ++k) {
    IRMapping &map = copies[k];
    Value offset =
        arith::MulIOp::create(rewriter, loc, originalStep,
                              arith::ConstantIndexOp::create(rewriter, loc, k));
    map.map(iv, arith::AddIOp::create(rewriter, loc, iv, offset));
    for (auto [arg, value] : llvm::zip(loop.getRegionIterArgs(), carried))
      map.map(arg, value);
    for (Operation *op : ops)
      rewriter.clone(*op, map);
    for (auto [value, original] : llvm::zip(carried, yielded))
      value = map.lookupOrDefault(original);
  }
  rewriter.modifyOpInPlace(yield,
                           [&] { yield.getResultsMutable().assign(carried); });
  // Each chunk load of the first iteration reads the chunk's elements.
  for (memref::LoadOp load : chunkLoads) {
    rewriter.setInsertionPoint(load);
    Type element = load.getType();
    Value vector = vector::LoadOp::create(
        rewriter, load.getLoc(), VectorType::get({chunk}, element),
        load.getMemRef(), load.getIndices(), /*nontemporal=*/false,
        llvm::MaybeAlign(chunk * element.getIntOrFloatBitWidth() / 8));
    for (int64_t k = chunk - 1; k >= 0; --k) {
      Operation *copy =
          k == 0 ? load.getOperation()
                 : copies[k].lookup(load.getResult()).getDefiningOp();
      rewriter.setInsertionPointAfterValue(vector);
      rewriter.replaceOp(copy, vector::ExtractOp::create(rewriter,
                                                         load.getLoc(), vector,
                                                         ArrayRef<int64_t>{k}));
    }
  }
  // The copies' index arithmetic that only the merged loads used.
  SmallVector<Operation *> unused;
  for (Operation &op : body->without_terminator())
    unused.push_back(&op);
  for (Operation *op : llvm::reverse(unused))
    if (op->use_empty() && isMemoryEffectFree(op))
      rewriter.eraseOp(op);
}

SplitLoop
mlir::autoprof::rewrites::splitReductionLoop(RewriterBase &rewriter,
                                             const ReductionSplit &split,
                                             Value lane, Value lanes) {
  scf::ForOp loop = split.loop;
  SplitLoop result;
  for (Value value : loop.getResults()) {
    SmallVector<OpOperand *> &uses = result.uses.emplace_back();
    for (OpOperand &use : value.getUses())
      uses.push_back(&use);
  }
  Location loc = loop.getLoc();
  // A thread's chunks are `chunk` iterations long and `lanes` chunks apart.
  Value originalStep = loop.getStep();
  Value chunkStep = originalStep;
  if (split.chunk > 1)
    chunkStep = arith::MulIOp::create(
        rewriter, loc, originalStep,
        arith::ConstantIndexOp::create(rewriter, loc, split.chunk));
  Value offset = arith::MulIOp::create(rewriter, loc, lane, chunkStep);
  Value lower =
      arith::AddIOp::create(rewriter, loc, loop.getLowerBound(), offset);
  Value step = arith::MulIOp::create(rewriter, loc, chunkStep, lanes);
  result.initial.assign(loop.getInitArgs().begin(), loop.getInitArgs().end());
  SmallVector<Value> identities;
  for (Operation *combiner : split.combiners)
    identities.push_back(arith::ConstantOp::create(
        rewriter, loc, *getSplitCombinerIdentity(combiner)));
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getLowerBoundMutable().assign(lower);
    loop.getStepMutable().assign(step);
    loop.getInitArgsMutable().assign(identities);
  });
  for (Operation *combiner : split.combiners)
    rewriter.modifyOpInPlace(combiner, [&] { dropOrderFlags(combiner); });
  if (split.chunk > 1) {
    OpBuilder::InsertionGuard guard(rewriter);
    expandChunks(rewriter, loop, originalStep, split.chunk, split.chunkLoads);
  }
  return result;
}

LaneGroup mlir::autoprof::rewrites::buildLaneGroup(RewriterBase &rewriter,
                                                   Location loc,
                                                   int64_t lanes) {
  Type i32 = rewriter.getI32Type();
  auto i32Constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(rewriter, loc, i32, value);
  };
  Value laneInWarp = arith::IndexCastUIOp::create(
      rewriter, loc, i32, gpu::LaneIdOp::create(rewriter, loc, IntegerAttr()));
  Value firstLane = arith::AndIOp::create(rewriter, loc, laneInWarp,
                                          i32Constant(32 - lanes));
  Value mask =
      lanes == 32
          ? i32Constant(-1)
          : arith::ShLIOp::create(rewriter, loc,
                                  i32Constant((int64_t(1) << lanes) - 1),
                                  firstLane)
                .getResult();
  return {firstLane, mask};
}

Value mlir::autoprof::rewrites::combinePartials(RewriterBase &rewriter,
                                                Operation *combiner, Value lhs,
                                                Value rhs) {
  Operation *op = rewriter.clone(*combiner);
  op->setOperands({lhs, rhs});
  dropOrderFlags(op);
  return op->getResult(0);
}

void mlir::autoprof::rewrites::finishReductionSplit(
    RewriterBase &rewriter, gpu::GPUFuncOp kernel, const ReductionSplit &split,
    const SplitLoop &loop, ValueRange totals, Value isFirstLane) {
  for (auto [uses, total] : llvm::zip(loop.uses, totals)) {
    Value value = total;
    for (OpOperand *use : uses)
      rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(value); });
  }
  // Floating-point sums and products now add their terms in another order.
  if (split.reassociates)
    AutoProfDialect::ReassociatedAttrHelper(kernel.getContext())
        .setAttr(kernel, rewriter.getUnitAttr());
  // The first thread of each group alone writes.
  for (Operation *write : split.writes) {
    rewriter.setInsertionPoint(write);
    auto ifOp = scf::IfOp::create(rewriter, write->getLoc(), isFirstLane,
                                  /*withElseRegion=*/false);
    rewriter.moveOpBefore(write, ifOp.thenBlock()->getTerminator());
  }
}
