//===- IterationSpace.cpp - A kernel raised to its iteration space --------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Raise/IterationSpace.h"

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::autoprof;

static const char kDims[] = "xyz";

std::string SpaceDim::describe(int64_t blockSize) const {
  char d = kDims[static_cast<int>(hardware)];
  switch (source) {
  case SpaceDimSource::Global:
    return llvm::formatv("{0}*bid.{1} + tid.{1}", blockSize, d).str();
  case SpaceDimSource::Thread:
    return llvm::formatv("tid.{0}", d).str();
  case SpaceDimSource::Block:
    return llvm::formatv("bid.{0}", d).str();
  case SpaceDimSource::Loop:
    return llvm::formatv("loop {0} + {1}*i", lower, step).str();
  }
  return "";
}

SmallVector<unsigned> IterationSpace::getParallelDims() const {
  SmallVector<unsigned> result;
  for (auto [i, dim] : llvm::enumerate(dims))
    if (!dim.reduction)
      result.push_back(i);
  return result;
}

SmallVector<unsigned> IterationSpace::getReductionDims() const {
  SmallVector<unsigned> result;
  for (auto [i, dim] : llvm::enumerate(dims))
    if (dim.reduction)
      result.push_back(i);
  return result;
}

/// The product of the extents of `selected`, saturated at INT64_MAX.
static int64_t countPoints(ArrayRef<SpaceDim> dims,
                           ArrayRef<unsigned> selected) {
  int64_t points = 1;
  for (unsigned d : selected) {
    std::optional<int64_t> product = llvm::checkedMul(points, dims[d].extent);
    if (!product)
      return INT64_MAX;
    points = *product;
  }
  return points;
}

int64_t IterationSpace::getParallelPoints() const {
  return countPoints(dims, getParallelDims());
}

int64_t IterationSpace::getReductionPoints() const {
  return countPoints(dims, getReductionDims());
}

int64_t IterationSpace::getStride(const SpaceOperand &operand,
                                  unsigned dim) const {
  auto type = cast<MemRefType>(operand.buffer.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t stride = 0, step = 1;
  for (int r = static_cast<int>(shape.size()) - 1; r >= 0; --r) {
    AffineExpr expr = operand.map.getResult(r);
    // The coefficient of `dim` in a linear expression: its value at
    // dim = 1 less its value at dim = 0, the other dimensions 0.
    SmallVector<int64_t> at0(operand.map.getNumDims(), 0);
    SmallVector<int64_t> at1 = at0;
    at1[dim] = 1;
    AffineMap single = AffineMap::get(operand.map.getNumDims(), 0, expr);
    int64_t coefficient = single.compose(at1)[0] - single.compose(at0)[0];
    stride += coefficient * step;
    step *= shape[r];
  }
  return stride;
}

unsigned IterationSpace::getContiguousDim() const {
  SmallVector<unsigned> parallel = getParallelDims();
  unsigned best = parallel.back();
  int64_t bestVotes = 0;
  for (unsigned d : parallel) {
    int64_t votes = 0;
    for (const SpaceOperand &operand : operands) {
      Type element = cast<MemRefType>(operand.buffer.getType()).getElementType();
      if (std::abs(getStride(operand, d)) == 1)
        votes += std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
    }
    if (votes > bestVotes) {
      best = d;
      bestVotes = votes;
    }
  }
  if (bestVotes > 0)
    return best;
  // The dimension the first output's innermost index walks.
  for (const SpaceOperand &operand : operands)
    if (operand.written) {
      AffineExpr inner = operand.map.getResults().back();
      for (unsigned d : parallel)
        if (inner.isFunctionOfDim(d))
          return d;
    }
  return best;
}

Value IterationSpace::getStoredValue(Operation *store) const {
  auto storeOp = cast<memref::StoreOp>(store);
  unsigned operand = operandOf.lookup(store);
  for (const CarriedValue &carried : this->carried)
    if (carried.operand == operand)
      return carried.yielded;
  return storeOp.getValueToStore();
}

std::string IterationSpace::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [i, dim] : llvm::enumerate(dims))
    os << (i ? "; " : "") << "d" << i << " = "
       << dim.describe(blockSize[static_cast<int>(dim.hardware)]) << " in [0, "
       << dim.extent << ") " << (dim.reduction ? "reduction" : "parallel");
  for (const SpaceOperand &operand : operands)
    os << "; " << (operand.written ? (operand.read ? "accumulate" : "write")
                                   : "read")
       << " arg" << operand.buffer.getArgNumber() << " at " << operand.map;
  return text;
}

