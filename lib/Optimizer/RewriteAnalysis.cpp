//===- RewriteAnalysis.cpp - What the built-in rewrites check -------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "RewriteAnalysis.h"

#include "autoprof/Analysis/KernelFeatures.h"
#include "autoprof/Analysis/MemoryAccess.h"

#include "autoprof/Transforms/EvaluationJobs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::autoprof;

namespace mlir::autoprof::rewrites {

SmallVector<gpu::LaunchFuncOp> getLaunches(ModuleOp module,
                                           gpu::GPUFuncOp kernel) {
  return findAllKernelLaunches(module).lookup(kernel);
}

std::optional<int64_t> getConstant(Value value) {
  APInt constant;
  if (!value || !matchPattern(value, m_ConstantInt(&constant)) ||
      constant.getSignificantBits() > 64)
    return std::nullopt;
  return constant.getSExtValue();
}

std::optional<std::array<int64_t, 3>>
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

bool usesOnlyGlobalIndex(gpu::GPUFuncOp kernel, ArrayRef<gpu::Dimension> dims,
                         std::string &why) {
  bool ok = true;
  auto inDims = [&](gpu::Dimension dim) {
    return llvm::is_contained(dims, dim);
  };
  kernel.walk([&](Operation *op) {
    if (!ok)
      return;
    auto gridDim = dyn_cast<gpu::GridDimOp>(op);
    if ((gridDim && inDims(gridDim.getDimension())) ||
        isa<gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::ShuffleOp, gpu::BarrierOp,
            gpu::NumSubgroupsOp>(op) ||
        op->getName().getStringRef().starts_with("nvvm.")) {
      why = "it uses '" + op->getName().getStringRef().str() +
            "', whose meaning depends on the block size";
      ok = false;
      return;
    }
    auto checkUses = [&](Value value, gpu::Dimension dim, StringRef what) {
      for (Operation *user : value.getUsers()) {
        // bid * bdim (either order), whose uses are all "+ tid".
        if (auto mul = dyn_cast<arith::MulIOp>(user)) {
          Value lhs = mul.getLhs(), rhs = mul.getRhs();
          auto bid = [&](Value v) {
            auto op = v.getDefiningOp<gpu::BlockIdOp>();
            return op && op.getDimension() == dim;
          };
          auto bdim = [&](Value v) {
            auto op = v.getDefiningOp<gpu::BlockDimOp>();
            return op && op.getDimension() == dim;
          };
          if (!((bid(lhs) && bdim(rhs)) || (bdim(lhs) && bid(rhs)))) {
            why = ("the " + what +
                   " takes part in a product other than block_id * "
                   "block_dim of its dimension")
                      .str();
            ok = false;
            return;
          }
          for (Operation *addUser : mul->getUsers()) {
            auto add = dyn_cast<arith::AddIOp>(addUser);
            Value other = add ? (add.getLhs() == mul.getResult() ? add.getRhs()
                                                                 : add.getLhs())
                              : Value();
            auto tid = other ? other.getDefiningOp<gpu::ThreadIdOp>()
                             : gpu::ThreadIdOp();
            if (!tid || tid.getDimension() != dim) {
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
          auto isDim = [&](Value v, bool blockId) {
            if (auto op = v.getDefiningOp<gpu::BlockIdOp>())
              return blockId && op.getDimension() == dim;
            if (auto op = v.getDefiningOp<gpu::BlockDimOp>())
              return !blockId && op.getDimension() == dim;
            return false;
          };
          // Only "+ block_id * block_dim" of the same dimension.
          if (mul && what == "thread_id" &&
              ((isDim(mul.getLhs(), true) && isDim(mul.getRhs(), false)) ||
               (isDim(mul.getLhs(), false) && isDim(mul.getRhs(), true))))
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
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op);
        tid && inDims(tid.getDimension()))
      checkUses(tid, tid.getDimension(), "thread_id");
    else if (auto bid = dyn_cast<gpu::BlockIdOp>(op);
             bid && inDims(bid.getDimension()))
      checkUses(bid, bid.getDimension(), "block_id");
    else if (auto bdim = dyn_cast<gpu::BlockDimOp>(op);
             bdim && inDims(bdim.getDimension()))
      checkUses(bdim, bdim.getDimension(), "block_dim");
  });
  return ok;
}

bool usesOnlyGlobalIndexX(gpu::GPUFuncOp kernel, std::string &why) {
  return usesOnlyGlobalIndex(kernel, {gpu::Dimension::x}, why);
}

SmallVector<scf::ForOp> getUnrollableLoops(gpu::GPUFuncOp kernel,
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

bool runsAtLeastOnce(scf::ForOp loop, gpu::GPUFuncOp kernel,
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

/// Whether `loop` holds a barrier, an atomic, a call or an NVVM operation.
static bool hasUnsafeOps(scf::ForOp loop) {
  bool unsafe = false;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<gpu::BarrierOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp,
            func::CallOp>(op) ||
        op->getName().getStringRef().starts_with("nvvm."))
      unsafe = true;
  });
  return unsafe;
}

SmallVector<Accumulation>
findAccumulations(gpu::GPUFuncOp kernel, ArrayRef<gpu::LaunchFuncOp> launches) {
  SmallVector<Accumulation> found;
  kernel.walk([&](scf::ForOp loop) {
    if (!runsAtLeastOnce(loop, kernel, launches) || hasUnsafeOps(loop))
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
      auto usedIn = [&](scf::ForOp around) {
        return llvm::any_of(arg.getUsers(), [&](Operation *user) {
          return around->isProperAncestor(user) &&
                 user != load.getOperation() && user != store.getOperation();
        });
      };
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
      if (!store || otherUse)
        continue;
      Accumulation accumulation{loop, load, store};
      for (auto around = dyn_cast<scf::ForOp>(loop->getParentOp()); around;
           around = dyn_cast<scf::ForOp>(around->getParentOp())) {
        if (!runsAtLeastOnce(around, kernel, launches) ||
            hasUnsafeOps(around) || usedIn(around) ||
            !llvm::all_of(load.getIndices(), [&](Value index) {
              return around.isDefinedOutsideOfLoop(index);
            }))
          break;
        ++accumulation.enclosing;
      }
      found.push_back(accumulation);
    }
  });
  return found;
}

bool passesDistinctBuffers(ArrayRef<gpu::LaunchFuncOp> launches,
                           std::string &why) {
  return proveDistinctBuffers(launches, why);
}

std::optional<std::string>
checkConstantLaunches(ArrayRef<gpu::LaunchFuncOp> launches,
                      bool oneDimensionalGrid) {
  for (gpu::LaunchFuncOp launch : launches) {
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
    std::optional<int64_t> gx = getConstant(grid.x), gy = getConstant(grid.y),
                           gz = getConstant(grid.z), bx = getConstant(sizes.x),
                           by = getConstant(sizes.y), bz = getConstant(sizes.z);
    if (!gx || !gy || !gz || !bx || !by || !bz || *by != 1 || *bz != 1 ||
        (oneDimensionalGrid && (*gy != 1 || *gz != 1)))
      return std::string(oneDimensionalGrid
                             ? "a launch is not a constant 1-D launch"
                             : "a launch does not have constant sizes and a "
                               "1-D block");
    if (launch.getDynamicSharedMemorySize())
      return std::string("a launch uses dynamic shared memory");
  }
  return std::nullopt;
}

std::optional<std::string>
checkGridDivisible(ArrayRef<gpu::LaunchFuncOp> launches, int64_t factor) {
  for (gpu::LaunchFuncOp launch : launches) {
    int64_t gx = *getConstant(launch.getGridSizeX());
    if (gx % factor != 0)
      return "a launch's grid of " + std::to_string(gx) +
             " blocks is not a multiple of " + std::to_string(factor);
  }
  return std::nullopt;
}

SmallVector<Value> getGlobalIndices(gpu::GPUFuncOp kernel) {
  SmallVector<Value> indices;
  kernel.walk([&](gpu::ThreadIdOp tid) {
    if (tid.getDimension() != gpu::Dimension::x)
      return;
    for (Operation *user : tid->getUsers())
      if (isa<arith::AddIOp>(user))
        indices.push_back(user->getResult(0));
  });
  return indices;
}

std::optional<int64_t> getLaunchValue(Value value, gpu::GPUFuncOp kernel,
                                      gpu::LaunchFuncOp launch) {
  if (std::optional<int64_t> constant = getConstant(value))
    return constant;
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &kernel.getBody().front() ||
      arg.getArgNumber() >= kernel.getNumArguments())
    return std::nullopt;
  return getConstant(launch.getKernelOperand(arg.getArgNumber()));
}

bool isUniformMultipleOf(Value value, int64_t factor, gpu::GPUFuncOp kernel,
                         ArrayRef<gpu::LaunchFuncOp> launches) {
  return llvm::all_of(launches, [&](gpu::LaunchFuncOp launch) {
    std::optional<int64_t> bound = getLaunchValue(value, kernel, launch);
    return bound && *bound % factor == 0;
  });
}

FailureOr<VectorizableRegion>
findVectorizableRegion(gpu::GPUFuncOp kernel,
                       ArrayRef<gpu::LaunchFuncOp> launches, int64_t factor,
                       std::string &why) {
  SmallVector<Value> indices = getGlobalIndices(kernel);
  if (indices.size() != 1) {
    why = "the kernel does not compute its global index block_id * "
          "block_dim + thread_id exactly once";
    return failure();
  }
  VectorizableRegion region;
  region.globalIndex = indices.front();
  Value g = region.globalIndex;
  for (Operation *user : g.getUsers()) {
    auto cmp = dyn_cast<arith::CmpIOp>(user);
    if (!cmp || cmp.getLhs() != g ||
        (cmp.getPredicate() != arith::CmpIPredicate::ult &&
         cmp.getPredicate() != arith::CmpIPredicate::slt))
      continue;
    if (region.guard || !cmp->hasOneUse()) {
      why = "the global index is compared more than once";
      return failure();
    }
    auto guarded = dyn_cast<scf::IfOp>(*cmp->getUsers().begin());
    if (!guarded || guarded.getNumResults() != 0 ||
        !guarded.getElseRegion().empty() ||
        guarded->getBlock() != &kernel.getBody().front()) {
      why = "the bounds check g < n does not guard a plain scf.if in the "
            "kernel's body";
      return failure();
    }
    if (!isUniformMultipleOf(cmp.getRhs(), factor, kernel, launches)) {
      why = "the bound of g < n is not a constant multiple of " +
            std::to_string(factor) + " in every launch";
      return failure();
    }
    region.guard = cmp;
    region.guarded = guarded;
  }
  if (!region.guard) {
    why = "no bounds check g < n on the global index guards the body";
    return failure();
  }
  Block *body = region.guarded.thenBlock();
  for (Operation *user : g.getUsers()) {
    if (user == region.guard.getOperation())
      continue;
    if (!isa<memref::LoadOp, memref::StoreOp>(user) ||
        user->getBlock() != body) {
      why = "the global index is used other than in the bounds check and as "
            "the innermost index of loads and stores in the guarded region";
      return failure();
    }
  }
  auto checkAccess = [&](Operation *op, Value memref,
                         ValueRange accessIndices) -> bool {
    auto type = cast<MemRefType>(memref.getType());
    auto arg = dyn_cast<BlockArgument>(memref);
    if (!arg || arg.getOwner() != &kernel.getBody().front() ||
        !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace()) {
      why = "an access in the guarded region is not to a kernel buffer "
            "argument in global memory with a static, identity layout";
      return false;
    }
    Type element = type.getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
        element.getIntOrFloatBitWidth() * factor > 256) {
      why = "an access of " + std::to_string(factor) +
            " elements would not be a vector of at most 256 bits";
      return false;
    }
    if (accessIndices.empty() || accessIndices.back() != g ||
        type.getShape().back() % factor != 0 ||
        llvm::any_of(accessIndices.drop_back(), [&](Value index) {
          return region.guarded->isAncestor(
                     index.getParentBlock()->getParentOp()) ||
                 index == g;
        })) {
      why = "an access in the guarded region is not at [..., g] with outer "
            "indices fixed before it and an innermost extent divisible by " +
            std::to_string(factor);
      return false;
    }
    return true;
  };
  for (Operation &op : body->without_terminator()) {
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (!checkAccess(load, load.getMemRef(), load.getIndices()))
        return failure();
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (!checkAccess(store, store.getMemRef(), store.getIndices()))
        return failure();
      continue;
    }
    bool scalar = llvm::all_of(op.getResultTypes(), [](Type type) {
      return type.isIntOrIndexOrFloat();
    });
    if (!scalar || op.getNumRegions() != 0 ||
        !(isa<arith::ConstantOp>(op) ||
          (OpTrait::hasElementwiseMappableTraits(&op) &&
           isMemoryEffectFree(&op)))) {
      why = "the guarded region contains '" +
            op.getName().getStringRef().str() +
            "', which is not an elementwise computation on scalars";
      return failure();
    }
  }
  return region;
}

