//===- NestGeneration.cpp - Kernels generated from a raised nest ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The new body of a raised kernel, as its schedule says
// (autoprof/Schedule/NestSchedule.h): the threads of a one-dimensional
// launch take the parallel points in the schedule's order, the contiguous
// dimension innermost; each runs the reductions in loops that keep the
// accumulated elements in registers and stores each output once.
//
// With L lanes per point, L consecutive threads of a warp share a point:
// lane l runs every L-th point of the linearized reductions (the reduction
// dimension the largest loads walk contiguously innermost) from the
// combination's neutral element; butterfly shuffles among the L lanes
// (nvvm.shfl.sync with a mask naming just them) combine the partial
// results, and the first lane combines the output's element with the total
// and stores it. Values narrower than 32 bits travel widened and come back
// bit for bit; 64-bit values travel as two halves. Integer combinations and
// floating-point minima and maxima come out exact; floating-point sums and
// products are reassociated, so the kernel is marked
// `autoprof.reassociated` and its verification bounds the difference by the
// terms' magnitude.
//
// With a split S, S chunks of threads (the outermost of the linear thread
// index) take every S-th group of the linearized reduction points, each
// from the neutral element, and combine their totals (after the lanes'
// shuffles) into the output with an atomic operation
// (memref.atomic_rmw): floating-point sums are reassociated, so the kernel
// is marked as above; products, which have no atomic form, are refused.
//
// With stacked lanes, a block's threads form L rows of consecutive points
// (each chunk of a split takes whole blocks): each thread puts its partial
// result in the block's shared memory, and after a barrier each thread of
// the first row combines its point's rows, in row order, into the output.
//
// With a vector width V, each thread takes V consecutive points along the
// contiguous dimension: each operation of the body runs once per point, the
// points' copies side by side, so that their accesses of neighbouring
// elements merge into one vector access where they are aligned
// (mergeNeighbouringAccesses).
//
// Reordering the points is the same computation only where the buffers the
// nest writes lie apart from the others. Where their origins do not prove
// it, each launch checks it on the host and launches a copy of the original
// kernel (autoprof.fallback_of) where they overlap, as fold-host-loop does.
//
//===----------------------------------------------------------------------===//

#include "NestGeneration.h"

#include "Families.h"
#include "ReductionSplit.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

/// Bytes of `operand`'s element.
static int64_t getElementBytes(const SpaceOperand &operand) {
  auto type = cast<MemRefType>(operand.buffer.getType());
  return std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

std::optional<double>
mlir::autoprof::rewrites::getNestMappingScore(const RewriteEvidence &evidence) {
  // (One point, a whole-tensor reduction, has no mapping but its
  // reductions': map-lanes and map-split.)
  if (!evidence.raises || evidence.raisedContiguousOnX ||
      evidence.raisedParallelPoints < 2)
    return std::nullopt;
  double base = evidence.rowWalkShare > 0.5      ? 4.4
                : !evidence.raisedContiguousInLoop ? 7.5
                : evidence.raisedContraction     ? 9.95
                                                 : 11.95;
  if (evidence.isCoalesced())
    base -= 6;
  return base;
}

std::optional<double>
mlir::autoprof::rewrites::getNestReuseScore(const RewriteEvidence &evidence) {
  std::optional<double> base = getNestMappingScore(evidence);
  if (!base || !evidence.raisedContraction ||
      evidence.raisedParallelPoints < 8 * evidence.getResidentThreadSlots())
    return std::nullopt;
  return base;
}

std::optional<int64_t>
mlir::autoprof::rewrites::chooseNestSplit(const RewriteEvidence &evidence,
                                          int64_t lanes, int64_t maxSplit) {
  return mlir::autoprof::chooseNestSplit(
      int64_t(evidence.raisedParallelPoints),
      int64_t(evidence.raisedReductionPoints), lanes,
      int64_t(evidence.getResidentThreadSlots()), maxSplit);
}

NestProblem mlir::autoprof::rewrites::getNestProblem(
    const IterationSpace &space) {
  NestProblem problem;
  SmallVector<unsigned> parallel = space.getParallelDims();
  unsigned contiguous = space.getContiguousDim();
  for (auto [i, d] : llvm::enumerate(parallel)) {
    problem.parallelExtents.push_back(space.dims[d].extent);
    if (d == contiguous)
      problem.contiguous = i;
  }
  problem.reductionPoints = space.getReductionPoints();
  // The reduction dimension along which the most bytes the nest only reads
  // are contiguous, if that is half of them at least. An operand that no
  // parallel dimension indexes is left out: every point reads the same
  // elements, a warp once (unless there is one point).
  SmallVector<unsigned> reductions = space.getReductionDims();
  bool single = space.getParallelPoints() == 1;
  auto isPointOwn = [&](const SpaceOperand &operand) {
    return !operand.written &&
           (single || llvm::any_of(parallel, [&](unsigned d) {
             return operand.map.isFunctionOfDim(d);
           }));
  };
  int64_t total = 0, best = 0;
  for (const SpaceOperand &operand : space.operands)
    if (isPointOwn(operand))
      total += getElementBytes(operand);
  for (auto [i, d] : llvm::enumerate(reductions)) {
    problem.reductionExtents.push_back(space.dims[d].extent);
    int64_t bytes = 0;
    for (const SpaceOperand &operand : space.operands)
      if (isPointOwn(operand) && space.getStride(operand, d) == 1)
        bytes += getElementBytes(operand);
    if (bytes > best && 2 * bytes >= total) {
      best = bytes;
      problem.contiguousReduction = i;
    }
  }
  // The reuse dimension: the parallel dimension, other than the contiguous
  // one, that the most bytes loaded per reduction point do not depend on.
  // Loads that do not vary along the contiguous dimension do not count: a
  // warp reads them once anyway.
  int64_t bestShared = 0;
  for (auto [i, d] : llvm::enumerate(parallel)) {
    if (d == contiguous || space.dims[d].extent < 2)
      continue;
    int64_t bytes = 0;
    for (const SpaceOperand &operand : space.operands)
      if (!operand.written && operand.map.isFunctionOfDim(contiguous) &&
          !operand.map.isFunctionOfDim(d) &&
          llvm::any_of(reductions, [&](unsigned r) {
            return operand.map.isFunctionOfDim(r);
          }))
        bytes += getElementBytes(operand);
    if (bytes > bestShared) {
      bestShared = bytes;
      problem.reuse = i;
    }
  }
  // The outputs whose atomic combination would be a compare-and-swap loop:
  // PTX's atomic instructions take 32- and 64-bit elements (and sums of f16
  // and bf16), and no floating-point minimum or maximum.
  for (Operation *op : space.body) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store)
      continue;
    Type element = store.getValueToStore().getType();
    if (!element.isIntOrFloat())
      continue;
    unsigned bits = element.getIntOrFloatBitWidth();
    Operation *combiner = space.getStoredValue(store).getDefiningOp();
    bool halfSum = isa_and_nonnull<arith::AddFOp>(combiner) &&
                   (element.isF16() || element.isBF16());
    bool floatExtremum =
        isa_and_nonnull<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                        arith::MinNumFOp>(combiner);
    if ((bits < 32 && !halfSum) || floatExtremum)
      problem.compareSwapPointsPerWord = std::max<int64_t>(
          problem.compareSwapPointsPerWord, std::max(1u, 32 / bits));
  }
  return problem;
}

