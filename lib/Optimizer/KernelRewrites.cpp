//===- KernelRewrites.cpp - Built-in rewrites of a kernel and launch ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/KernelRewrites.h"

#include "autoprof/Transforms/EvaluationJobs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::autoprof;

static constexpr StringLiteral kFamilies[] = {
    "block-size", "launch-bounds", "min-blocks",         "max-registers",
    "unroll",     "restrict",      "register-accumulate"};

std::string KernelRewrite::str() const {
  return family + "=" + std::to_string(parameter);
}

FailureOr<KernelRewrite>
mlir::autoprof::parseKernelRewrite(StringRef text, std::string &error) {
  auto [family, parameter] = text.trim().split('=');
  KernelRewrite rewrite;
  rewrite.family = family.str();
  if (!llvm::is_contained(kFamilies, family)) {
    error = "unknown rewrite '" + family.str() + "'; known: ";
    llvm::raw_string_ostream os(error);
    llvm::interleaveComma(kFamilies, os);
    return failure();
  }
  if (!parameter.empty() && parameter.getAsInteger(10, rewrite.parameter)) {
    error = "the parameter of '" + family.str() +
            "' must be an integer, got '" + parameter.str() + "'";
    return failure();
  }
  return rewrite;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Every launch of `kernel` in `module`.
static SmallVector<gpu::LaunchFuncOp> getLaunches(ModuleOp module,
                                                  gpu::GPUFuncOp kernel) {
  SmallVector<gpu::LaunchFuncOp> launches;
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
            launch, launch.getKernel()) == kernel)
      launches.push_back(launch);
  });
  return launches;
}

static std::optional<int64_t> getConstant(Value value) {
  APInt constant;
  if (!value || !matchPattern(value, m_ConstantInt(&constant)) ||
      constant.getSignificantBits() > 64)
    return std::nullopt;
  return constant.getSExtValue();
}

/// The constant block sizes shared by every launch, or nothing.
static std::optional<std::array<int64_t, 3>>
getUniformBlock(ArrayRef<gpu::LaunchFuncOp> launches) {
  std::optional<std::array<int64_t, 3>> block;
  for (gpu::LaunchFuncOp launch : launches) {
    gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
    std::optional<int64_t> x = getConstant(sizes.x), y = getConstant(sizes.y),
                           z = getConstant(sizes.z);
    if (!x || !y || !z)
      return std::nullopt;
    std::array<int64_t, 3> current = {*x, *y, *z};
    if (block && *block != current)
      return std::nullopt;
    block = current;
  }
  return block;
}