int64_t getWorkgroupBytes(gpu::GPUFuncOp kernel) {
  int64_t bytes = 0;
  for (BlockArgument arg : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(arg.getType());
    bytes += type.getNumElements() *
             llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  return bytes;
}

SmallVector<BlockArgument> findPrivatizableBuffers(gpu::GPUFuncOp kernel,
                                                   int64_t sharedLimit,
                                                   std::string &why) {
  SmallVector<BlockArgument> buffers;
  int64_t shared = getWorkgroupBytes(kernel);
  why = "no kernel buffer is used only as the target of atomic adds";
  for (BlockArgument arg :
       kernel.getArguments().take_front(kernel.getNumArguments())) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || arg.use_empty())
      continue;
    bool onlyAdds = llvm::all_of(arg.getUsers(), [&](Operation *user) {
      auto atomic = dyn_cast<memref::AtomicRMWOp>(user);
      return atomic && atomic.getMemref() == arg &&
             atomic.getResult().use_empty() &&
             (atomic.getKind() == arith::AtomicRMWKind::addi ||
              atomic.getKind() == arith::AtomicRMWKind::addf);
    });
    if (!onlyAdds)
      continue;
    if (type.getRank() != 1 || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() || type.getMemorySpace() ||
        !type.getElementType().isIntOrFloat()) {
      why = "the atomically updated buffer is not a static 1-D buffer in "
            "global memory";
      continue;
    }
    int64_t bytes = type.getNumElements() *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    if (shared + bytes > sharedLimit) {
      why = "a block's copy of the atomically updated buffer (" +
            std::to_string(bytes) + " bytes) does not fit next to " +
            std::to_string(shared) + " bytes in " +
            std::to_string(sharedLimit / 1024) + " KiB of shared memory";
      continue;
    }
    shared += bytes;
    buffers.push_back(arg);
  }
  return buffers;
}

