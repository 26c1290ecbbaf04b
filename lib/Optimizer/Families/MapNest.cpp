//===- MapNest.cpp - map-nest=T: a raised nest mapped anew ----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel that raises to its iteration space (autoprof/Raise) gets a new
// body generated from a schedule (autoprof/Schedule/NestSchedule.h): one
// thread per parallel point, the points linearized with the dimension the
// largest accesses walk contiguously innermost, so that a warp's lanes take
// consecutive elements along it, in blocks of T threads along x; each thread
// runs the reductions in loops that keep the accumulated elements in
// registers and stores each output once. The original mapping does not
// matter: a rank-4 NHWC nest whose channels upstream left to a per-thread
// loop or to the grid's z gets its channels on the lanes.
//
// Reordering the points is the same computation only where the buffers the
// nest writes lie apart from the others. Where their origins do not prove
// it, each launch checks it on the host and launches a copy of the original
// kernel (autoprof.fallback_of) where they overlap, as fold-host-loop does.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Raise/IterationSpace.h"
#include "autoprof/Schedule/NestSchedule.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {

struct MapNestPlan {
  IterationSpace space;
  NestSchedule schedule;
  /// The buffers are not proved distinct: each launch checks on the host
  /// that the written buffers lie apart from the others, and launches a
  /// copy of the original kernel (autoprof.fallback_of) where they do not.
  bool versioned = false;
};

class MapNestFamily : public RewriteFamilyWithPlan<MapNestPlan> {
public:
  StringRef getName() const override { return "map-nest"; }
  StringRef getSummary() const override {
    return "the raised iteration space mapped anew: one thread per parallel "
           "point, the contiguous dimension along the lanes, T threads per "
           "block, reductions in registers";
  }
  std::optional<std::string> checkParameter(int64_t n) const override {
    if (!llvm::is_contained(getNestBlockSizes(), n))
      return std::string("threads per block must be 64, 128, 256 or 512");
    return std::nullopt;
  }
  ArrayRef<StringRef> getAddressedFacts() const override {
    static const StringRef facts[] = {"uncoalesced-loads", "uncoalesced-stores",
                                      "low-occupancy"};
    return facts;
  }

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Where the contiguous dimension already runs along x in whole warps,
    // a new mapping changes little: not proposed. A contraction goes to
    // register-accumulate (10) first, on which the tile families build.
    if (!evidence.raises || evidence.raisedContiguousOnX)
      return;
    // Loads measured (or estimated) coalesced already gain little from it.
    // Where most loaded bytes are rows each thread walks with a reduction
    // loop, one thread per output leaves them scattered whatever the
    // mapping: the reduction families (warp-reduce, block-reduce) go first.
    // Where a thread dimension walks the contiguous memory, the thread
    // remaps (coalesce, form-blocks, block-size) and vectorize serve the
    // kernel first; where only a per-thread loop does, no other family
    // reaches it.
    double base = evidence.rowWalkShare > 0.5      ? 4.4
                  : !evidence.raisedContiguousInLoop ? 7.5
                  : evidence.raisedContraction     ? 9.95
                                                   : 11.95;
    if (evidence.isCoalesced())
      base -= 6;
    ranked.push_back({base, 256});
    ranked.push_back({base - 0.1, 128});
    ranked.push_back({base - 0.2, 512});
  }

protected:
  FailureOr<MapNestPlan> matchPlan(const RewriteTarget &target,
                                   int64_t threads,
                                   std::string &why) const override {
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
    NestProblem problem;
    SmallVector<unsigned> parallel = space->getParallelDims();
    unsigned contiguous = space->getContiguousDim();
    for (auto [i, d] : llvm::enumerate(parallel)) {
      problem.parallelExtents.push_back(space->dims[d].extent);
      if (d == contiguous)
        problem.contiguous = i;
    }
    problem.reductionPoints = space->getReductionPoints();
    std::optional<NestSchedule> schedule =
        scheduleNest(problem, threads, why);
    if (!schedule)
      return failure();
    return MapNestPlan{std::move(*space), std::move(*schedule), versioned};
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t, MapNestPlan &plan) const override;
};

} // namespace