/// Whether every use of the x thread, block and block-size ids is the global
/// index `block_id * block_dim + thread_id`: then the set of indices a launch
/// covers depends only on the total number of threads.
static bool usesOnlyGlobalIndexX(gpu::GPUFuncOp kernel, std::string &why) {
  bool ok = true;
  auto isX = [](gpu::Dimension dim) { return dim == gpu::Dimension::x; };
  kernel.walk([&](Operation *op) {
    if (!ok)
      return;
    if (isa<gpu::GridDimOp, gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::ShuffleOp,
            gpu::BarrierOp, gpu::NumSubgroupsOp>(op) ||
        op->getName().getStringRef().starts_with("nvvm.")) {
      why = "it uses '" + op->getName().getStringRef().str() +
            "', whose meaning depends on the block size";
      ok = false;
      return;
    }
    auto checkUses = [&](Value value, StringRef what) {
      for (Operation *user : value.getUsers()) {
        // bid * bdim (either order), whose uses are all "+ tid".
        if (auto mul = dyn_cast<arith::MulIOp>(user)) {
          Value lhs = mul.getLhs(), rhs = mul.getRhs();
          auto bid = [](Value v) {
            auto op = v.getDefiningOp<gpu::BlockIdOp>();
            return op && op.getDimension() == gpu::Dimension::x;
          };
          auto bdim = [](Value v) {
            auto op = v.getDefiningOp<gpu::BlockDimOp>();
            return op && op.getDimension() == gpu::Dimension::x;
          };
          if (!((bid(lhs) && bdim(rhs)) || (bdim(lhs) && bid(rhs))))
            break;
          for (Operation *addUser : mul->getUsers()) {
            auto add = dyn_cast<arith::AddIOp>(addUser);
            Value other = add ? (add.getLhs() == mul.getResult() ? add.getRhs()
                                                                 : add.getLhs())
                              : Value();
            auto tid = other ? other.getDefiningOp<gpu::ThreadIdOp>()
                             : gpu::ThreadIdOp();
            if (!tid || !isX(tid.getDimension())) {
              why = "block_id * block_dim is used other than as a global index";
              ok = false;
              return;
            }
          }
          continue;
        }
        if (auto add = dyn_cast<arith::AddIOp>(user)) {
          Value other = add.getLhs() == value ? add.getRhs() : add.getLhs();
          auto mul = other.getDefiningOp<arith::MulIOp>();
          if (mul && what == "thread_id")
            continue;
        }
        why = ("the " + what +
               " is used other than in the global index "
               "block_id * block_dim + thread_id")
                  .str();
        ok = false;
        return;
      }
    };
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op))
      checkUses(tid, isX(tid.getDimension()) ? "thread_id" : "thread_id y/z");
    else if (auto bid = dyn_cast<gpu::BlockIdOp>(op))
      checkUses(bid, isX(bid.getDimension()) ? "block_id" : "block_id y/z");
    else if (auto bdim = dyn_cast<gpu::BlockDimOp>(op))
      checkUses(bdim, isX(bdim.getDimension()) ? "block_dim" : "block_dim y/z");
  });
  // The mul check above only proves the x operands; y/z ids must not appear.
  return ok;
}

/// Innermost scf.for loops with a constant step that may run at least
/// `factor` iterations.
static SmallVector<scf::ForOp> getUnrollableLoops(gpu::GPUFuncOp kernel,
                                                  int64_t factor) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](scf::ForOp) { innermost = false; });
    std::optional<int64_t> lb = getConstant(loop.getLowerBound()),
                           ub = getConstant(loop.getUpperBound()),
                           step = getConstant(loop.getStep());
    if (!innermost || !step || *step <= 0 || loop.getUnsignedCmp())
      return;
    // Unknown bounds are fine (the unroller adds an epilogue loop); known
    // ones must give enough iterations to be worth it.
    if (lb && ub) {
      if (*ub <= *lb)
        return;
      std::optional<int64_t> span = llvm::checkedSub(*ub, *lb);
      if (!span || (*span + *step - 1) / *step < factor)
        return;
    }
    loops.push_back(loop);
  });
  return loops;
}

namespace {
/// A load and a store of the same element of a kernel buffer in one loop
/// iteration, at indices that do not change in the loop.
struct Accumulation {
  scf::ForOp loop;
  memref::LoadOp load;
  memref::StoreOp store;
};
} // namespace

/// Whether `loop` runs at least once in every launch: constant lower bound
/// and step, and an upper bound that is a constant or a kernel argument every
/// launch feeds with a constant.
static bool runsAtLeastOnce(scf::ForOp loop, gpu::GPUFuncOp kernel,
                            ArrayRef<gpu::LaunchFuncOp> launches) {
  std::optional<int64_t> lb = getConstant(loop.getLowerBound());
  std::optional<int64_t> step = getConstant(loop.getStep());
  if (!lb || !step || *step <= 0 || loop.getUnsignedCmp())
    return false;
  if (std::optional<int64_t> ub = getConstant(loop.getUpperBound()))
    return *ub > *lb;
  auto arg = dyn_cast<BlockArgument>(loop.getUpperBound());
  if (!arg || arg.getOwner() != &kernel.getBody().front() ||
      arg.getArgNumber() >= kernel.getNumArguments())
    return false;
  return llvm::all_of(launches, [&](gpu::LaunchFuncOp launch) {
    std::optional<int64_t> ub =
        getConstant(launch.getKernelOperand(arg.getArgNumber()));
    return ub && *ub > *lb;
  });
}

