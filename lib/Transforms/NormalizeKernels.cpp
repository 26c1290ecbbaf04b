//===- NormalizeKernels.cpp - The canonical form of launched kernels ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Transforms/NormalizeKernels.h"

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::autoprof {
#define GEN_PASS_DEF_NORMALIZEKERNELSPASS
#include "autoprof/Transforms/Passes.h.inc"
} // namespace mlir::autoprof

using namespace mlir;
using namespace mlir::autoprof;

/// Lowers affine ops to arith and applies every loaded op's and dialect's
/// canonicalization patterns, then CSE: what `--lower-affine --canonicalize
/// --cse` does, without a nested pass manager.
static LogicalResult simplify(ModuleOp module) {
  MLIRContext *context = module.getContext();
  RewritePatternSet patterns(context);
  populateAffineToStdConversionPatterns(patterns);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    return emitError(module.getLoc(),
                     "normalizing the kernels did not converge");
  IRRewriter rewriter(context);
  DominanceInfo dominance(module);
  eliminateCommonSubExpressions(rewriter, dominance, module);
  return success();
}

/// The launches of each kernel, in module order.
static llvm::MapVector<gpu::GPUFuncOp, SmallVector<gpu::LaunchFuncOp>>
collectLaunches(ModuleOp module) {
  llvm::MapVector<gpu::GPUFuncOp, SmallVector<gpu::LaunchFuncOp>> launches;
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.isKernel())
      launches[kernel];
  });
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
            launch, launch.getKernel()))
      launches[kernel].push_back(launch);
  });
  return launches;
}

/// Sinks the scalar arguments that every launch feeds the same constant.
static void sinkConstantArguments(gpu::GPUFuncOp kernel,
                                  ArrayRef<gpu::LaunchFuncOp> launches) {
  if (launches.empty() || kernel.getBody().empty())
    return;
  unsigned numArgs = kernel.getNumArguments();
  llvm::BitVector sunk(numArgs);
  OpBuilder builder = OpBuilder::atBlockBegin(&kernel.getBody().front());
  for (unsigned i = 0; i < numArgs; ++i) {
    BlockArgument arg = kernel.getArgument(i);
    if (!arg.getType().isIntOrIndexOrFloat())
      continue;
    TypedAttr value;
    bool uniform = llvm::all_of(launches, [&](gpu::LaunchFuncOp launch) {
      if (launch.getNumKernelOperands() != numArgs)
        return false;
      TypedAttr attr;
      if (!matchPattern(launch.getKernelOperand(i), m_Constant(&attr)) ||
          attr.getType() != arg.getType())
        return false;
      if (value && value != attr)
        return false;
      value = attr;
      return true;
    });
    if (!uniform || !value)
      continue;
    Value constant = arith::ConstantOp::create(builder, arg.getLoc(), value);
    arg.replaceAllUsesWith(constant);
    sunk.set(i);
  }
  if (sunk.none())
    return;
  for (gpu::LaunchFuncOp launch : launches)
    for (int i = numArgs - 1; i >= 0; --i)
      if (sunk.test(i))
        launch.getKernelOperandsMutable().erase(i);
  (void)kernel.eraseArguments(sunk);
}

/// The sizes `sizes` takes in every launch, when they are the same constants.
static std::optional<std::array<int32_t, 3>>
getUniformSizes(ArrayRef<gpu::LaunchFuncOp> launches,
                function_ref<gpu::KernelDim3(gpu::LaunchFuncOp)> sizes) {
  std::optional<std::array<int32_t, 3>> uniform;
  for (gpu::LaunchFuncOp launch : launches) {
    gpu::KernelDim3 dims = sizes(launch);
    std::array<int32_t, 3> current;
    std::array<Value, 3> values = {dims.x, dims.y, dims.z};
    for (auto [slot, value] : llvm::zip(current, values)) {
      APInt constant;
      if (!matchPattern(value, m_ConstantInt(&constant)) ||
          constant.getSignificantBits() > 32 || constant.isNonPositive())
        return std::nullopt;
      slot = static_cast<int32_t>(constant.getSExtValue());
    }
    if (uniform && *uniform != current)
      return std::nullopt;
    uniform = current;
  }
  return uniform;
}

void mlir::autoprof::recordKnownLaunchSizes(ModuleOp module,
                                            gpu::GPUFuncOp kernel) {
  SmallVector<gpu::LaunchFuncOp> launches = collectLaunches(module)[kernel];
  Builder b(kernel.getContext());
  auto block = getUniformSizes(launches, [](gpu::LaunchFuncOp launch) {
    return launch.getBlockSizeOperandValues();
  });
  auto grid = getUniformSizes(launches, [](gpu::LaunchFuncOp launch) {
    return launch.getGridSizeOperandValues();
  });
  kernel.setKnownBlockSizeAttr(block ? b.getDenseI32ArrayAttr(*block)
                                     : DenseI32ArrayAttr());
  kernel.setKnownGridSizeAttr(grid ? b.getDenseI32ArrayAttr(*grid)
                                   : DenseI32ArrayAttr());
}