/// With lanes: the combining operation of each accumulated operand, or why
/// there is none. The element so far (the operand's loads in the body, or
/// the value a loop carries for it) has one use, the combiner, whose other
/// operand is the point's contribution; the combiner's result is only
/// stored (or carried on), once per point.
static LogicalResult findNestCombiners(const IterationSpace &space,
                                       NestPlan &plan, std::string &why) {
  llvm::SmallPtrSet<Operation *, 32> body(space.body.begin(),
                                          space.body.end());
  for (auto [index, operand] : llvm::enumerate(space.operands)) {
    if (!operand.written)
      continue;
    std::string name = "output #" + std::to_string(index);
    if (!operand.read) {
      why = name + " is written without being accumulated";
      return failure();
    }
    Operation *store = nullptr;
    SmallVector<Value> current;
    for (Operation *op : space.body) {
      auto it = space.operandOf.find(op);
      if (it == space.operandOf.end() || it->second != index)
        continue;
      if (isa<memref::StoreOp>(op)) {
        if (store) {
          why = name + " is stored twice per point";
          return failure();
        }
        store = op;
      } else {
        current.push_back(op->getResult(0));
      }
    }
    for (const CarriedValue &carried : space.carried)
      if (carried.operand == index)
        current.push_back(carried.value);
    Operation *combiner =
        store ? space.getStoredValue(store).getDefiningOp() : nullptr;
    auto isCurrent = [&](Value value) {
      return llvm::is_contained(current, value);
    };
    unsigned uses = 0;
    for (Value value : current)
      for (Operation *user : value.getUsers())
        if (body.contains(user))
          uses += user == combiner ? 1 : 2;
    if (!combiner || !body.contains(combiner) || uses != 1 ||
        llvm::count_if(combiner->getOperands(), isCurrent) != 1 ||
        !getCombinerIdentity(combiner) ||
        llvm::any_of(combiner->getResult(0).getUsers(), [&](Operation *user) {
          return body.contains(user) && user != store;
        })) {
      why = name + " is not combined once per point by an addition, "
                   "product, minimum, maximum or bitwise operation with a "
                   "contribution of its own";
      return failure();
    }
    unsigned width = combiner->getResult(0).getType().getIntOrFloatBitWidth();
    if (width > 64 || (width > 32 && width != 64)) {
      why = name + " has elements of " + std::to_string(width) +
            " bits, which the lanes do not exchange";
      return failure();
    }
    plan.accumulated.push_back(index);
    plan.combiners.push_back(combiner);
  }
  if (plan.accumulated.empty()) {
    why = "the nest accumulates no output";
    return failure();
  }
  return success();
}

int64_t mlir::autoprof::rewrites::getStagedRowPadding(Type element) {
  int64_t bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  return std::max<int64_t>(1, 16 / bytes);
}

