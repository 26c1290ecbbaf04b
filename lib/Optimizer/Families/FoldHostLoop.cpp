//===- FoldHostLoop.cpp - fold-host-loop=1 --------------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Upstream pipelines can turn a reduction dimension into a host scf.for around
// a launch whose induction variable the kernel receives (a column sum launches
// one kernel per row). Every launch then pays its start-up cost and touches
// the accumulator through DRAM. This family moves the loop into the kernel:
// one launch, each thread running the loop over the body with the induction
// variable in place of the argument, and the element a thread accumulates
// into (loaded and stored at one address every iteration) kept in a register
// across the loop, as register-accumulate would.
//
// That is only the same computation when no thread reads what another thread
// wrote in an earlier launch. The match proves it on the memory-access
// analysis: every buffer the kernel writes is accessed at one address, the
// same affine form of thread and block ids in every access, independent of
// the induction variable and different for every thread of the launch (its
// coefficients form a mixed radix over the launch's extents). The loop must
// have constant bounds, the launch must be the only thing its body does, and
// the written buffers must not overlap the other buffers: proved from their
// host origins, or else checked at run time on the host, where the loop as it
// was (launching a copy of the original kernel, marked autoprof.fallback_of)
// runs when they overlap.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Transforms/EvaluationJobs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
/// What folding one launch needs.
struct FoldPlan {
  gpu::LaunchFuncOp launch;
  HostLoopRepeat repeat;
  /// The host values of the buffers the kernel writes, and of every buffer
  /// the launch passes; empty when the buffers are proved distinct.
  SmallVector<Value> writtenBuffers, passedBuffers;
};
} // namespace

/// Why the accesses of a written buffer may touch what another thread
/// touches in another launch, or nothing. `extent` gives the number of
/// values a thread or block id takes in the launch.
static std::optional<std::string>
checkThreadPrivate(MemoryAccessAnalysis &analysis, BlockArgument buffer,
                   function_ref<int64_t(const IndexAtom &)> extent) {
  std::string name =
      "buffer argument #" + std::to_string(buffer.getArgNumber());
  const MemoryAccess *first = nullptr;
  for (const MemoryAccess &access : analysis.getAccesses()) {
    if (access.buffer != buffer)
      continue;
    // The elements of a vector of several dimensions are not one run.
    auto multiDimensional = [](Type type) {
      auto vector = dyn_cast<VectorType>(type);
      return vector && vector.getRank() > 1;
    };
    if (llvm::any_of(access.op->getOperandTypes(), multiDimensional) ||
        llvm::any_of(access.op->getResultTypes(), multiDimensional))
      return name + " is accessed with a vector of several dimensions";
    if (!access.address)
      return name +
             " is accessed at an address the analysis cannot "
             "express (" +
             access.unknownReason + ")";
    if (!first) {
      first = &access;
      continue;
    }
    if (access.vectorWidth != first->vectorWidth ||
        access.address->constant != first->address->constant ||
        access.address->terms != first->address->terms)
      return name + " is accessed at " + analysis.describe(*first->address) +
             " and at " + analysis.describe(*access.address) +
             ", so a thread may read what another one wrote";
  }
  if (!first)
    return std::nullopt;
  // One address per thread, made only of thread and block ids, whose
  // coefficients, smallest first, each exceed the span the smaller ones
  // cover: then no two threads of the launch touch the same element.
  SmallVector<std::pair<int64_t, int64_t>> radix; // |coefficient|, extent
  llvm::SmallDenseSet<std::pair<unsigned, unsigned>> dims;
  for (auto [atom, coefficient] : first->address->terms) {
    const IndexAtom &variable = analysis.getAtoms()[atom];
    if (variable.kind != IndexAtomKind::ThreadId &&
        variable.kind != IndexAtomKind::BlockId)
      return name + " is accessed at " + analysis.describe(*first->address) +
             ", which depends on " + variable.name +
             " (only thread and block ids may select a written element)";
    if (!dims.insert({static_cast<unsigned>(variable.kind),
                      static_cast<unsigned>(variable.dim)})
             .second)
      return name + " is accessed at an address that uses " + variable.name +
             " twice";
    radix.push_back({std::abs(coefficient), extent(variable)});
  }
  // Every id that takes several values must select the element.
  for (IndexAtomKind kind : {IndexAtomKind::ThreadId, IndexAtomKind::BlockId})
    for (gpu::Dimension dim :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
      IndexAtom id;
      id.kind = kind;
      id.dim = dim;
      if (extent(id) > 1 && !dims.contains({static_cast<unsigned>(kind),
                                            static_cast<unsigned>(dim)}))
        return name + " is accessed at " + analysis.describe(*first->address) +
               ", the same for every " +
               (kind == IndexAtomKind::ThreadId ? "thread" : "block") +
               " along " + gpu::stringifyDimension(dim).str();
    }
  llvm::sort(radix);
  int64_t covered = first->vectorWidth;
  for (auto [coefficient, count] : radix) {
    if (count <= 1)
      continue;
    if (coefficient < covered)
      return name + " is accessed at " + analysis.describe(*first->address) +
             ", where two threads of the launch can meet";
    covered += coefficient * (count - 1);
  }
  return std::nullopt;
}