FailureOr<scf::ForOp> findDistributableLoop(gpu::GPUFuncOp kernel,
                                            std::string &why) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  if (loops.size() != 1) {
    why = "the kernel does not have exactly one scf.for";
    return failure();
  }
  scf::ForOp loop = loops.front();
  std::optional<int64_t> step = getConstant(loop.getStep());
  if (loop.getNumResults() != 0 || !step || *step <= 0 ||
      loop.getUnsignedCmp()) {
    why = "the loop carries values or has no constant positive step";
    return failure();
  }
  Value iv = loop.getInductionVar();
  llvm::DenseMap<Value, SmallVector<Value>> storedAt;
  bool ok = true;
  kernel.walk([&](Operation *op) {
    if (!ok || op == loop.getOperation() || op == kernel.getOperation() ||
        op->hasTrait<OpTrait::IsTerminator>())
      return;
    bool inLoop = loop->isProperAncestor(op);
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      auto indices = store.getIndices();
      auto &known = storedAt[store.getMemRef()];
      if (!inLoop) {
        why = "the kernel writes memory outside the loop";
        ok = false;
      } else if (!llvm::is_contained(indices, iv) ||
                 (!known.empty() && ValueRange(known) != indices)) {
        why = "a store in the loop is not at indices that include the "
              "induction variable";
        ok = false;
      }
      known.assign(indices.begin(), indices.end());
      return;
    }
    if (isa<memref::LoadOp>(op) || isMemoryEffectFree(op) ||
        (isa<scf::IfOp>(op) && !inLoop))
      return;
    why = "'" + op->getName().getStringRef().str() +
          "' is neither a load, a store nor free of side effects";
    ok = false;
  });
  if (!ok)
    return failure();
  kernel.walk([&](memref::LoadOp load) {
    auto it = storedAt.find(load.getMemRef());
    if (!ok || it == storedAt.end())
      return;
    if (!loop->isProperAncestor(load)) {
      why = "the kernel reads a buffer the loop writes outside the loop";
      ok = false;
    } else if (ValueRange(it->second) != load.getIndices()) {
      why = "the loop reads a buffer it writes at other indices";
      ok = false;
    }
  });
  if (!ok)
    return failure();
  return loop;
}