/// With a staged chunk: how the block reads each operand, or why nothing is
/// worth staging or the slices do not fit the block's shared memory. An
/// operand the nest only reads, indexed by some reduction dimension and by
/// one of the tile's two dimensions but not the other, is staged along the
/// one it indexes: the tile's points along the other share each element.
static LogicalResult findNestStaging(const GpuTarget &gpu,
                                     const NestProblem &problem, NestPlan &plan,
                                     std::string &why) {
  const IterationSpace &space = plan.space;
  const NestSchedule &schedule = plan.schedule;
  SmallVector<unsigned> parallel = space.getParallelDims();
  SmallVector<unsigned> reductions = space.getReductionDims();
  unsigned contiguous = parallel[problem.contiguous];
  unsigned reuse = parallel[schedule.reuseDim];
  unsigned innermostReduction = reductions[schedule.reductionOrder.back()];
  int64_t columns = kStagedTileColumns * schedule.vector;
  int64_t rows = schedule.threadsPerBlock / kStagedTileColumns * schedule.reuse;
  int64_t bytes = 0;
  bool any = false;
  for (const SpaceOperand &operand : space.operands) {
    NestStaging staging = NestStaging::None;
    bool alongContiguous = operand.map.isFunctionOfDim(contiguous);
    bool alongReuse = operand.map.isFunctionOfDim(reuse);
    if (!operand.written && alongContiguous != alongReuse &&
        llvm::any_of(reductions, [&](unsigned d) {
          return operand.map.isFunctionOfDim(d);
        }))
      staging =
          alongReuse ? NestStaging::AlongReuse : NestStaging::AlongContiguous;
    unsigned along = staging == NestStaging::AlongReuse ? reuse : contiguous;
    bool alongChunk = staging != NestStaging::None &&
                      space.getStride(operand, along) != 1 &&
                      space.getStride(operand, innermostReduction) == 1;
    plan.staging.push_back(staging);
    plan.stagedAlongChunk.push_back(alongChunk);
    if (staging == NestStaging::None)
      continue;
    any = true;
    // A slice of chunk x extent elements, each row padded where the copy
    // walks the chunk.
    int64_t extent = staging == NestStaging::AlongReuse ? rows : columns;
    Type element = cast<MemRefType>(operand.buffer.getType()).getElementType();
    if (alongChunk)
      extent += getStagedRowPadding(element);
    bytes += schedule.stageChunk * extent * getElementBytes(operand);
  }
  if (!any) {
    why = "no operand is shared by the tile's points along one of its two "
          "dimensions";
    return failure();
  }
  if (bytes > gpu.staticSharedPerBlock) {
    why = "the staged slices take " + std::to_string(bytes) +
          " bytes of shared memory, more than a block's " +
          std::to_string(gpu.staticSharedPerBlock);
    return failure();
  }
  return success();
}

/// The atomic operation that combines a partial result into an element as
/// `combiner` does, if the lowering to PTX has one (products have none).
static std::optional<arith::AtomicRMWKind>
getAtomicCombination(Operation *combiner) {
  using Kind = arith::AtomicRMWKind;
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(combiner)
      .Case([](arith::AddFOp) { return Kind::addf; })
      .Case([](arith::AddIOp) { return Kind::addi; })
      .Case([](arith::MaximumFOp) { return Kind::maximumf; })
      .Case([](arith::MinimumFOp) { return Kind::minimumf; })
      .Case([](arith::MaxNumFOp) { return Kind::maxnumf; })
      .Case([](arith::MinNumFOp) { return Kind::minnumf; })
      .Case([](arith::MaxSIOp) { return Kind::maxs; })
      .Case([](arith::MinSIOp) { return Kind::mins; })
      .Case([](arith::MaxUIOp) { return Kind::maxu; })
      .Case([](arith::MinUIOp) { return Kind::minu; })
      .Case([](arith::OrIOp) { return Kind::ori; })
      .Case([](arith::AndIOp) { return Kind::andi; })
      .Case([](arith::XOrIOp) { return Kind::xori; })
      .Default([](Operation *) { return std::nullopt; });
}

FailureOr<NestPlan> mlir::autoprof::rewrites::matchNestPlan(
    const RewriteTarget &target,
    llvm::function_ref<NestShape(const NestProblem &)> getShape,
    std::string &why) {
  FailureOr<IterationSpace> space = raiseKernel(target.kernel, why);
  if (failed(space)) {
    why = "the kernel does not raise: " + why;
    return failure();
  }
  // The launch's shape is the schedule's to choose.
  if (std::optional<std::string> tied = checkBlockShapeIsFree(target.kernel)) {
    why = *tied;
    return failure();
  }
  for (gpu::LaunchFuncOp launch : target.launches)
    if (launch.getAsyncToken() || launch.hasClusterSize()) {
      why = "a launch is asynchronous or has a cluster size";
      return failure();
    }
  // The nest reorders the points, which is the same computation only when
  // no buffer it writes overlaps another it accesses: proved from the
  // buffers' origins, or else checked on the host before each launch.
  std::string distinct;
  bool versioned = !proveDistinctBuffers(target.launches, distinct);
  if (versioned)
    for (gpu::LaunchFuncOp launch : target.launches) {
      llvm::SmallPtrSet<Value, 8> passed;
      for (Value operand : launch.getKernelOperands())
        if (isa<MemRefType>(operand.getType()) &&
            !passed.insert(operand).second) {
          why = "a launch passes one buffer to two arguments";
          return failure();
        }
    }
  NestProblem problem = getNestProblem(*space);
  NestShape shape = getShape(problem);
  std::optional<NestSchedule> schedule = scheduleNest(problem, shape, why);
  if (!schedule)
    return failure();
  NestPlan plan{std::move(*space), std::move(*schedule), versioned, {}, {}};
  if ((shape.lanes > 1 || shape.split > 1) &&
      failed(findNestCombiners(plan.space, plan, why)))
    return failure();
  if (shape.stageChunk > 0 &&
      failed(findNestStaging(*target.gpu, problem, plan, why)))
    return failure();
  if (shape.split > 1)
    for (auto [operand, combiner] :
         llvm::zip(plan.accumulated, plan.combiners))
      if (!getAtomicCombination(combiner)) {
        why = "output #" + std::to_string(operand) + " is combined by '" +
              combiner->getName().getStringRef().str() +
              "', which has no atomic form to combine the chunks";
        return failure();
      }
  return plan;
}