//===----------------------------------------------------------------------===//
// Raising
//===----------------------------------------------------------------------===//

namespace {

/// An index as coefficients of the thread ids, block ids and the nest's
/// loop induction variables, plus a constant.
struct IdForm {
  std::array<int64_t, 3> thread = {0, 0, 0}, block = {0, 0, 0};
  SmallVector<int64_t> loop;
  int64_t constant = 0;
};

class Raiser {
public:
  Raiser(gpu::GPUFuncOp kernel, MemoryAccessAnalysis &analysis,
         std::string &why)
      : kernel(kernel), analysis(analysis), why(why) {}

  FailureOr<IterationSpace> raise();

private:
  LogicalResult fail(const Twine &reason) {
    why = reason.str();
    return failure();
  }
  LogicalResult walkNest(Block &block);
  LogicalResult checkLeaf(Operation &op);
  FailureOr<IdForm> decode(Value index);
  LogicalResult decideDims();
  AffineExpr toExpr(const IdForm &form);
  LogicalResult applyGuard(Value condition);
  LogicalResult collectBody();
  LogicalResult checkCarried();

  gpu::GPUFuncOp kernel;
  MemoryAccessAnalysis &analysis;
  std::string &why;
  IterationSpace space;
  std::array<int64_t, 3> grid = {1, 1, 1};
  SmallVector<scf::ForOp> loops;
  SmallVector<Value> guards;
  Block *inner = nullptr;
  /// The loops that carry values (iter_args), from the outermost: a chain
  /// that ends at the innermost block.
  SmallVector<scf::ForOp> carrying;
  /// The loads that start the carried values and the stores of what the
  /// outermost carrying loop returns.
  llvm::DenseSet<Operation *> carriedAccesses;
  /// Versions of the nest the kernel runs where its buffers do not overlap
  /// (register-accumulate's run-time check): the raised form is the other
  /// version's, the code as it was.
  SmallVector<Region *> versions;

  /// Whether `op` is in a version the raised form leaves aside.
  bool isSetAside(Operation *op) const {
    return llvm::any_of(versions, [&](Region *region) {
      return region->isAncestor(op->getParentRegion());
    });
  }
  /// The loads and stores of the nest, in program order.
  SmallVector<Operation *> getAccesses() {
    SmallVector<Operation *> accesses;
    kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<memref::LoadOp, memref::StoreOp>(op) && !isSetAside(op))
        accesses.push_back(op);
    });
    return accesses;
  }
  /// The dimension standing for each thread id, block id and loop (-1:
  /// none, a constant 0).
  std::array<int, 3> threadDim = {-1, -1, -1}, blockDim = {-1, -1, -1};
  SmallVector<int> loopDim;
  /// Set when a map's coefficient or constant would overflow.
  bool overflowed = false;
};

} // namespace

LogicalResult Raiser::checkLeaf(Operation &op) {
  if (op.hasTrait<OpTrait::IsTerminator>())
    return success();
  if (isa<memref::LoadOp, memref::StoreOp>(op)) {
    Value memref = isa<memref::LoadOp>(op) ? cast<memref::LoadOp>(op).getMemRef()
                                           : cast<memref::StoreOp>(op).getMemRef();
    auto arg = dyn_cast<BlockArgument>(memref);
    if (!arg || arg.getOwner() != &kernel.getBody().front() ||
        arg.getArgNumber() >= kernel.getNumArguments())
      return fail("it accesses a buffer that is not a kernel argument");
    auto type = cast<MemRefType>(memref.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return fail(llvm::formatv("buffer arg{0} has no static row-major shape",
                                arg.getArgNumber()));
    if (!type.getElementType().isIntOrFloat())
      return fail(llvm::formatv("buffer arg{0} holds {1}, not numbers",
                                arg.getArgNumber(), type.getElementType()));
    return success();
  }
  if (isa<memref::AtomicRMWOp>(op))
    return fail("it updates memory atomically");
  if (isa<gpu::BarrierOp>(op))
    return fail("its threads synchronize at a barrier");
  if (isa<gpu::ShuffleOp, gpu::SubgroupReduceOp>(op))
    return fail("its threads exchange values within a warp");
  if (op.getName().getDialectNamespace() == "vector")
    return fail("it accesses memory with vectors (raise before vectorizing)");
  if (op.getName().getDialectNamespace() == "nvvm")
    return fail(llvm::formatv("it calls the NVVM intrinsic {0}", op.getName()));
  if (!isMemoryEffectFree(&op))
    return fail(llvm::formatv("{0} has side effects", op.getName()));
  return success();
}

/// Whether `condition` compares the buffers' addresses alone (a run-time
/// check that they lie apart): it is computed from their aligned pointers
/// and constants, with no id, loaded value or argument but the buffers.
static bool comparesBufferAddresses(Value condition) {
  SmallVector<Value> worklist = {condition};
  llvm::DenseSet<Value> seen;
  bool pointers = false;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    Operation *op = value.getDefiningOp();
    if (!op)
      return false;
    if (isa<memref::ExtractAlignedPointerAsIndexOp>(op)) {
      pointers = true;
      continue;
    }
    // "Apart" is a conjunction of disjunctions of `end <= start`
    // (buildBuffersApart): no negation and no other comparison.
    if (auto compare = dyn_cast<arith::CmpIOp>(op);
        compare && compare.getPredicate() != arith::CmpIPredicate::ule)
      return false;
    if (!isa<arith::CmpIOp, arith::AndIOp, arith::OrIOp, arith::AddIOp,
             arith::MulIOp, arith::ConstantOp>(op))
      return false;
    llvm::append_range(worklist, op->getOperands());
  }
  return pointers;
}