/// Whether `value` depends on `iv` inside `loop`.
static bool dependsOn(Value value, Value iv, scf::ForOp loop,
                      llvm::DenseMap<Value, bool> &memo) {
  if (value == iv)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || !loop->isProperAncestor(def))
    return false;
  auto [it, inserted] = memo.try_emplace(value, false);
  if (!inserted)
    return it->second;
  bool result = llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOn(operand, iv, loop, memo);
  });
  memo[value] = result;
  return result;
}

/// Marks a launch inside a host scf.for with the loop's trip count and the
/// kernel operands that vary with its induction variable.
static void markHostLoop(gpu::LaunchFuncOp launch) {
  auto loop = launch->getParentOfType<scf::ForOp>();
  if (!loop)
    return;
  MLIRContext *context = launch.getContext();
  Builder b(context);
  SmallVector<NamedAttribute> entries;
  APInt lb, ub, step;
  if (matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) &&
      matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) &&
      matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
      step.isStrictlyPositive()) {
    int64_t span = ub.getSExtValue() - lb.getSExtValue();
    int64_t s = step.getSExtValue();
    entries.push_back(b.getNamedAttr(
        "trip_count", b.getI64IntegerAttr(span <= 0 ? 0 : (span + s - 1) / s)));
  }
  llvm::DenseMap<Value, bool> memo;
  SmallVector<int64_t> varying;
  for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands()))
    if (dependsOn(operand, loop.getInductionVar(), loop, memo))
      varying.push_back(index);
  entries.push_back(
      b.getNamedAttr("varying_operands", b.getDenseI64ArrayAttr(varying)));
  AutoProfDialect::HostLoopAttrHelper(context).setAttr(
      launch, b.getDictionaryAttr(entries));
}

LogicalResult mlir::autoprof::normalizeKernels(ModuleOp module) {
  if (failed(simplify(module)))
    return failure();
  for (auto &[kernel, launches] : collectLaunches(module))
    sinkConstantArguments(kernel, launches);
  // Sunk constants fold into the kernels' index arithmetic.
  if (failed(simplify(module)))
    return failure();
  for (auto &[kernel, launches] : collectLaunches(module))
    if (!launches.empty())
      recordKnownLaunchSizes(module, kernel);
  module.walk([](gpu::LaunchFuncOp launch) { markHostLoop(launch); });
  return success();
}

FailureOr<NormalizedCopy> mlir::autoprof::normalizeCopy(ModuleOp module) {
  NormalizedCopy copy;
  copy.module = module.clone();
  if (failed(normalizeKernels(*copy.module)))
    return failure();
  auto key = [](gpu::GPUFuncOp kernel) {
    auto parent = kernel->getParentOfType<gpu::GPUModuleOp>();
    return ((parent ? parent.getName() : StringRef()) + "::" + kernel.getName())
        .str();
  };
  llvm::StringMap<gpu::GPUFuncOp> normalized;
  copy.module->walk(
      [&](gpu::GPUFuncOp kernel) { normalized[key(kernel)] = kernel; });
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (gpu::GPUFuncOp counterpart = normalized.lookup(key(kernel)))
      copy.kernels[kernel] = counterpart;
  });
  SmallVector<gpu::LaunchFuncOp> before, after;
  module.walk([&](gpu::LaunchFuncOp launch) { before.push_back(launch); });
  copy.module->walk([&](gpu::LaunchFuncOp launch) { after.push_back(launch); });
  if (before.size() == after.size())
    for (auto [original, counterpart] : llvm::zip(before, after))
      copy.launches[original] = counterpart;
  return copy;
}

FailureOr<KernelFeatures>
mlir::autoprof::computeNormalizedFeatures(const NormalizedCopy &copy,
                                          gpu::GPUFuncOp kernel,
                                          gpu::LaunchFuncOp launch) {
  gpu::GPUFuncOp normalizedKernel = copy.kernels.lookup(kernel);
  gpu::LaunchFuncOp normalizedLaunch =
      launch ? copy.launches.lookup(launch) : gpu::LaunchFuncOp();
  if (!normalizedKernel || (launch && !normalizedLaunch))
    return KernelFeatures::compute(kernel, launch);
  return KernelFeatures::compute(normalizedKernel, normalizedLaunch);
}

namespace {
struct NormalizeKernelsPass
    : public mlir::autoprof::impl::NormalizeKernelsPassBase<
          NormalizeKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(normalizeKernels(getOperation())))
      signalPassFailure();
  }
};
} // namespace