/// Where the buffers lie apart, the launch (returned, for its new geometry)
/// runs the rewritten kernel; where they do not, a copy of it runs the
/// fallback with the original geometry.
SmallVector<gpu::LaunchFuncOp> mlir::autoprof::rewrites::versionNestLaunches(
    RewriterBase &rewriter, const RewriteTarget &target,
    const IterationSpace &space) {
  gpu::GPUFuncOp kernel = target.kernel;
  MLIRContext *context = kernel.getContext();
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  std::string name = (kernel.getName() + "_unmapped").str();
  for (unsigned suffix = 1; gpuModule.lookupSymbol(name); ++suffix)
    name = (kernel.getName() + "_unmapped" + Twine(suffix)).str();
  rewriter.setInsertionPointAfter(kernel);
  auto fallback = cast<gpu::GPUFuncOp>(rewriter.clone(*kernel));
  rewriter.modifyOpInPlace(fallback, [&] {
    fallback.setName(name);
    AutoProfDialect::FallbackOfAttrHelper(context).setAttr(
        fallback, FlatSymbolRefAttr::get(kernel.getNameAttr()));
  });
  SmallVector<gpu::LaunchFuncOp> versioned;
  for (gpu::LaunchFuncOp launch : target.launches) {
    SmallVector<Value> written, passed;
    for (const SpaceOperand &operand : space.operands)
      if (operand.written)
        written.push_back(
            launch.getKernelOperands()[operand.buffer.getArgNumber()]);
    for (Value operand : launch.getKernelOperands())
      if (isa<MemRefType>(operand.getType()))
        passed.push_back(operand);
    rewriter.setInsertionPoint(launch);
    Value apart = buildBuffersApart(rewriter, launch.getLoc(), written, passed);
    if (!apart) {
      versioned.push_back(launch);
      continue;
    }
    auto version = scf::IfOp::create(rewriter, launch.getLoc(), apart,
                                     /*withElse=*/true);
    rewriter.setInsertionPointToStart(version.thenBlock());
    versioned.push_back(cast<gpu::LaunchFuncOp>(rewriter.clone(*launch)));
    rewriter.moveOpBefore(launch, version.elseBlock()->getTerminator());
    rewriter.modifyOpInPlace(launch, [&] {
      launch.setKernelAttr(
          SymbolRefAttr::get(gpuModule.getNameAttr(),
                             {FlatSymbolRefAttr::get(fallback.getNameAttr())}));
    });
  }
  return versioned;
}

/// `value` from the lane `offset` names (`kind`: its lane id XOR offset, or
/// the lane itself) among those of `mask`: any integer or float of up to 32
/// bits widened to 32, a 64-bit one as two halves.
static Value shuffle(RewriterBase &rewriter, Location loc, Value value,
                     Value offset, Value mask, NVVM::ShflKind kind) {
  Type type = value.getType();
  Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
  Value clamp = arith::ConstantIntOp::create(rewriter, loc, i32, 31);
  auto shfl = [&](Value word) -> Value {
    return NVVM::ShflOp::create(rewriter, loc, word.getType(), mask, word,
                                offset, clamp, kind, UnitAttr());
  };
  if (type.isF32() || type.isInteger(32))
    return shfl(value);
  unsigned width = type.getIntOrFloatBitWidth();
  Type bitsType = rewriter.getIntegerType(width);
  Value bits = isa<FloatType>(type)
                   ? arith::BitcastOp::create(rewriter, loc, bitsType, value)
                         .getResult()
                   : value;
  Value result;
  if (width < 32) {
    Value word = arith::ExtUIOp::create(rewriter, loc, i32, bits);
    result = arith::TruncIOp::create(rewriter, loc, bitsType, shfl(word));
  } else {
    Value thirtyTwo = arith::ConstantIntOp::create(rewriter, loc, i64, 32);
    Value low = arith::TruncIOp::create(rewriter, loc, i32, bits);
    Value high = arith::TruncIOp::create(
        rewriter, loc, i32,
        arith::ShRUIOp::create(rewriter, loc, bits, thirtyTwo));
    Value lowBack = arith::ExtUIOp::create(rewriter, loc, i64, shfl(low));
    Value highBack = arith::ExtUIOp::create(rewriter, loc, i64, shfl(high));
    result = arith::OrIOp::create(
        rewriter, loc, lowBack,
        arith::ShLIOp::create(rewriter, loc, highBack, thirtyTwo));
  }
  if (isa<FloatType>(type))
    result = arith::BitcastOp::create(rewriter, loc, type, result);
  return result;
}