LogicalResult Raiser::walkNest(Block &block) {
  Operation *nested = nullptr;
  for (Operation &op : block) {
    if (op.getNumRegions() == 0) {
      if (failed(checkLeaf(op)))
        return failure();
      continue;
    }
    if (isa<memref::GenericAtomicRMWOp>(op))
      return fail("it updates memory atomically");
    if (nested)
      return fail(llvm::formatv("{0} and {1} side by side: the nest is not "
                                "perfect",
                                nested->getName(), op.getName()));
    nested = &op;
  }
  if (!nested) {
    inner = &block;
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(nested)) {
    if (loop.getNumRegionIterArgs() != 0)
      carrying.push_back(loop);
    else if (!carrying.empty())
      return fail("a loop inside a loop that carries values carries none");
    loops.push_back(loop);
    return walkNest(*loop.getBody());
  }
  if (!carrying.empty())
    return fail("a guard inside a loop that carries values");
  if (auto ifOp = dyn_cast<scf::IfOp>(nested)) {
    if (ifOp.getNumResults() == 0 && !ifOp.getElseRegion().empty() &&
        comparesBufferAddresses(ifOp.getCondition())) {
      // Two versions of the rest of the kernel, chosen by where the buffers
      // lie: the code as it was runs where they overlap.
      versions.push_back(&ifOp.getThenRegion());
      return walkNest(*ifOp.elseBlock());
    }
    if (ifOp.getNumResults() != 0 || !ifOp.getElseRegion().empty())
      return fail("an scf.if has an else branch or results");
    guards.push_back(ifOp.getCondition());
    return walkNest(*ifOp.thenBlock());
  }
  if (isa<scf::ParallelOp>(nested))
    return fail("it keeps an scf.parallel loop (a nest deeper than its "
                "launch maps)");
  return fail(llvm::formatv("{0} is control flow that depends on data",
                            nested->getName()));
}

/// Whether `value` is computed from a load of memory.
static bool isLoaded(Value value) {
  SmallVector<Value> worklist = {value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    Operation *op = current.getDefiningOp();
    if (!op)
      continue;
    if (isa<memref::LoadOp>(op) || op->getName().getDialectNamespace() == "vector")
      return true;
    llvm::append_range(worklist, op->getOperands());
  }
  return false;
}

/// Whether `index` is computed through integer arithmetic narrower than 64
/// bits, which may wrap where the affine form does not.
static bool usesNarrowArithmetic(Value index) {
  SmallVector<Value> worklist = {index};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto type = dyn_cast<IntegerType>(value.getType());
        type && type.getWidth() < 64)
      return true;
    if (Operation *op = value.getDefiningOp();
        op && op->getName().getDialectNamespace() == "arith")
      llvm::append_range(worklist, op->getOperands());
  }
  return false;
}