std::optional<gpu::Dimension> getIndexDimension(Value value) {
  for (int depth = 0; value && depth < 4; ++depth) {
    auto add = value.getDefiningOp<arith::AddIOp>();
    if (add) {
      for (Value operand : {add.getLhs(), add.getRhs()})
        if (auto tid = operand.getDefiningOp<gpu::ThreadIdOp>())
          if (auto mul = (operand == add.getLhs() ? add.getRhs() : add.getLhs())
                             .getDefiningOp<arith::MulIOp>())
            if (llvm::any_of(mul->getOperands(), [&](Value v) {
                  auto bid = v.getDefiningOp<gpu::BlockIdOp>();
                  return bid && bid.getDimension() == tid.getDimension();
                }))
              return tid.getDimension();
      value = getConstant(add.getRhs()) ? add.getLhs() : add.getRhs();
      continue;
    }
    auto sub = value.getDefiningOp<arith::SubIOp>();
    value = sub ? sub.getLhs() : Value();
  }
  return std::nullopt;
}

FailureOr<CoalescePlan> planCoalesce(gpu::GPUFuncOp kernel,
                                     ArrayRef<gpu::LaunchFuncOp> launches,
                                     int64_t p, std::string &why) {
  if (std::optional<std::string> tied = checkBlockShapeIsFree(kernel)) {
    why = *tied;
    return failure();
  }
  if (!usesOnlyGlobalIndex(
          kernel, {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z},
          why))
    return failure();
  std::array<int, 3> votes = {0, 0, 0};
  kernel.walk([&](Operation *op) {
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      indices = load.getIndices();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      indices = store.getIndices();
    if (!indices.empty())
      if (std::optional<gpu::Dimension> dim = getIndexDimension(indices.back()))
        ++votes[static_cast<int>(*dim)];
  });
  int fastest = std::max_element(votes.begin(), votes.end()) - votes.begin();
  if (votes[fastest] == 0) {
    why = "no access's innermost index comes from a thread's global index";
    return failure();
  }
  CoalescePlan plan;
  plan.fastest = static_cast<gpu::Dimension>(fastest);
  for (gpu::LaunchFuncOp launch : launches) {
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
    std::array<std::optional<int64_t>, 6> values = {
        getConstant(grid.x),  getConstant(grid.y),  getConstant(grid.z),
        getConstant(sizes.x), getConstant(sizes.y), getConstant(sizes.z)};
    if (llvm::any_of(values, [](auto v) { return !v; }) ||
        launch.getDynamicSharedMemorySize()) {
      why = "a launch does not have constant sizes and no dynamic shared "
            "memory";
      return failure();
    }
    if (fastest == 0 && *values[3] >= p) {
      why = "the contiguous dimension already runs along x with at least " +
            std::to_string(p) + " threads per block";
      return failure();
    }
    std::array<int64_t, 3> totals;
    for (int d = 0; d < 3; ++d)
      totals[d] = *values[d] * *values[d + 3];
    std::swap(totals[0], totals[fastest]);
    int64_t threads = *values[3] * *values[4] * *values[5];
    std::array<int64_t, 3> block, newGrid;
    block[0] = std::min(p, totals[0]);
    block[1] = std::min(totals[1], std::max<int64_t>(1, threads / block[0]));
    block[2] = std::min({totals[2],
                         std::max<int64_t>(1, threads / (block[0] * block[1])),
                         int64_t(64)});
    for (int d = 0; d < 3; ++d) {
      if (totals[d] % block[d] != 0) {
        why = "a launch's " + std::to_string(totals[d]) +
              " threads along one dimension do not divide into blocks of " +
              std::to_string(block[d]);
        return failure();
      }
      newGrid[d] = totals[d] / block[d];
    }
    if (newGrid[1] > 65535 || newGrid[2] > 65535) {
      why = "the new grid exceeds 65535 blocks along y or z";
      return failure();
    }
    plan.shapes.push_back({newGrid, block});
  }
  return plan;
}

std::optional<std::string> checkBlockShapeIsFree(gpu::GPUFuncOp kernel) {
  if (kernel.getNumWorkgroupAttributions() != 0 ||
      kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()) ||
      kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()))
    return std::string("the kernel has workgroup memory or launch bounds "
                       "tied to its block size");
  return std::nullopt;
}

std::optional<std::string>
checkOneDimensionalResizable(gpu::GPUFuncOp kernel,
                             ArrayRef<gpu::LaunchFuncOp> launches) {
  if (std::optional<std::string> why = checkBlockShapeIsFree(kernel))
    return why;
  return checkConstantLaunches(launches, /*oneDimensionalGrid=*/true);
}

} // namespace mlir::autoprof::rewrites