/// Loops that load and store one element of a global kernel buffer every
/// iteration (C[i][j] += ... in a naive matmul): nothing else in the loop
/// touches that buffer, the indices are loop-invariant, and the loop has no
/// barriers, atomics or calls.
static SmallVector<Accumulation>
findAccumulations(gpu::GPUFuncOp kernel, ArrayRef<gpu::LaunchFuncOp> launches) {
  SmallVector<Accumulation> found;
  kernel.walk([&](scf::ForOp loop) {
    if (!runsAtLeastOnce(loop, kernel, launches))
      return;
    bool unsafe = false;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<gpu::BarrierOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp,
              func::CallOp>(op) ||
          op->getName().getStringRef().starts_with("nvvm."))
        unsafe = true;
    });
    if (unsafe)
      return;
    for (auto load : loop.getBody()->getOps<memref::LoadOp>()) {
      auto arg = dyn_cast<BlockArgument>(load.getMemRef());
      if (!arg || arg.getOwner() != &kernel.getBody().front() ||
          arg.getArgNumber() >= kernel.getNumArguments() ||
          !llvm::all_of(load.getIndices(), [&](Value index) {
            return loop.isDefinedOutsideOfLoop(index);
          }))
        continue;
      memref::StoreOp store;
      // Accesses through views or casts would escape the checks below.
      bool otherUse = llvm::any_of(arg.getUsers(), [](Operation *user) {
        return !isa<memref::LoadOp, memref::StoreOp>(user);
      });
      for (Operation *user : arg.getUsers()) {
        if (!loop->isProperAncestor(user) || user == load.getOperation())
          continue;
        auto candidate = dyn_cast<memref::StoreOp>(user);
        if (!store && candidate && candidate->getBlock() == loop.getBody() &&
            load->isBeforeInBlock(candidate) &&
            candidate.getIndices() == load.getIndices())
          store = candidate;
        else
          otherUse = true;
      }
      if (store && !otherUse)
        found.push_back({loop, load, store});
    }
  });
  return found;
}