FailureOr<IdForm> Raiser::decode(Value index) {
  std::optional<AffineIndex> form = analysis.express(index);
  if (!form)
    return fail("an index is not an integer");
  IdForm result;
  result.loop.assign(loops.size(), 0);
  result.constant = form->constant;
  for (auto [atomIndex, coefficient] : form->terms) {
    const IndexAtom &atom = analysis.getAtoms()[atomIndex];
    int d = static_cast<int>(atom.dim);
    switch (atom.kind) {
    case IndexAtomKind::ThreadId:
      result.thread[d] += coefficient;
      break;
    case IndexAtomKind::BlockId:
      result.block[d] += coefficient;
      break;
    case IndexAtomKind::InductionVar: {
      auto *it = llvm::find_if(loops, [&](scf::ForOp loop) {
        return loop.getInductionVar() == atom.value;
      });
      if (it == loops.end())
        return fail("an index uses a loop outside the nest");
      result.loop[it - loops.begin()] += coefficient;
      break;
    }
    case IndexAtomKind::KernelArgument:
      return fail(llvm::formatv("an index depends on the kernel argument {0}, "
                                "not a constant",
                                atom.name));
    case IndexAtomKind::Opaque:
      if (isLoaded(atom.value))
        return fail("an index is loaded from memory (a gather or scatter)");
      return fail(llvm::formatv("an index is not affine in the thread ids "
                                "and loop variables ({0})",
                                atom.name));
    }
  }
  if (usesNarrowArithmetic(index))
    return fail("an index is computed in integers narrower than 64 bits, "
                "which may wrap");
  return result;
}

/// Loops that carry values raise when they accumulate elements in
/// registers: the outermost starts each value from a load of the element
/// and its result is stored back to that element; a nested carrying loop
/// starts from the enclosing loop's value and hands its result to the
/// enclosing loop's yield; the innermost one's body computes the values.
LogicalResult Raiser::checkCarried() {
  if (carrying.empty())
    return success();
  scf::ForOp outer = carrying.front();
  unsigned count = outer.getNumRegionIterArgs();
  for (auto [level, loop] : llvm::enumerate(carrying)) {
    if (loop.getNumRegionIterArgs() != count)
      return fail("nested loops carry different numbers of values");
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (unsigned i = 0; i < count; ++i) {
      Value init = loop.getInitArgs()[i], result = loop.getResult(i);
      if (level > 0) {
        scf::ForOp enclosing = carrying[level - 1];
        auto enclosingYield =
            cast<scf::YieldOp>(enclosing.getBody()->getTerminator());
        if (init != enclosing.getRegionIterArgs()[i] ||
            !enclosing.getRegionIterArgs()[i].hasOneUse() ||
            enclosingYield.getOperand(i) != result || !result.hasOneUse())
          return fail("nested loops pass a carried value on in another way");
        continue;
      }
      auto load = init.getDefiningOp<memref::LoadOp>();
      if (!load || load->getBlock() != loop->getBlock())
        return fail("a carried value does not start from a load");
      if (!load.getResult().hasOneUse())
        return fail("the load a carried value starts from has other uses");
      if (!result.hasOneUse())
        return fail("a carried value is used after its loop other than "
                    "by one store");
      auto store = dyn_cast<memref::StoreOp>(*result.getUsers().begin());
      if (!store || store.getValueToStore() != result ||
          store->getBlock() != loop->getBlock() ||
          store.getMemRef() != load.getMemRef() ||
          store.getIndices() != load.getIndices())
        return fail("a carried value is not stored back to the element it "
                    "started from");
      carriedAccesses.insert(load);
      carriedAccesses.insert(store);
    }
    if (level + 1 < carrying.size())
      continue;
    // The innermost: its iterations read and update the elements.
    for (unsigned i = 0; i < count; ++i)
      space.carried.push_back(
          {loop.getRegionIterArgs()[i], yield.getOperand(i), ~0u});
  }
  return success();
}