void mlir::autoprof::rewrites::cloneNestBody(
    RewriterBase &rewriter, const IterationSpace &space,
    MutableArrayRef<IRMapping> mappings, ArrayRef<unsigned> accumulated,
    ValueRange current, SmallVectorImpl<Value> &next,
    llvm::function_ref<Value(unsigned, int64_t)> load,
    llvm::function_ref<void(unsigned, int64_t, Value)> store) {
  int64_t copies = mappings.size();
  for (Operation *op : space.body) {
    auto it = space.operandOf.find(op);
    for (int64_t copy = 0; copy < copies; ++copy) {
      IRMapping &copyMapping = mappings[copy];
      if (it == space.operandOf.end()) {
        rewriter.clone(*op, copyMapping);
        continue;
      }
      auto slot = llvm::find(accumulated, it->second);
      int64_t reg = (slot - accumulated.begin()) * copies + copy;
      if (auto loaded = dyn_cast<memref::LoadOp>(op)) {
        Value value = slot != accumulated.end() ? Value(current[reg])
                                                : load(it->second, copy);
        copyMapping.map(loaded.getResult(), value);
        // An element the kernel carried in a register: its value so far.
        for (const CarriedValue &carried : space.carried)
          if (carried.operand == it->second)
            copyMapping.map(carried.value, value);
        continue;
      }
      Value value = copyMapping.lookup(space.getStoredValue(op));
      if (slot != accumulated.end())
        next[reg] = value;
      else
        store(it->second, copy, value);
    }
  }
}

IRMapping mlir::autoprof::rewrites::beginNestBody(RewriterBase &rewriter,
                                                  gpu::GPUFuncOp kernel,
                                                  Block *&entry) {
  rewriter.setInsertionPoint(kernel);
  Block &old = kernel.getBody().front();
  SmallVector<Location> argLocs;
  for (BlockArgument arg : old.getArguments())
    argLocs.push_back(arg.getLoc());
  entry = rewriter.createBlock(&kernel.getBody(), kernel.getBody().begin(),
                               old.getArgumentTypes(), argLocs);
  IRMapping mapping;
  mapping.map(old.getArguments(), entry->getArguments());
  return mapping;
}

void mlir::autoprof::rewrites::setNestGeometry(
    RewriterBase &rewriter, gpu::GPUFuncOp kernel,
    ArrayRef<gpu::LaunchFuncOp> launches, const NestSchedule &schedule) {
  rewriter.modifyOpInPlace(kernel, [&] {
    kernel.setKnownBlockSizeAttr(rewriter.getDenseI32ArrayAttr(
        {static_cast<int32_t>(schedule.threadsPerBlock), 1, 1}));
    kernel.setKnownGridSizeAttr(rewriter.getDenseI32ArrayAttr(
        {static_cast<int32_t>(schedule.blocks), 1, 1}));
  });
  for (gpu::LaunchFuncOp launch : launches)
    setLaunchSizes(rewriter, launch, {schedule.blocks, 1, 1},
                   {schedule.threadsPerBlock, 1, 1});
}