/// Whether the launches provably pass distinct, non-overlapping buffers: each
/// comes from its own allocation or from a host argument marked llvm.noalias,
/// except at most one of unknown origin.
static bool passesDistinctBuffers(ArrayRef<gpu::LaunchFuncOp> launches,
                                  std::string &why) {
  for (gpu::LaunchFuncOp launch : launches) {
    llvm::DenseSet<Value> seen;
    unsigned unknownOrigin = 0;
    for (Value operand : launch.getKernelOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      bool provable = false;
      if (operand.getDefiningOp<memref::AllocOp>() ||
          operand.getDefiningOp<gpu::AllocOp>() ||
          operand.getDefiningOp<memref::AllocaOp>()) {
        provable = true;
      } else if (auto arg = dyn_cast<BlockArgument>(operand)) {
        auto func =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
        provable = func && arg.getOwner()->isEntryBlock() &&
                   func.getArgAttr(arg.getArgNumber(),
                                   LLVM::LLVMDialect::getNoAliasAttrName());
      }
      // A fresh allocation overlaps nothing, so one buffer of unknown origin
      // next to fresh allocations is still distinct from all of them.
      if (!provable && ++unknownOrigin > 1) {
        why = "two buffers of a launch are neither their own allocations nor "
              "host arguments marked llvm.noalias, so they may overlap";
        return false;
      }
      if (!seen.insert(operand).second) {
        why = "a launch passes the same buffer twice";
        return false;
      }
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Preconditions
//===----------------------------------------------------------------------===//

std::optional<std::string>
mlir::autoprof::checkKernelRewrite(const KernelRewrite &rewrite,
                                   ModuleOp module, gpu::GPUFuncOp kernel) {
  SmallVector<gpu::LaunchFuncOp> launches = getLaunches(module, kernel);
  if (launches.empty())
    return std::string("the kernel is never launched");
  std::optional<std::array<int64_t, 3>> block = getUniformBlock(launches);
  int64_t n = rewrite.parameter;
  const std::string &family = rewrite.family;

  if (family == "block-size") {
    if (n < 32 || n > 1024 || n % 32 != 0)
      return std::string("the block size must be a multiple of 32 in [32, "
                         "1024]");
    if (kernel.getNumWorkgroupAttributions() != 0 ||
        kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()) ||
        kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()))
      return std::string("the kernel has workgroup memory or launch bounds "
                         "tied to its block size");
    for (gpu::LaunchFuncOp launch : launches) {
      gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
      std::optional<int64_t> gx = getConstant(grid.x), gy = getConstant(grid.y),
                             gz = getConstant(grid.z),
                             bx = getConstant(sizes.x),
                             by = getConstant(sizes.y),
                             bz = getConstant(sizes.z);
      if (!gx || !gy || !gz || !bx || !by || !bz || *gy != 1 || *gz != 1 ||
          *by != 1 || *bz != 1)
        return std::string("a launch is not a constant 1-D launch");
      if (*bx == n)
        return "the kernel already runs with " + std::to_string(n) +
               " threads per block";
      if ((*gx * *bx) % n != 0)
        return "the launch's " + std::to_string(*gx * *bx) +
               " threads are not a multiple of " + std::to_string(n);
      if (launch.getDynamicSharedMemorySize())
        return std::string("a launch uses dynamic shared memory");
    }
    std::string why;
    if (!usesOnlyGlobalIndexX(kernel, why))
      return why;
    return std::nullopt;
  }
  if (family == "launch-bounds" || family == "min-blocks") {
    if (!block)
      return std::string("the launches do not share one constant block size");
    if (kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()) ||
        kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()))
      return std::string("the kernel already has launch bounds");
    if (family == "min-blocks") {
      int64_t threads = (*block)[0] * (*block)[1] * (*block)[2];
      if (n < 2 || n * threads > 2048)
        return "asking for " + std::to_string(n) + " blocks of " +
               std::to_string(threads) +
               " threads per SM exceeds 2048 resident threads";
      if (kernel->hasAttr(NVVM::NVVMDialect::getMinctasmAttrName()))
        return std::string("the kernel already asks for resident blocks");
    }
    return std::nullopt;
  }
  if (family == "max-registers") {
    if (!block)
      return std::string("the launches do not share one constant block size");
    int64_t threads = (*block)[0] * (*block)[1] * (*block)[2];
    if (n < 16 || n > 255 || n * threads > 65536)
      return "a limit of " + std::to_string(n) + " registers for " +
             std::to_string(threads) +
             " threads is not valid (16-255 and at "
             "most 65536 per block)";
    if (kernel->hasAttr(NVVM::NVVMDialect::getMaxnregAttrName()))
      return std::string("the kernel already has a register limit");
    return std::nullopt;
  }
  if (family == "unroll") {
    if (n < 2 || n > 16)
      return std::string("the unroll factor must be in [2, 16]");
    if (getUnrollableLoops(kernel, n).empty())
      return "no innermost scf.for with a constant step that runs at least " +
             std::to_string(n) + " iterations";
    return std::nullopt;
  }
  if (family == "register-accumulate") {
    if (findAccumulations(kernel, launches).empty())
      return std::string("no loop loads and stores one element of a kernel "
                         "buffer at loop-invariant indices (with a trip count "
                         "known to be positive and no barrier, atomic or "
                         "call in the loop)");
    std::string why;
    if (!passesDistinctBuffers(launches, why))
      return why;
    return std::nullopt;
  }
  if (family == "restrict") {
    bool anyToMark = false;
    for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes()))
      if (isa<MemRefType>(type) &&
          !kernel.getArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName()))
        anyToMark = true;
    if (!anyToMark)
      return std::string("every buffer is already marked no-alias");
    std::string why;
    if (!passesDistinctBuffers(launches, why))
      return why;
    return std::nullopt;
  }
  return "unknown rewrite '" + family + "'";
}