LogicalResult Raiser::decideDims() {
  // Every index the kernel computes: the accesses' and the guards'.
  SmallVector<IdForm> forms;
  SmallVector<Value> indices;
  for (Operation *op : getAccesses()) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      llvm::append_range(indices, load.getIndices());
    else
      llvm::append_range(indices, cast<memref::StoreOp>(op).getIndices());
  }
  for (Value index : indices) {
    FailureOr<IdForm> form = decode(index);
    if (failed(form))
      return failure();
    forms.push_back(*form);
  }
  // The guards' comparisons count as well: a guard on the block id alone
  // keeps the thread and block ids apart.
  SmallVector<Value> conditions(guards.begin(), guards.end());
  while (!conditions.empty()) {
    Value condition = conditions.pop_back_val();
    if (auto both = condition.getDefiningOp<arith::AndIOp>()) {
      conditions.push_back(both.getLhs());
      conditions.push_back(both.getRhs());
    } else if (auto compare = condition.getDefiningOp<arith::CmpIOp>()) {
      for (Value side : {compare.getLhs(), compare.getRhs()}) {
        FailureOr<IdForm> form = decode(side);
        if (failed(form))
          return failure();
        forms.push_back(*form);
      }
    }
  }
  for (unsigned d = 0; d < 3; ++d) {
    int64_t threads = space.blockSize[d], blocks = grid[d];
    bool global = threads > 1 && blocks > 1 &&
                  llvm::all_of(forms, [&](const IdForm &form) {
                    return form.block[d] == threads * form.thread[d];
                  });
    SpaceDim dim;
    dim.hardware = static_cast<gpu::Dimension>(d);
    if (global) {
      dim.source = SpaceDimSource::Global;
      dim.extent = threads * blocks;
      threadDim[d] = blockDim[d] = space.dims.size();
      space.dims.push_back(dim);
      continue;
    }
    if (threads > 1) {
      dim.source = SpaceDimSource::Thread;
      dim.extent = threads;
      threadDim[d] = space.dims.size();
      space.dims.push_back(dim);
    }
    if (blocks > 1) {
      dim.source = SpaceDimSource::Block;
      dim.extent = blocks;
      blockDim[d] = space.dims.size();
      space.dims.push_back(dim);
    }
  }
  for (scf::ForOp loop : loops) {
    auto constant = [&](Value value) -> std::optional<int64_t> {
      auto [lower, upper] = analysis.getRange(value);
      if (lower != upper)
        return std::nullopt;
      return lower;
    };
    std::optional<int64_t> lb = constant(loop.getLowerBound()),
                           ub = constant(loop.getUpperBound()),
                           step = constant(loop.getStep());
    if (!lb || !ub || !step)
      return fail("a loop's bounds or step are not constants");
    if (loop.getUnsignedCmp())
      return fail("a loop compares its bounds unsigned");
    if (*step <= 0 || *ub <= *lb)
      return fail("a loop runs no iteration");
    // Trip counts and the indices they reach fit 62 bits, so that the maps'
    // coefficients and constants do not overflow.
    constexpr int64_t limit = int64_t(1) << 62;
    if (*lb <= -limit || *ub >= limit || *step >= limit)
      return fail("a loop's bounds or step exceed 2^62");
    SpaceDim dim;
    dim.source = SpaceDimSource::Loop;
    dim.loop = loop;
    dim.lower = *lb;
    dim.step = *step;
    dim.extent = (*ub - *lb - 1) / *step + 1;
    loopDim.push_back(space.dims.size());
    space.dims.push_back(dim);
  }
  return success();
}

AffineExpr Raiser::toExpr(const IdForm &form) {
  MLIRContext *context = kernel.getContext();
  AffineExpr expr = getAffineConstantExpr(form.constant, context);
  for (unsigned d = 0; d < 3; ++d) {
    if (threadDim[d] >= 0 && threadDim[d] == blockDim[d]) {
      expr = expr + getAffineDimExpr(threadDim[d], context) * form.thread[d];
      continue;
    }
    if (threadDim[d] >= 0)
      expr = expr + getAffineDimExpr(threadDim[d], context) * form.thread[d];
    if (blockDim[d] >= 0)
      expr = expr + getAffineDimExpr(blockDim[d], context) * form.block[d];
  }
  for (auto [i, coefficient] : llvm::enumerate(form.loop)) {
    const SpaceDim &dim = space.dims[loopDim[i]];
    std::optional<int64_t> scaled = llvm::checkedMul(coefficient, dim.step);
    std::optional<int64_t> offset = llvm::checkedMul(coefficient, dim.lower);
    if (!scaled || !offset) {
      overflowed = true;
      continue;
    }
    expr = expr + getAffineDimExpr(loopDim[i], context) * *scaled + *offset;
  }
  return simplifyAffineExpr(expr, space.dims.size(), 0);
}