LogicalResult mlir::autoprof::rewrites::generateNest(
    RewriterBase &rewriter, const RewriteTarget &target, const NestPlan &plan) {
  if (plan.schedule.stageChunk > 0)
    return generateStagedNest(rewriter, target, plan);
  const IterationSpace &space = plan.space;
  const NestSchedule &schedule = plan.schedule;
  int64_t lanes = schedule.lanes;
  gpu::GPUFuncOp kernel = target.kernel;
  Location loc = kernel.getLoc();
  SmallVector<gpu::LaunchFuncOp> launches(target.launches);
  if (plan.versioned)
    launches = versionNestLaunches(rewriter, target, space);
  Block &old = kernel.getBody().front();

  // A new entry block with the same arguments; the old one is erased once
  // its computation is cloned.
  Block *entry = nullptr;
  IRMapping mapping = beginNestBody(rewriter, kernel, entry);

  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value block = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
  // With a split, the chunk is the outermost of the linear index; with
  // lanes, L consecutive threads share a point.
  int64_t split = schedule.split;
  int64_t chunkThreads = schedule.points * lanes;
  bool stacked = schedule.stacked;
  int64_t rowPoints = schedule.threadsPerBlock / lanes;
  Value lane, chunk, point;
  Value inside;
  if (stacked) {
    // Stacked lanes: each chunk takes whole blocks, whose threads form
    // `lanes` rows of rowPoints consecutive points.
    int64_t chunkBlocks = schedule.blocks / split;
    Value blockInChunk = block;
    if (split > 1) {
      chunk = arith::DivUIOp::create(rewriter, loc, block,
                                     constant(chunkBlocks));
      blockInChunk = arith::RemUIOp::create(rewriter, loc, block,
                                            constant(chunkBlocks));
    }
    lane = arith::DivUIOp::create(rewriter, loc, thread, constant(rowPoints));
    point = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, blockInChunk,
                              constant(rowPoints)),
        arith::RemUIOp::create(rewriter, loc, thread, constant(rowPoints)));
    if (chunkBlocks * rowPoints > schedule.points)
      inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                     point, constant(schedule.points));
  } else {
    Value linear = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, block,
                              constant(schedule.threadsPerBlock)),
        thread);
    point = linear;
    if (split > 1) {
      chunk = arith::DivUIOp::create(rewriter, loc, linear,
                                     constant(chunkThreads));
      point = arith::RemUIOp::create(rewriter, loc, linear,
                                     constant(chunkThreads));
    }
    if (lanes > 1) {
      lane = arith::RemUIOp::create(rewriter, loc, point, constant(lanes));
      point = arith::DivUIOp::create(rewriter, loc, point, constant(lanes));
    }
    if (schedule.blocks * schedule.threadsPerBlock > chunkThreads * split)
      inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                     linear, constant(chunkThreads * split));
  }
  // Threads past the last point do nothing. Beyond a warp and with stacked
  // lanes, every thread of a block reaches the barrier: those past the last
  // point only take no reduction point and store nothing.
  bool acrossWarps = lanes > 32 || stacked;
  if (inside) {
    if (!acrossWarps) {
      auto guard =
          scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
      rewriter.setInsertionPointToStart(guard.thenBlock());
    }
  }
  // The parallel indices, innermost first. With a vector width V the
  // thread takes V consecutive points along the contiguous dimension (the
  // innermost), and with a reuse R, R consecutive points along the reuse
  // dimension: copy r * V + v of the body is the point V * index + v along
  // the one, R * index + r along the other.
  int64_t vector = schedule.vector, reuse = schedule.reuse;
  int64_t copies = vector * reuse;
  SmallVector<unsigned> parallel = space.getParallelDims();
  std::optional<unsigned> reuseDim;
  if (reuse > 1)
    reuseDim = parallel[schedule.reuseDim];
  SmallVector<Value> dimValues(space.dims.size());
  Value rest = point;
  for (int i = static_cast<int>(schedule.order.size()) - 1; i >= 0; --i) {
    unsigned d = parallel[schedule.order[i]];
    int64_t extent = space.dims[d].extent;
    if (i == static_cast<int>(schedule.order.size()) - 1)
      extent /= vector;
    if (reuseDim && d == *reuseDim)
      extent /= reuse;
    if (i == 0) {
      dimValues[d] = rest;
      break;
    }
    dimValues[d] =
        arith::RemUIOp::create(rewriter, loc, rest, constant(extent));
    rest = arith::DivUIOp::create(rewriter, loc, rest, constant(extent));
  }
  SmallVector<SmallVector<Value>> copyDims(copies, dimValues);
  auto spread = [&](unsigned d, int64_t count, int64_t stride) {
    Value first = arith::MulIOp::create(rewriter, loc, dimValues[d],
                                        constant(count));
    for (int64_t c = 0; c < copies; ++c) {
      int64_t offset = (c / stride) % count;
      copyDims[c][d] =
          offset == 0
              ? first
              : arith::AddIOp::create(rewriter, loc, first, constant(offset))
                    .getResult();
    }
  };
  if (vector > 1)
    spread(parallel[schedule.order.back()], vector, 1);
  if (reuse > 1)
    spread(*reuseDim, reuse, vector);
  // The maps are pure affine forms of the dimensions with constant
  // coefficients: each expands to index arithmetic.
  auto indices = [&](const SpaceOperand &operand, int64_t copy) {
    SmallVector<Value> values;
    for (AffineExpr expr : operand.map.getResults())
      values.push_back(affine::expandAffineExpr(rewriter, loc, expr,
                                                copyDims[copy], ValueRange{}));
    return values;
  };
  SmallVector<IRMapping> mappings(copies, mapping);

  // Accumulated outputs stay in registers through the reduction loops,
  // from their element (one lane per point) or from the combination's
  // neutral element (several); one register per copy, at slot * copies +
  // copy.
  SmallVector<unsigned> accumulated;
  SmallVector<Value> initial;
  SmallVector<unsigned> reductions = space.getReductionDims();
  if (lanes > 1 || split > 1) {
    accumulated = plan.accumulated;
    for (Operation *combiner : plan.combiners)
      initial.push_back(arith::ConstantOp::create(
          rewriter, loc, *getCombinerIdentity(combiner)));
  } else if (!reductions.empty()) {
    for (auto [i, operand] : llvm::enumerate(space.operands))
      if (operand.written && operand.read) {
        accumulated.push_back(i);
        for (int64_t v = 0; v < copies; ++v)
          initial.push_back(memref::LoadOp::create(
              rewriter, loc, mapping.lookup(operand.buffer),
              indices(operand, v)));
      }
  }
  // Beyond a warp, the reductions of a thread past the last point yield
  // the neutral elements.
  scf::IfOp insideOnly;
  if (acrossWarps && inside) {
    insideOnly = scf::IfOp::create(rewriter, loc, ValueRange(initial).getTypes(),
                                   inside, /*withElse=*/true);
    rewriter.setInsertionPointToStart(insideOnly.elseBlock());
    scf::YieldOp::create(rewriter, loc, initial);
    rewriter.setInsertionPointToStart(insideOnly.thenBlock());
  }
  SmallVector<scf::ForOp> loops;
  SmallVector<Value> current = initial;
  auto openLoop = [&](Value lower, int64_t upper, Value step) {
    auto loop = scf::ForOp::create(rewriter, loc, lower, constant(upper), step,
                                   current);
    loops.push_back(loop);
    current.assign(loop.getRegionIterArgs().begin(),
                   loop.getRegionIterArgs().end());
    rewriter.setInsertionPointToStart(loop.getBody());
    return loop.getInductionVar();
  };
  auto setReduction = [&](unsigned d, Value value) {
    for (SmallVector<Value> &dims : copyDims)
      dims[d] = value;
  };
  if (lanes > 1 || split > 1) {
    // One loop over the linearized reduction points, every (S * L)-th from
    // the thread's own, c * L + l; the innermost dimension of the order
    // along the lanes.
    Value start = lane ? lane : constant(0);
    if (split > 1)
      start = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, chunk, constant(lanes)), start);
    Value index = openLoop(start, space.getReductionPoints(),
                           constant(split * lanes));
    for (int i = static_cast<int>(schedule.reductionOrder.size()) - 1; i >= 0;
         --i) {
      unsigned d = reductions[schedule.reductionOrder[i]];
      if (i == 0) {
        setReduction(d, index);
        break;
      }
      int64_t extent = space.dims[d].extent;
      setReduction(d, arith::RemUIOp::create(rewriter, loc, index,
                                             constant(extent)));
      index = arith::DivUIOp::create(rewriter, loc, index, constant(extent));
    }
  } else {
    for (unsigned d : reductions)
      setReduction(d, openLoop(constant(0), space.dims[d].extent, constant(1)));
  }
  // The body, loads and stores of accumulated outputs through registers;
  // each operation once per copy, so that the copies' accesses of one
  // operand neighbour each other.
  SmallVector<Value> next = current;
  cloneNestBody(
      rewriter, space, mappings, accumulated, current, next,
      [&](unsigned operand, int64_t copy) -> Value {
        const SpaceOperand &accessed = space.operands[operand];
        return memref::LoadOp::create(rewriter, loc,
                                      mapping.lookup(accessed.buffer),
                                      indices(accessed, copy));
      },
      [&](unsigned operand, int64_t copy, Value value) {
        const SpaceOperand &accessed = space.operands[operand];
        memref::StoreOp::create(rewriter, loc, value,
                                mapping.lookup(accessed.buffer),
                                indices(accessed, copy));
      });
  // Close the loops from the innermost, each passing its results out.
  for (int l = static_cast<int>(loops.size()) - 1; l >= 0; --l) {
    scf::YieldOp::create(rewriter, loc, next);
    rewriter.setInsertionPointAfter(loops[l]);
    next.assign(loops[l].getResults().begin(), loops[l].getResults().end());
  }
  if (insideOnly) {
    scf::YieldOp::create(rewriter, loc, next);
    rewriter.setInsertionPointAfter(insideOnly);
    next.assign(insideOnly.getResults().begin(),
                insideOnly.getResults().end());
  }
  if (lanes > 1 || split > 1) {
    // Stacked lanes: each thread puts its partial result in the block's
    // shared memory; after a barrier, each thread of the first row combines
    // its point's rows in order.
    if (stacked) {
      MLIRContext *context = kernel.getContext();
      SmallVector<Value> buffers;
      for (Value partial : next) {
        auto type = MemRefType::get(
            {schedule.threadsPerBlock}, partial.getType(),
            MemRefLayoutAttrInterface(),
            gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
        buffers.push_back(kernel.addWorkgroupAttribution(type, loc));
        memref::StoreOp::create(rewriter, loc, partial, buffers.back(),
                                thread);
      }
      gpu::BarrierOp::create(rewriter, loc);
      Value isFirst = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, lane, constant(0));
      if (inside)
        isFirst = arith::AndIOp::create(rewriter, loc, isFirst, inside);
      auto first =
          scf::IfOp::create(rewriter, loc, isFirst, /*withElse=*/false);
      rewriter.setInsertionPointToStart(first.thenBlock());
      for (int64_t row = 1; row < lanes; ++row) {
        Value slot = arith::AddIOp::create(rewriter, loc, thread,
                                           constant(row * rowPoints));
        for (auto [i, combiner] : llvm::enumerate(plan.combiners))
          next[i] = combinePartials(
              rewriter, combiner, next[i],
              memref::LoadOp::create(rewriter, loc, buffers[i], slot));
      }
    } else if (lanes > 1) {
      // The lanes of a point are L consecutive lanes of a warp, starting at
      // a multiple of L: the shuffles name just them.
      Type i32 = rewriter.getI32Type();
      auto i32Constant = [&](int64_t value) -> Value {
        return arith::ConstantIntOp::create(rewriter, loc, i32, value);
      };
      // Butterfly shuffles among the lanes of a warp: the whole warp
      // beyond a warp's lanes.
      int64_t warpLanes = std::min<int64_t>(lanes, 32);
      Value mask = acrossWarps
                       ? i32Constant(-1)
                       : buildLaneGroup(rewriter, loc, lanes).mask;
      auto butterfly = [&](int64_t width) {
        for (auto [i, combiner] : llvm::enumerate(plan.combiners))
          for (int64_t distance = width / 2; distance >= 1; distance /= 2) {
            Value other = shuffle(rewriter, loc, next[i],
                                  i32Constant(distance), mask,
                                  NVVM::ShflKind::bfly);
            next[i] = combinePartials(rewriter, combiner, next[i], other);
          }
      };
      butterfly(warpLanes);
      if (acrossWarps) {
        // Each warp's first lane puts its total in shared memory; after a
        // barrier, the first L / 32 lanes of each point take its warps'
        // totals and combine them by shuffles among them.
        int64_t warps = schedule.threadsPerBlock / 32;
        int64_t pointWarps = lanes / 32;
        Value warp = arith::DivUIOp::create(rewriter, loc, thread,
                                            constant(32));
        Value warpLane = arith::RemUIOp::create(rewriter, loc, thread,
                                                constant(32));
        Value isWarpFirst = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, warpLane, constant(0));
        MLIRContext *context = kernel.getContext();
        SmallVector<Value> buffers;
        for (Value total : next) {
          auto type = MemRefType::get(
              {warps}, total.getType(), MemRefLayoutAttrInterface(),
              gpu::AddressSpaceAttr::get(context,
                                         gpu::AddressSpace::Workgroup));
          buffers.push_back(kernel.addWorkgroupAttribution(type, loc));
        }
        auto write = scf::IfOp::create(rewriter, loc, isWarpFirst,
                                       /*withElse=*/false);
        rewriter.setInsertionPointToStart(write.thenBlock());
        for (auto [buffer, total] : llvm::zip(buffers, next))
          memref::StoreOp::create(rewriter, loc, total, buffer, warp);
        rewriter.setInsertionPointAfter(write);
        gpu::BarrierOp::create(rewriter, loc);
        Value takes = arith::CmpIOp::create(rewriter, loc,
                                            arith::CmpIPredicate::ult, lane,
                                            constant(pointWarps));
        Value slot = arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(
                rewriter, loc,
                arith::DivUIOp::create(rewriter, loc, thread,
                                       constant(lanes)),
                constant(pointWarps)),
            lane);
        auto read = scf::IfOp::create(rewriter, loc,
                                      ValueRange(next).getTypes(), takes,
                                      /*withElse=*/true);
        rewriter.setInsertionPointToStart(read.thenBlock());
        SmallVector<Value> loaded;
        for (Value buffer : buffers)
          loaded.push_back(
              memref::LoadOp::create(rewriter, loc, buffer, slot));
        scf::YieldOp::create(rewriter, loc, loaded);
        rewriter.setInsertionPointToStart(read.elseBlock());
        scf::YieldOp::create(rewriter, loc, initial);
        rewriter.setInsertionPointAfter(read);
        next.assign(read.getResults().begin(), read.getResults().end());
        butterfly(pointWarps);
      }
      // The first lane combines each element with its total.
      Value isFirst = arith::CmpIOp::create(rewriter, loc,
                                            arith::CmpIPredicate::eq, lane,
                                            constant(0));
      if (acrossWarps && inside)
        isFirst = arith::AndIOp::create(rewriter, loc, isFirst, inside);
      auto first =
          scf::IfOp::create(rewriter, loc, isFirst, /*withElse=*/false);
      rewriter.setInsertionPointToStart(first.thenBlock());
    }
    // Alone, it stores the combination; with a split, each chunk's total
    // goes in by an atomic combination.
    bool reassociates = false;
    for (auto [i, operand] : llvm::enumerate(accumulated)) {
      const SpaceOperand &output = space.operands[operand];
      Operation *combiner = plan.combiners[i];
      reassociates |= isa<arith::AddFOp, arith::MulFOp>(combiner);
      Value buffer = mapping.lookup(output.buffer);
      if (split > 1) {
        memref::AtomicRMWOp::create(rewriter, loc,
                                    *getAtomicCombination(combiner), next[i],
                                    buffer, indices(output, 0));
        continue;
      }
      Value element =
          memref::LoadOp::create(rewriter, loc, buffer, indices(output, 0));
      memref::StoreOp::create(
          rewriter, loc, combinePartials(rewriter, combiner, element, next[i]),
          buffer, indices(output, 0));
    }
    if (reassociates)
      AutoProfDialect::ReassociatedAttrHelper(kernel.getContext())
          .setAttr(kernel, rewriter.getUnitAttr());
  } else {
    for (auto [i, operand] : llvm::enumerate(accumulated)) {
      const SpaceOperand &output = space.operands[operand];
      for (int64_t v = 0; v < copies; ++v)
        memref::StoreOp::create(rewriter, loc, next[i * copies + v],
                                mapping.lookup(output.buffer),
                                indices(output, v));
    }
  }
  rewriter.setInsertionPointToEnd(entry);
  gpu::ReturnOp::create(rewriter, loc);
  rewriter.eraseBlock(&old);

  // The new geometry, on the kernel and on every launch.
  setNestGeometry(rewriter, kernel, launches, schedule);
  // The copies' accesses of neighbouring elements become vector accesses
  // where they are aligned.
  // (The copies' index arithmetic is common first: accesses merge through
  // the same outer index values.)
  if (copies > 1) {
    DominanceInfo dominance(kernel);
    eliminateCommonSubExpressions(rewriter, dominance, kernel);
    mergeNeighbouringAccesses(rewriter, kernel,
                              {schedule.threadsPerBlock, 1, 1});
  }
  return success();
}