//===----------------------------------------------------------------------===//
// Application
//===----------------------------------------------------------------------===//

LogicalResult mlir::autoprof::applyKernelRewrite(const KernelRewrite &rewrite,
                                                 ModuleOp module,
                                                 gpu::GPUFuncOp kernel) {
  if (std::optional<std::string> why =
          checkKernelRewrite(rewrite, module, kernel))
    return emitError(kernel.getLoc(), "cannot apply ")
           << rewrite.str() << " to @" << kernel.getName() << ": " << *why;
  MLIRContext *context = kernel.getContext();
  Builder builder(context);
  SmallVector<gpu::LaunchFuncOp> launches = getLaunches(module, kernel);
  int64_t n = rewrite.parameter;

  if (rewrite.family == "block-size") {
    for (gpu::LaunchFuncOp launch : launches) {
      int64_t threads = *getConstant(launch.getGridSizeX()) *
                        *getConstant(launch.getBlockSizeX());
      OpBuilder b(launch);
      Value grid =
          arith::ConstantIndexOp::create(b, launch.getLoc(), threads / n);
      Value blockSize = arith::ConstantIndexOp::create(b, launch.getLoc(), n);
      launch.getGridSizeXMutable().assign(grid);
      launch.getBlockSizeXMutable().assign(blockSize);
    }
    return success();
  }
  if (rewrite.family == "launch-bounds" || rewrite.family == "min-blocks") {
    std::array<int64_t, 3> block = *getUniformBlock(launches);
    kernel->setAttr(
        NVVM::NVVMDialect::getMaxntidAttrName(),
        builder.getDenseI32ArrayAttr({static_cast<int32_t>(block[0]),
                                      static_cast<int32_t>(block[1]),
                                      static_cast<int32_t>(block[2])}));
    if (rewrite.family == "min-blocks")
      kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      builder.getI32IntegerAttr(n));
    return success();
  }
  if (rewrite.family == "max-registers") {
    kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    builder.getI32IntegerAttr(n));
    return success();
  }
  if (rewrite.family == "unroll") {
    for (scf::ForOp loop : getUnrollableLoops(kernel, n))
      if (failed(loopUnrollByFactor(loop, n)))
        return kernel.emitError("unrolling a loop of @")
               << kernel.getName() << " by " << n << " failed";
    return success();
  }
  if (rewrite.family == "register-accumulate") {
    // Load before the loop, carry the value through iter_args, store once
    // after it. The loop runs at least once, so the final store happens in
    // the original too; no other access of the buffer is in the loop.
    IRRewriter rewriter(context);
    for (Accumulation acc : findAccumulations(kernel, launches)) {
      rewriter.setInsertionPoint(acc.loop);
      Value initial =
          memref::LoadOp::create(rewriter, acc.load.getLoc(),
                                 acc.load.getMemRef(), acc.load.getIndices());
      Value stored = acc.store.getValueToStore();
      FailureOr<LoopLikeOpInterface> replaced =
          cast<LoopLikeOpInterface>(acc.loop.getOperation())
              .replaceWithAdditionalYields(
                  rewriter, initial, /*replaceInitOperandUsesInLoop=*/false,
                  [&](OpBuilder &, Location, ArrayRef<BlockArgument>)
                      -> SmallVector<Value> { return {stored}; });
      if (failed(replaced))
        return emitError(kernel.getLoc(), "cannot carry the accumulation of @")
               << kernel.getName() << " through its loop";
      auto newLoop = cast<scf::ForOp>(replaced->getOperation());
      rewriter.replaceAllUsesWith(acc.load.getResult(),
                                  newLoop.getRegionIterArgs().back());
      rewriter.setInsertionPointAfter(newLoop);
      memref::StoreOp::create(rewriter, acc.store.getLoc(),
                              newLoop.getResults().back(),
                              acc.store.getMemRef(), acc.store.getIndices());
      rewriter.eraseOp(acc.store);
      rewriter.eraseOp(acc.load);
    }
    return success();
  }
  if (rewrite.family == "restrict") {
    for (auto [index, arg] : llvm::enumerate(
             kernel.getArguments().take_front(kernel.getNumArguments()))) {
      if (!isa<MemRefType>(arg.getType()))
        continue;
      kernel.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(),
                        builder.getUnitAttr());
      if (inferBufferRole(arg) == "input")
        kernel.setArgAttr(index, LLVM::LLVMDialect::getReadonlyAttrName(),
                          builder.getUnitAttr());
    }
    return success();
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Ranking
//===----------------------------------------------------------------------===//