LogicalResult Raiser::applyGuard(Value condition) {
  if (auto both = condition.getDefiningOp<arith::AndIOp>())
    return success(succeeded(applyGuard(both.getLhs())) &&
                   succeeded(applyGuard(both.getRhs())));
  auto [lower, upper] = analysis.getRange(condition);
  if (lower == upper && lower != 0)
    return success(); // always true
  auto compare = condition.getDefiningOp<arith::CmpIOp>();
  if (!compare)
    return fail("a guard is not a bound on the indices");
  using P = arith::CmpIPredicate;
  P predicate = compare.getPredicate();
  bool unsignedCompare = predicate == P::ult || predicate == P::ule ||
                         predicate == P::ugt || predicate == P::uge;
  if (unsignedCompare && (analysis.getRange(compare.getLhs()).first < 0 ||
                          analysis.getRange(compare.getRhs()).first < 0))
    return fail("a guard compares values that may be negative as unsigned");
  FailureOr<IdForm> lhs = decode(compare.getLhs());
  if (failed(lhs))
    return failure();
  FailureOr<IdForm> rhs = decode(compare.getRhs());
  if (failed(rhs))
    return failure();
  // Bring the guard to `e < 0` or `e <= 0`.
  bool lessThan = predicate == P::slt || predicate == P::ult ||
                  predicate == P::sle || predicate == P::ule;
  bool strict = predicate == P::slt || predicate == P::ult ||
                predicate == P::sgt || predicate == P::ugt;
  if (!lessThan && predicate != P::sgt && predicate != P::ugt &&
      predicate != P::sge && predicate != P::uge)
    return fail("a guard tests an index for (in)equality");
  IdForm &a = lessThan ? *lhs : *rhs;
  IdForm &b = lessThan ? *rhs : *lhs;
  IdForm difference = a;
  for (unsigned d = 0; d < 3; ++d) {
    difference.thread[d] -= b.thread[d];
    difference.block[d] -= b.block[d];
  }
  for (unsigned i = 0; i < loops.size(); ++i)
    difference.loop[i] -= b.loop[i];
  difference.constant -= b.constant;
  AffineExpr expr = toExpr(difference);
  // expr = c * d + k: d < ceil(-k / c) (strict), d <= floor(-k / c).
  int found = -1;
  int64_t coefficient = 0;
  for (unsigned d = 0; d < space.dims.size(); ++d) {
    if (!expr.isFunctionOfDim(d))
      continue;
    if (found >= 0)
      return fail("a guard bounds a combination of indices");
    found = d;
  }
  SmallVector<int64_t> at0(space.dims.size(), 0);
  AffineMap map = AffineMap::get(space.dims.size(), 0, expr);
  int64_t k = map.compose(at0)[0];
  if (found < 0) {
    if (strict ? k < 0 : k <= 0)
      return success();
    return fail("a guard lets no thread through");
  }
  SmallVector<int64_t> at1 = at0;
  at1[found] = 1;
  coefficient = map.compose(at1)[0] - k;
  if (coefficient <= 0)
    return fail("a guard bounds an index from below");
  if (k <= INT64_MIN + 1)
    return fail("a guard's bound overflows");
  int64_t last = strict ? llvm::divideFloorSigned(-k - 1, coefficient)
                        : llvm::divideFloorSigned(-k, coefficient);
  if (last < 0)
    return fail("a guard lets no thread through");
  SpaceDim &dim = space.dims[found];
  dim.extent = std::min(dim.extent, last + 1);
  return success();
}