/// Whether every read and write of `kernel` is one of the analysis's
/// accesses.
static bool accessesOnlyThroughAnalysis(gpu::GPUFuncOp kernel,
                                        MemoryAccessAnalysis &analysis) {
  llvm::SmallPtrSet<Operation *, 16> analyzed;
  for (const MemoryAccess &access : analysis.getAccesses())
    analyzed.insert(access.op);
  WalkResult result = kernel.walk([&](Operation *op) {
    if (op == kernel.getOperation() || analyzed.contains(op) ||
        isa<gpu::ReturnOp>(op) ||
        op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || effects.hasEffect<MemoryEffects::Write>() ||
        effects.hasEffect<MemoryEffects::Read>())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

namespace {
class FoldHostLoopFamily : public RewriteFamilyWithPlan<FoldPlan> {
public:
  FoldHostLoopFamily()
      : RewriteFamilyWithPlan(BuiltinRewriteFamily::FoldHostLoop) {}

  void rank(const RewriteEvidence &,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Only launches in host loops match; each launch of the loop costs its
    // start-up and moves the accumulator through memory.
    ranked.push_back({14, 1});
  }

protected:
  FailureOr<FoldPlan> matchPlan(const RewriteTarget &target, int64_t,
                                std::string &why) const override;
  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t, FoldPlan &plan) const override;
};
} // namespace

FailureOr<FoldPlan> FoldHostLoopFamily::matchPlan(const RewriteTarget &target,
                                                  int64_t,
                                                  std::string &why) const {
  gpu::GPUFuncOp kernel = target.kernel;
  if (target.launches.size() != 1) {
    why = "the kernel has " + std::to_string(target.launches.size()) +
          " launches; only a kernel launched once can take its loop in";
    return failure();
  }
  FoldPlan plan;
  plan.launch = target.launches.front();
  gpu::LaunchFuncOp launch = plan.launch;
  std::optional<HostLoopRepeat> repeat = matchHostLoopRepeat(launch, &why);
  if (!repeat)
    return failure();
  plan.repeat = *repeat;
  scf::ForOp loop = repeat->loop;
  if (loop.getNumResults() != 0) {
    why = "the host loop carries values";
    return failure();
  }
  for (Operation &op : loop.getBody()->without_terminator())
    if (&op != launch.getOperation() && !isMemoryEffectFree(&op)) {
      why = "the host loop does more than the launch (" +
            op.getName().getStringRef().str() + ")";
      return failure();
    }
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.hasClusterSize()) {
    why = "the launch is asynchronous or has a cluster size";
    return failure();
  }
  // Everything but the induction variable is the same in every launch.
  std::array<int64_t, 6> sizes;
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value sizeValues[] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
  for (auto [slot, value] : llvm::zip(sizes, sizeValues)) {
    std::optional<int64_t> constant = getConstant(value);
    if (!constant) {
      why = "the launch sizes are not constants";
      return failure();
    }
    slot = *constant;
  }
  if (Value shared = launch.getDynamicSharedMemorySize();
      shared && !getConstant(shared)) {
    why = "the dynamic shared memory size is not a constant";
    return failure();
  }
  for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands())) {
    if (index == repeat->operand)
      continue;
    if (isa<MemRefType>(operand.getType())
            ? !loop.isDefinedOutsideOfLoop(operand)
            : !matchPattern(operand, m_Constant())) {
      why = "kernel operand #" + std::to_string(index) +
            " changes from one launch of the loop to the next";
      return failure();
    }
  }

  // The kernel: one block, no shared memory or barriers, every write seen.
  if (!kernel.getBody().hasOneBlock() ||
      !isa<gpu::ReturnOp>(kernel.getBody().front().getTerminator())) {
    why = "the kernel body is not a single block ending in gpu.return";
    return failure();
  }
  if (kernel.getNumWorkgroupAttributions() != 0 ||
      kernel.getNumPrivateAttributions() != 0) {
    why = "the kernel has workgroup or private memory";
    return failure();
  }
  if (kernel.walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    why = "the kernel synchronizes its threads";
    return failure();
  }
  if (!kernel.getArgument(repeat->operand).getType().isIntOrIndex()) {
    why = "the induction variable's argument is not an integer";
    return failure();
  }
  MemoryAccessAnalysis analysis(
      kernel, std::array<int64_t, 3>{sizes[3], sizes[4], sizes[5]});
  if (!accessesOnlyThroughAnalysis(kernel, analysis)) {
    why = "the kernel reads or writes memory other than through loads, "
          "stores and atomics the analysis describes";
    return failure();
  }
  for (const MemoryAccess &access : analysis.getAccesses())
    if (!access.buffer || access.shared) {
      why = "an access goes through a view or local memory the analysis "
            "cannot attribute to a kernel buffer";
      return failure();
    }
  auto extent = [&](const IndexAtom &id) -> int64_t {
    unsigned d = static_cast<unsigned>(id.dim);
    return id.kind == IndexAtomKind::ThreadId ? sizes[3 + d] : sizes[d];
  };
  llvm::SetVector<BlockArgument> written;
  for (const MemoryAccess &access : analysis.getAccesses())
    if (access.writes)
      written.insert(access.buffer);
  if (written.empty()) {
    why = "the kernel writes no buffer";
    return failure();
  }
  for (BlockArgument buffer : written)
    if (std::optional<std::string> shared =
            checkThreadPrivate(analysis, buffer, extent)) {
      why = *shared;
      return failure();
    }

  // Buffers not proved distinct are compared on the host before the loop.
  llvm::SmallPtrSet<Value, 8> passed;
  for (Value operand : launch.getKernelOperands())
    if (isa<MemRefType>(operand.getType()) && !passed.insert(operand).second) {
      why = "the launch passes one buffer to two arguments";
      return failure();
    }
  std::string distinct;
  if (passed.size() > 1 && !passesDistinctBuffers(target.launches, distinct)) {
    for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands())) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type)
        continue;
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrIndexOrFloat()) {
        why = distinct + ", and buffer operand #" + std::to_string(index) +
              " is not a contiguous static buffer whose extent the host can "
              "compare";
        return failure();
      }
      plan.passedBuffers.push_back(operand);
      if (written.contains(kernel.getArgument(index)))
        plan.writtenBuffers.push_back(operand);
    }
  }
  return plan;
}