SmallVector<KernelRewrite>
mlir::autoprof::proposeKernelRewrites(ModuleOp module, gpu::GPUFuncOp kernel,
                                      DictionaryAttr features,
                                      const llvm::StringMap<double> &metrics) {
  auto feature = [&](StringRef name) -> double {
    Attribute attr = features ? features.get(name) : Attribute();
    if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
      return static_cast<double>(i.getInt());
    if (auto f = dyn_cast_or_null<FloatAttr>(attr))
      return f.getValueAsDouble();
    return 0;
  };
  auto metric = [&](StringRef name) -> std::optional<double> {
    auto it = metrics.find(name);
    if (it == metrics.end())
      return std::nullopt;
    return it->second;
  };

  // (score, rewrite): higher scores are tried first; the rules are in
  // docs/optimizer.md.
  SmallVector<std::pair<double, KernelRewrite>> scored;
  auto consider = [&](double score, StringRef family, int64_t parameter) {
    KernelRewrite rewrite{family.str(), parameter};
    if (!checkKernelRewrite(rewrite, module, kernel))
      scored.push_back({score, rewrite});
  };

  bool memoryBound = feature("arith_intensity") < 4.0;
  double blockThreads = feature("block_threads");
  double registers = metric("launch__registers_per_thread").value_or(0);
  std::optional<double> achievedOccupancy =
      metric("sm__warps_active.avg.pct_of_peak_sustained_active");
  std::optional<double> registerLimit =
      metric("launch__occupancy_limit_registers");

  // Loads through the read-only path help memory-bound kernels most.
  consider(memoryBound ? 9 : 5, "restrict", 1);
  // Tiny or huge blocks waste schedulers or occupancy.
  for (int64_t size : {256, 128, 512}) {
    double score = (blockThreads < 128 || blockThreads > 512) ? 8 : 3;
    consider(score - (size == 256 ? 0 : 0.5), "block-size", size);
  }
  // Accumulating through memory costs a load and a store per iteration.
  consider(10, "register-accumulate", 1);
  // Constant-trip loops: unrolling exposes independent loads and FMAs.
  if (feature("loop_depth") > 0) {
    consider(memoryBound ? 6 : 8, "unroll", 4);
    consider(memoryBound ? 5 : 7, "unroll", 8);
  }
  // Register-limited occupancy: cap registers.
  bool registerBound = registers > 64 ||
                       (registerLimit && *registerLimit <= 4) ||
                       (achievedOccupancy && *achievedOccupancy < 40);
  if (registerBound) {
    consider(7, "max-registers", registers > 96 ? 64 : 32);
    consider(6, "min-blocks", 2);
  } else {
    consider(2, "min-blocks", 2);
  }
  consider(1, "launch-bounds", 1);

  llvm::stable_sort(
      scored, [](const auto &a, const auto &b) { return a.first > b.first; });
  SmallVector<KernelRewrite> ranked;
  for (auto &[score, rewrite] : scored)
    ranked.push_back(rewrite);
  return ranked;
}