LogicalResult Raiser::collectBody() {
  // The operands, in order of first access.
  auto operandFor = [&](Value memref, ValueRange indices,
                        bool write) -> FailureOr<unsigned> {
    SmallVector<AffineExpr> exprs;
    for (Value index : indices) {
      FailureOr<IdForm> form = decode(index);
      if (failed(form))
        return failure();
      exprs.push_back(toExpr(*form));
    }
    auto buffer = cast<BlockArgument>(memref);
    AffineMap map = AffineMap::get(space.dims.size(), 0, exprs,
                                   kernel.getContext());
    for (auto [i, operand] : llvm::enumerate(space.operands)) {
      if (operand.buffer != buffer)
        continue;
      if (operand.map == map) {
        (write ? operand.written : operand.read) = true;
        return i;
      }
      if (write || operand.written)
        return fail(llvm::formatv("it reads or writes buffer arg{0}, which "
                                  "it writes, at two different elements",
                                  buffer.getArgNumber()));
    }
    SpaceOperand operand;
    operand.buffer = buffer;
    operand.map = map;
    (write ? operand.written : operand.read) = true;
    space.operands.push_back(operand);
    return space.operands.size() - 1;
  };

  // The computation: what the stored values are computed from, up to the
  // loads, constants and kernel arguments.
  llvm::SetVector<Operation *> computation;
  SmallVector<Value> worklist;
  for (Operation *access : getAccesses()) {
    Operation &op = *access;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      FailureOr<unsigned> index =
          operandFor(load.getMemRef(), load.getIndices(), false);
      if (failed(index))
        return failure();
      if (space.operands[*index].written)
        if (llvm::any_of(space.operandOf, [&](auto &entry) {
              return entry.second == *index && isa<memref::StoreOp>(entry.first);
            }))
          return fail("it reads an element after writing it");
      space.operandOf[load] = *index;
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      FailureOr<unsigned> index =
          operandFor(store.getMemRef(), store.getIndices(), true);
      if (failed(index))
        return failure();
      if (llvm::any_of(space.operandOf, [&](auto &entry) {
            return entry.second == *index && isa<memref::StoreOp>(entry.first);
          }))
        return fail("it writes one element twice");
      space.operandOf[store] = *index;
      if (!carriedAccesses.contains(store)) {
        worklist.push_back(store.getValueToStore());
        continue;
      }
      // A carried value: what the innermost loop yields for it.
      unsigned position =
          cast<OpResult>(store.getValueToStore()).getResultNumber();
      space.carried[position].operand = *index;
      worklist.push_back(space.carried[position].yielded);
    }
  }
  // A carried element is read once, before its loops: a load of it inside
  // them would see what the register holds, not memory.
  for (const CarriedValue &carried : space.carried)
    for (auto [op, operand] : space.operandOf)
      if (operand == carried.operand && !carriedAccesses.contains(op))
        return fail("a loop reads or writes an element it carries in a "
                    "register");
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (llvm::any_of(space.carried, [&](const CarriedValue &carried) {
          return carried.value == value;
        }))
      continue; // the element's value so far
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &kernel.getBody().front() &&
          arg.getArgNumber() < kernel.getNumArguments())
        continue; // a scalar argument
      return fail("the computation uses a loop variable");
    }
    Operation *op = value.getDefiningOp();
    if (isa<memref::LoadOp>(op))
      continue;
    if (op->getName().getDialectNamespace() == "gpu" ||
        op->getName().getDialectNamespace() == "nvvm")
      return fail(llvm::formatv("the computation uses {0}, which depends on "
                                "the mapping",
                                op->getName()));
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      return fail(llvm::formatv("the computation uses {0}", op->getName()));
    computation.insert(op);
    llvm::append_range(worklist, op->getOperands());
  }
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (computation.contains(op) || space.operandOf.count(op))
      space.body.push_back(op);
  });
  return success();
}

FailureOr<IterationSpace> Raiser::raise() {
  space.kernel = kernel;
  if (!kernel.getKnownBlockSizeAttr() || !kernel.getKnownGridSizeAttr())
    return fail("its launches do not all have the same constant grid and "
                "block sizes");
  for (unsigned d = 0; d < 3; ++d) {
    space.blockSize[d] = kernel.getKnownBlockSizeAttr()[d];
    grid[d] = kernel.getKnownGridSizeAttr()[d];
  }
  if (!kernel.getWorkgroupAttributions().empty() ||
      !kernel.getPrivateAttributions().empty())
    return fail("it stages data in workgroup or private memory");
  if (!kernel.getBody().hasOneBlock())
    return fail("its control flow is unstructured (several blocks)");
  if (failed(walkNest(kernel.getBody().front())))
    return failure();
  if (failed(checkCarried()))
    return failure();
  // Memory is accessed in the innermost block only, but for the elements
  // loops carry in registers.
  if (llvm::any_of(getAccesses(), [&](Operation *op) {
        return op->getBlock() != inner && !carriedAccesses.contains(op);
      }))
    return fail("it accesses memory outside its innermost loop");
  if (failed(decideDims()))
    return failure();
  for (Value guard : guards)
    if (failed(applyGuard(guard)))
      return failure();
  if (failed(collectBody()))
    return failure();
  if (overflowed)
    return fail("an index's coefficients overflow 64 bits");

  // Iterator kinds: a dimension is parallel when every output's map uses
  // it, a reduction when none does.
  SmallVector<const SpaceOperand *> outputs;
  for (const SpaceOperand &operand : space.operands)
    if (operand.written)
      outputs.push_back(&operand);
  if (outputs.empty())
    return fail("it writes nothing");
  auto isSinglePoint = [](const SpaceDim &dim) {
    return dim.source != SpaceDimSource::Loop && dim.extent == 1;
  };
  if (llvm::none_of(space.dims, [&](const SpaceDim &dim) {
        return llvm::any_of(outputs, [&](const SpaceOperand *output) {
          return output->map.isFunctionOfDim(&dim - space.dims.data());
        });
      })) {
    // A kernel of one thread in one block whose loops all accumulate
    // computes a single point (a whole-tensor reduction): a parallel
    // dimension of one point, the thread, stands first for it.
    if (llvm::any_of(space.dims, [](const SpaceDim &dim) {
          return dim.source != SpaceDimSource::Loop;
        }))
      return fail("it has no parallel dimension (its threads write the "
                  "same elements)");
    SpaceDim point;
    point.source = SpaceDimSource::Thread;
    point.extent = 1;
    space.dims.insert(space.dims.begin(), point);
    for (SpaceOperand &operand : space.operands)
      operand.map = operand.map.shiftDims(1);
  }
  for (unsigned d = 0; d < space.dims.size(); ++d) {
    SpaceDim &dim = space.dims[d];
    unsigned using_ = llvm::count_if(outputs, [&](const SpaceOperand *output) {
      return output->map.isFunctionOfDim(d);
    });
    if (using_ != 0 && using_ != outputs.size())
      return fail(llvm::formatv("d{0} indexes some of its outputs and not "
                                "others",
                                d));
    dim.reduction = using_ == 0 && !isSinglePoint(dim);
    if (dim.reduction && dim.source != SpaceDimSource::Loop)
      return fail(llvm::formatv("its threads along {0} write the same elements",
                                kDims[static_cast<int>(dim.hardware)]));
  }
  // Distinct parallel points write distinct elements: each output index
  // is a multiple of at most one parallel dimension (plus a constant).
  for (const SpaceOperand *output : outputs)
    for (AffineExpr expr : output->map.getResults()) {
      unsigned count = 0;
      for (unsigned d = 0; d < space.dims.size(); ++d)
        count += expr.isFunctionOfDim(d);
      if (count > 1 || !(expr.isPureAffine()))
        return fail("an output index combines several indices");
    }
  if (!space.getReductionDims().empty())
    for (const SpaceOperand *output : outputs)
      if (!output->read)
        return fail("a reduction overwrites its output instead of "
                    "accumulating");
  return space;
}