/// Keeps the original kernel as a fallback and puts each launch under a
/// host check that the buffers the nest writes lie apart from the others:
/// where they do, the launch (returned, for its new geometry) runs the
/// rewritten kernel; where they do not, a copy of it runs the fallback with
/// the original geometry.
static SmallVector<gpu::LaunchFuncOp>
versionLaunches(RewriterBase &rewriter, const RewriteTarget &target,
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

LogicalResult MapNestFamily::applyPlan(RewriterBase &rewriter,
                                       const RewriteTarget &target, int64_t,
                                       MapNestPlan &plan) const {
  const IterationSpace &space = plan.space;
  const NestSchedule &schedule = plan.schedule;
  gpu::GPUFuncOp kernel = target.kernel;
  Location loc = kernel.getLoc();
  SmallVector<gpu::LaunchFuncOp> launches(target.launches);
  if (plan.versioned)
    launches = versionLaunches(rewriter, target, space);
  rewriter.setInsertionPoint(kernel);
  Block &old = kernel.getBody().front();

  // A new entry block with the same arguments; the old one is erased once
  // its computation is cloned.
  SmallVector<Location> argLocs;
  for (BlockArgument arg : old.getArguments())
    argLocs.push_back(arg.getLoc());
  Block *entry = rewriter.createBlock(&kernel.getBody(), kernel.getBody().begin(),
                                      old.getArgumentTypes(), argLocs);
  IRMapping mapping;
  mapping.map(old.getArguments(), entry->getArguments());

  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value block = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value linear = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, block,
                            constant(schedule.threadsPerBlock)),
      thread);
  // Threads past the last point do nothing.
  if (schedule.blocks * schedule.threadsPerBlock > schedule.points) {
    Value inside = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ult, linear,
                                         constant(schedule.points));
    auto guard = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
    rewriter.setInsertionPointToStart(guard.thenBlock());
  }
  // The parallel indices, innermost first.
  SmallVector<unsigned> parallel = space.getParallelDims();
  SmallVector<Value> dimValues(space.dims.size());
  Value rest = linear;
  for (int i = static_cast<int>(schedule.order.size()) - 1; i >= 0; --i) {
    unsigned d = parallel[schedule.order[i]];
    int64_t extent = space.dims[d].extent;
    if (i == 0) {
      dimValues[d] = rest;
      break;
    }
    dimValues[d] = arith::RemUIOp::create(rewriter, loc, rest, constant(extent));
    rest = arith::DivUIOp::create(rewriter, loc, rest, constant(extent));
  }
  // The maps are pure affine forms of the dimensions with constant
  // coefficients: each expands to index arithmetic.
  auto indices = [&](const SpaceOperand &operand) {
    SmallVector<Value> values;
    for (AffineExpr expr : operand.map.getResults())
      values.push_back(affine::expandAffineExpr(rewriter, loc, expr,
                                                dimValues, ValueRange{}));
    return values;
  };

  // Accumulated outputs start from their element and stay in registers
  // through the reduction loops.
  SmallVector<unsigned> accumulated;
  SmallVector<Value> initial;
  SmallVector<unsigned> reductions = space.getReductionDims();
  if (!reductions.empty())
    for (auto [i, operand] : llvm::enumerate(space.operands))
      if (operand.written && operand.read) {
        accumulated.push_back(i);
        initial.push_back(memref::LoadOp::create(
            rewriter, loc, mapping.lookup(operand.buffer), indices(operand)));
      }
  SmallVector<scf::ForOp> loops;
  SmallVector<Value> current = initial;
  for (unsigned d : reductions) {
    auto loop = scf::ForOp::create(rewriter, loc, constant(0),
                                   constant(space.dims[d].extent), constant(1),
                                   current);
    loops.push_back(loop);
    dimValues[d] = loop.getInductionVar();
    current.assign(loop.getRegionIterArgs().begin(),
                   loop.getRegionIterArgs().end());
    rewriter.setInsertionPointToStart(loop.getBody());
  }
  // The body, loads and stores of accumulated outputs through registers.
  SmallVector<Value> next = current;
  for (Operation *op : space.body) {
    auto it = space.operandOf.find(op);
    if (it == space.operandOf.end()) {
      rewriter.clone(*op, mapping);
      continue;
    }
    const SpaceOperand &operand = space.operands[it->second];
    auto slot = llvm::find(accumulated, it->second);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value value =
          slot != accumulated.end()
              ? current[slot - accumulated.begin()]
              : memref::LoadOp::create(rewriter, loc,
                                       mapping.lookup(operand.buffer),
                                       indices(operand))
                    .getResult();
      mapping.map(load.getResult(), value);
      // An element the kernel carried in a register: its value so far.
      for (const CarriedValue &carried : space.carried)
        if (carried.operand == it->second)
          mapping.map(carried.value, value);
      continue;
    }
    Value value = mapping.lookup(space.getStoredValue(op));
    if (slot != accumulated.end()) {
      next[slot - accumulated.begin()] = value;
      continue;
    }
    memref::StoreOp::create(rewriter, loc, value,
                            mapping.lookup(operand.buffer), indices(operand));
  }
  // Close the loops from the innermost, each passing its results out.
  for (int l = static_cast<int>(loops.size()) - 1; l >= 0; --l) {
    scf::YieldOp::create(rewriter, loc, next);
    rewriter.setInsertionPointAfter(loops[l]);
    next.assign(loops[l].getResults().begin(), loops[l].getResults().end());
  }
  for (auto [i, operand] : llvm::enumerate(accumulated)) {
    const SpaceOperand &output = space.operands[operand];
    memref::StoreOp::create(rewriter, loc, next[i],
                            mapping.lookup(output.buffer), indices(output));
  }
  rewriter.setInsertionPointToEnd(entry);
  gpu::ReturnOp::create(rewriter, loc);
  rewriter.eraseBlock(&old);

  // The new geometry, on the kernel and on every launch.
  rewriter.modifyOpInPlace(kernel, [&] {
    kernel.setKnownBlockSizeAttr(rewriter.getDenseI32ArrayAttr(
        {static_cast<int32_t>(schedule.threadsPerBlock), 1, 1}));
    kernel.setKnownGridSizeAttr(rewriter.getDenseI32ArrayAttr(
        {static_cast<int32_t>(schedule.blocks), 1, 1}));
  });
  for (gpu::LaunchFuncOp launch : launches)
    setLaunchSizes(rewriter, launch, {schedule.blocks, 1, 1},
                   {schedule.threadsPerBlock, 1, 1});
  return success();
}

std::unique_ptr<RewriteFamily> mlir::autoprof::rewrites::createMapNestFamily() {
  return std::make_unique<MapNestFamily>();
}