LogicalResult FoldHostLoopFamily::applyPlan(RewriterBase &rewriter,
                                            const RewriteTarget &target,
                                            int64_t, FoldPlan &plan) const {
  gpu::GPUFuncOp kernel = target.kernel;
  gpu::LaunchFuncOp launch = plan.launch;
  const HostLoopRepeat &repeat = plan.repeat;
  scf::ForOp hostLoop = repeat.loop;
  MLIRContext *context = kernel.getContext();

  // The fallback: the original kernel under a new name, for the loop as it
  // was when the buffers overlap.
  gpu::GPUFuncOp fallback;
  bool versioned = !plan.writtenBuffers.empty();
  if (versioned) {
    auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
    std::string name = (kernel.getName() + "_unfolded").str();
    for (unsigned suffix = 1; gpuModule.lookupSymbol(name); ++suffix)
      name = (kernel.getName() + "_unfolded" + Twine(suffix)).str();
    rewriter.setInsertionPointAfter(kernel);
    fallback = cast<gpu::GPUFuncOp>(rewriter.clone(*kernel));
    rewriter.modifyOpInPlace(fallback, [&] {
      fallback.setName(name);
      AutoProfDialect::FallbackOfAttrHelper(context).setAttr(
          fallback, FlatSymbolRefAttr::get(kernel.getNameAttr()));
    });
  }

  // The kernel: the body runs in a loop over the host loop's values.
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointToStart(&body);
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value lb = index(repeat.start);
  Value ub = index(*getConstant(hostLoop.getUpperBound()));
  Value step = index(repeat.step);
  auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step);
  Operation *yield = loop.getBody()->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(std::next(loop->getIterator()),
                            body.getTerminator()->getIterator())))
    rewriter.moveOpBefore(&op, yield);
  BlockArgument argument = kernel.getArgument(repeat.operand);
  Value iv = loop.getInductionVar();
  if (!argument.getType().isIndex()) {
    rewriter.setInsertionPointToStart(loop.getBody());
    iv = arith::IndexCastOp::create(rewriter, loc, argument.getType(), iv);
  }
  rewriter.replaceAllUsesWith(argument, iv);
  // Side-effect-free code that does not depend on the loop leaves it again.
  for (Operation &op :
       llvm::make_early_inc_range(loop.getBody()->without_terminator()))
    if (op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
        llvm::all_of(op.getOperands(), [&](Value operand) {
          return loop.isDefinedOutsideOfLoop(operand);
        }))
      rewriter.moveOpBefore(&op, loop);
  rewriter.modifyOpInPlace(kernel,
                           [&] { (void)kernel.eraseArgument(repeat.operand); });
  // The element each thread accumulates into went through memory between
  // the launches; across the loop's iterations it now stays in a register.
  // The match proved that each written buffer is accessed at one address
  // that does not depend on the induction variable, and the written buffers
  // lie apart from the others (proved, or checked on the host before the
  // folded launch), so nothing else in the loop can touch the element.
  SmallVector<Accumulation> accumulations;
  for (const Accumulation &accumulation :
       findAccumulations(kernel, target.launches))
    if (accumulation.loop == loop)
      accumulations.push_back(accumulation);
  if (failed(carryInRegisters(rewriter, kernel, accumulations)))
    return failure();

  // The host: one launch without the induction variable, before the loop;
  // constants the launch takes from the loop body come along.
  rewriter.setInsertionPoint(hostLoop);
  scf::IfOp versionIf;
  if (versioned) {
    Value apart = buildBuffersApart(rewriter, launch.getLoc(),
                                    plan.writtenBuffers, plan.passedBuffers);
    versionIf = scf::IfOp::create(rewriter, launch.getLoc(), apart,
                                  /*withElse=*/true);
    rewriter.setInsertionPointToStart(versionIf.thenBlock());
  }
  IRMapping mapping;
  for (Value operand : launch->getOperands())
    if (Operation *def = operand.getDefiningOp();
        def && hostLoop->isAncestor(def) && !mapping.contains(operand))
      rewriter.clone(*def, mapping);
  auto folded = cast<gpu::LaunchFuncOp>(rewriter.clone(*launch, mapping));
  rewriter.modifyOpInPlace(folded, [&] {
    folded.getKernelOperandsMutable().erase(repeat.operand);
    AutoProfDialect::HostLoopAttrHelper(context).removeAttr(folded);
  });
  if (!versioned) {
    rewriter.eraseOp(hostLoop);
    return success();
  }
  // Overlapping buffers: the loop as it was, launching the fallback.
  rewriter.moveOpBefore(hostLoop, versionIf.elseBlock()->getTerminator());
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  rewriter.modifyOpInPlace(launch, [&] {
    launch.setKernelAttr(
        SymbolRefAttr::get(gpuModule.getNameAttr(),
                           {FlatSymbolRefAttr::get(fallback.getNameAttr())}));
  });
  return success();
}

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createFoldHostLoopFamily() {
  return std::make_unique<FoldHostLoopFamily>();
}