FailureOr<IterationSpace> mlir::autoprof::raiseKernel(gpu::GPUFuncOp kernel,
                                                      std::string &why) {
  MemoryAccessAnalysis analysis(kernel);
  return raiseKernel(kernel, analysis, why);
}

FailureOr<IterationSpace>
mlir::autoprof::raiseKernel(gpu::GPUFuncOp kernel,
                            MemoryAccessAnalysis &analysis, std::string &why) {
  Raiser raiser(kernel, analysis, why);
  return raiser.raise();
}

//===----------------------------------------------------------------------===//
// The affine nest
//===----------------------------------------------------------------------===//

void mlir::autoprof::buildAffineNest(OpBuilder &builder, Location loc,
                                     const IterationSpace &space,
                                     ValueRange arguments) {
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Value> dimValues(space.dims.size());
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> parallel = space.getParallelDims();
  for (unsigned d : parallel)
    ranges.push_back(space.dims[d].extent);
  auto nest = affine::AffineParallelOp::create(
      builder, loc, TypeRange{}, ArrayRef<arith::AtomicRMWKind>{}, ranges);
  builder.setInsertionPointToStart(nest.getBody());
  for (auto [i, d] : llvm::enumerate(parallel))
    dimValues[d] = nest.getIVs()[i];
  for (unsigned d : space.getReductionDims()) {
    auto loop = affine::AffineForOp::create(builder, loc, 0,
                                            space.dims[d].extent);
    dimValues[d] = loop.getInductionVar();
    builder.setInsertionPointToStart(loop.getBody());
  }
  IRMapping mapping;
  gpu::GPUFuncOp kernel = space.kernel;
  for (auto [old, replacement] : llvm::zip(kernel.getArguments(), arguments))
    mapping.map(old, replacement);
  for (Operation *op : space.body) {
    auto it = space.operandOf.find(op);
    if (it == space.operandOf.end()) {
      builder.clone(*op, mapping);
      continue;
    }
    const SpaceOperand &operand = space.operands[it->second];
    Value buffer = mapping.lookup(operand.buffer);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value value = affine::AffineLoadOp::create(builder, loc, buffer,
                                                 operand.map, dimValues);
      mapping.map(load.getResult(), value);
      for (const CarriedValue &carried : space.carried)
        if (carried.operand == it->second)
          mapping.map(carried.value, value);
    } else {
      affine::AffineStoreOp::create(builder, loc,
                                    mapping.lookup(space.getStoredValue(op)),
                                    buffer, operand.map, dimValues);
    }
  }
}
