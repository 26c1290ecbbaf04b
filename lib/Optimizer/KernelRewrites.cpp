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
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::autoprof;

static constexpr StringLiteral kFamilies[] = {
    "block-size",        "launch-bounds",   "min-blocks",
    "max-registers",     "unroll",          "restrict",
    "coarsen",           "vectorize",       "register-accumulate",
    "privatize-atomics", "distribute-loop", "coalesce"};

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

/// Whether every use of the thread, block and block-size ids along each of
/// `dims` is that dimension's global index `block_id * block_dim +
/// thread_id`: then the set of indices a launch covers depends only on the
/// total number of threads along those dimensions. Ids along other
/// dimensions are left alone.
static bool usesOnlyGlobalIndex(gpu::GPUFuncOp kernel,
                                ArrayRef<gpu::Dimension> dims,
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
          if (!((bid(lhs) && bdim(rhs)) || (bdim(lhs) && bid(rhs))))
            break;
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

/// usesOnlyGlobalIndex along x: the rewrites that rely on it keep the block
/// 1-D and do not change the grid's y and z.
static bool usesOnlyGlobalIndexX(gpu::GPUFuncOp kernel, std::string &why) {
  return usesOnlyGlobalIndex(kernel, {gpu::Dimension::x}, why);
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

/// Checks that every launch has a constant grid, a constant 1-D block and no
/// dynamic shared memory; with `oneDimensionalGrid` the grid must be 1-D too.
static std::optional<std::string>
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

/// Checks that every launch's grid x is a multiple of `factor`.
static std::optional<std::string>
checkGridDivisible(ArrayRef<gpu::LaunchFuncOp> launches, int64_t factor) {
  for (gpu::LaunchFuncOp launch : launches) {
    int64_t gx = *getConstant(launch.getGridSizeX());
    if (gx % factor != 0)
      return "a launch's grid of " + std::to_string(gx) +
             " blocks is not a multiple of " + std::to_string(factor);
  }
  return std::nullopt;
}

/// The values `block_id x * block_dim x + thread_id x` of `kernel`.
static SmallVector<Value> getGlobalIndices(gpu::GPUFuncOp kernel) {
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

/// The constant `value` has in `launch`: a constant, or a kernel argument the
/// launch feeds with one.
static std::optional<int64_t> getLaunchValue(Value value, gpu::GPUFuncOp kernel,
                                             gpu::LaunchFuncOp launch) {
  if (std::optional<int64_t> constant = getConstant(value))
    return constant;
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &kernel.getBody().front() ||
      arg.getArgNumber() >= kernel.getNumArguments())
    return std::nullopt;
  return getConstant(launch.getKernelOperand(arg.getArgNumber()));
}

/// Whether `value` is a constant or a kernel argument that every launch feeds
/// with a constant multiple of `factor`.
static bool isUniformMultipleOf(Value value, int64_t factor,
                                gpu::GPUFuncOp kernel,
                                ArrayRef<gpu::LaunchFuncOp> launches) {
  return llvm::all_of(launches, [&](gpu::LaunchFuncOp launch) {
    std::optional<int64_t> bound = getLaunchValue(value, kernel, launch);
    return bound && *bound % factor == 0;
  });
}

namespace {
/// A kernel whose body is `if (g < n) { ... }` with g the global index: the
/// guarded region touches buffers only at [..., g] and computes elementwise.
struct VectorizableRegion {
  Value globalIndex;
  arith::CmpIOp guard;
  scf::IfOp guarded;
};
} // namespace

/// Finds the region `vectorize=V` rewrites, or says why there is none.
static FailureOr<VectorizableRegion>
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

/// Shared memory a kernel may use statically on sm_90 without opting in.
static constexpr int64_t kStaticSharedLimit = 48 * 1024;

/// Bytes of the kernel's workgroup attributions.
static int64_t getWorkgroupBytes(gpu::GPUFuncOp kernel) {
  int64_t bytes = 0;
  for (BlockArgument arg : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(arg.getType());
    bytes += type.getNumElements() *
             llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  return bytes;
}

/// Kernel buffers that are only ever targets of atomic adds whose results are
/// unused: small enough to keep a copy per block in shared memory.
static SmallVector<BlockArgument> findPrivatizableBuffers(gpu::GPUFuncOp kernel,
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
    if (shared + bytes > kStaticSharedLimit) {
      why = "a block's copy of the atomically updated buffer (" +
            std::to_string(bytes) + " bytes) does not fit next to " +
            std::to_string(shared) + " bytes in 48 KiB of shared memory";
      continue;
    }
    shared += bytes;
    buffers.push_back(arg);
  }
  return buffers;
}

/// The one loop of `kernel` whose iterations `distribute-loop` may spread
/// over threads, or why there is none: no results, a constant positive step,
/// only loads, stores and side-effect-free operations in the body, every
/// buffer it writes written at indices that include the induction variable
/// and read in the loop only at those indices, and no other writes anywhere
/// in the kernel (each lane repeats the code around the loop).
static FailureOr<scf::ForOp> findDistributableLoop(gpu::GPUFuncOp kernel,
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

namespace {
/// What `coalesce=P` does to a kernel: which dimension moves to x, and the
/// new grid and block of every launch.
struct CoalescePlan {
  gpu::Dimension fastest = gpu::Dimension::x;
  SmallVector<std::pair<std::array<int64_t, 3>, std::array<int64_t, 3>>> shapes;
};
} // namespace

/// The dimension whose global index `block_id * block_dim + thread_id` is
/// `value`, possibly through additions and subtractions, if any.
static std::optional<gpu::Dimension> getIndexDimension(Value value) {
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

/// Plans `coalesce=P`: the dimension most accesses use as their innermost
/// (contiguous) index becomes x, with P threads of a block along it.
static FailureOr<CoalescePlan>
planCoalesce(gpu::GPUFuncOp kernel, ArrayRef<gpu::LaunchFuncOp> launches,
             int64_t p, std::string &why) {
  if (kernel.getNumWorkgroupAttributions() != 0 ||
      kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()) ||
      kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName())) {
    why = "the kernel has workgroup memory or launch bounds tied to its "
          "block shape";
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
    if (std::optional<std::string> why =
            checkConstantLaunches(launches, /*oneDimensionalGrid=*/true))
      return why;
    for (gpu::LaunchFuncOp launch : launches) {
      int64_t gx = *getConstant(launch.getGridSizeX());
      int64_t bx = *getConstant(launch.getBlockSizeX());
      if (bx == n)
        return "the kernel already runs with " + std::to_string(n) +
               " threads per block";
      if ((gx * bx) % n != 0)
        return "the launch's " + std::to_string(gx * bx) +
               " threads are not a multiple of " + std::to_string(n);
    }
    std::string why;
    if (!usesOnlyGlobalIndexX(kernel, why))
      return why;
    return std::nullopt;
  }
  if (family == "coarsen" || family == "vectorize") {
    bool coarsen = family == "coarsen";
    if (coarsen ? (n < 2 || n > 64) : (n != 2 && n != 4 && n != 8 && n != 16))
      return std::string(coarsen ? "the coarsening factor must be in [2, 64]"
                                 : "the vector width must be 2, 4, 8 or 16");
    if (kernel.getNumWorkgroupAttributions() != 0 ||
        kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()))
      return std::string("the kernel has workgroup memory or a required "
                         "block size");
    if (!kernel.getBody().hasOneBlock())
      return std::string("the kernel's body is not a single block");
    if (std::optional<std::string> why =
            checkConstantLaunches(launches, /*oneDimensionalGrid=*/false))
      return why;
    std::string why;
    if (!usesOnlyGlobalIndexX(kernel, why))
      return why;
    if (coarsen) {
      if (std::optional<std::string> why = checkGridDivisible(launches, n))
        return why;
      return std::nullopt;
    }
    FailureOr<VectorizableRegion> region =
        findVectorizableRegion(kernel, launches, n, why);
    if (failed(region))
      return why;
    // A grid that does not divide is rounded up; the extra threads fail the
    // bounds check, which must then cover no more than the original threads.
    if (checkGridDivisible(launches, n)) {
      for (gpu::LaunchFuncOp launch : launches) {
        std::optional<int64_t> bound =
            getLaunchValue(region->guard.getRhs(), kernel, launch);
        int64_t threads = *getConstant(launch.getGridSizeX()) *
                          *getConstant(launch.getBlockSizeX());
        if (!bound || *bound > threads)
          return "a launch's grid is not a multiple of " + std::to_string(n) +
                 " blocks and its bounds check does not stop at its " +
                 std::to_string(threads) + " threads";
      }
      for (Operation &op : kernel.getBody().front().without_terminator())
        if (&op != region->guarded.getOperation() && !isMemoryEffectFree(&op))
          return "a launch's grid is not a multiple of " + std::to_string(n) +
                 " blocks and '" + op.getName().getStringRef().str() +
                 "' outside the bounds check has side effects";
    }
    return std::nullopt;
  }
  if (family == "privatize-atomics") {
    if (n < 1 || n > 64)
      return std::string("the coarsening factor must be in [1, 64]");
    std::string why;
    if (findPrivatizableBuffers(kernel, why).empty())
      return why;
    if (!kernel.getBody().hasOneBlock())
      return std::string("the kernel's body is not a single block, so not "
                         "every thread is known to reach its end");
    if (!block || (*block)[1] != 1 || (*block)[2] != 1)
      return std::string("the launches do not share one constant 1-D block");
    bool synchronizes = false;
    kernel.walk([&](gpu::BarrierOp) { synchronizes = true; });
    if (synchronizes)
      return std::string("the kernel already synchronizes its blocks");
    // The parameter coarsens first, so that each block's shared copy
    // collects more updates before it is added into the buffer.
    if (n > 1)
      return checkKernelRewrite({"coarsen", n}, module, kernel);
    return std::nullopt;
  }
  if (family == "coalesce") {
    if (n != 32 && n != 64 && n != 128)
      return std::string("the block's extent along x must be 32, 64 or 128");
    std::string why;
    if (failed(planCoalesce(kernel, launches, n, why)))
      return why;
    return std::nullopt;
  }
  if (family == "distribute-loop") {
    if (n != 2 && n != 4 && n != 8 && n != 16 && n != 32)
      return std::string("the number of lanes must be 2, 4, 8, 16 or 32");
    if (kernel.getNumWorkgroupAttributions() != 0 ||
        kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()) ||
        kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()))
      return std::string("the kernel has workgroup memory or launch bounds "
                         "tied to its block size");
    if (std::optional<std::string> why =
            checkConstantLaunches(launches, /*oneDimensionalGrid=*/true))
      return why;
    for (gpu::LaunchFuncOp launch : launches) {
      int64_t threads = *getConstant(launch.getGridSizeX()) *
                        *getConstant(launch.getBlockSizeX());
      int64_t perBlock =
          std::min<int64_t>(*getConstant(launch.getBlockSizeX()), 1024 / n);
      if (threads % perBlock != 0)
        return "the launch's " + std::to_string(threads) +
               " threads do not fill blocks of " + std::to_string(perBlock);
    }
    std::string why;
    if (!usesOnlyGlobalIndexX(kernel, why))
      return why;
    if (failed(findDistributableLoop(kernel, why)))
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

/// Runs the body of `kernel` n times per thread: block b of the smaller grid
/// does the work of blocks b*n .. b*n+n-1 of the original one, one after the
/// other, so consecutive threads still touch consecutive elements.
static LogicalResult coarsenKernel(gpu::GPUFuncOp kernel, int64_t n) {
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value factor = arith::ConstantIndexOp::create(b, loc, n);
  auto loop = scf::ForOp::create(b, loc, zero, factor, one);
  // Everything after the loop except the terminator moves into it.
  Block *loopBody = loop.getBody();
  loopBody->getOperations().splice(
      loopBody->without_terminator().begin(), body.getOperations(),
      std::next(loop->getIterator()), body.getTerminator()->getIterator());
  b.setInsertionPointToStart(loopBody);
  Value first = arith::MulIOp::create(b, loc, blockId, factor);
  Value virtualBlock =
      arith::AddIOp::create(b, loc, first, loop.getInductionVar());
  SmallVector<gpu::BlockIdOp> oldIds;
  loop.getBody()->walk([&](gpu::BlockIdOp id) {
    if (id.getDimension() == gpu::Dimension::x)
      oldIds.push_back(id);
  });
  for (gpu::BlockIdOp id : oldIds) {
    id.getResult().replaceAllUsesWith(virtualBlock);
    id.erase();
  }
  return success();
}

/// Gives every block a zeroed shared copy of `buffer`, redirects the atomic
/// adds to it, and adds each non-zero element into `buffer` at the end: one
/// global atomic per element and block instead of one per update. Every
/// thread reaches both barriers: the body is a single block.
static void privatizeAtomics(gpu::GPUFuncOp kernel, BlockArgument buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  Location loc = buffer.getLoc();
  MLIRContext *context = kernel.getContext();
  auto sharedType = MemRefType::get(
      type.getShape(), type.getElementType(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(context,
                                 gpu::GPUDialect::getWorkgroupAddressSpace()));
  BlockArgument shared = kernel.addWorkgroupAttribution(sharedType, loc);
  for (OpOperand &use : llvm::make_early_inc_range(buffer.getUses()))
    use.set(shared);

  Block &body = kernel.getBody().front();
  Type element = type.getElementType();
  auto zeroAttr = cast<TypedAttr>(OpBuilder(context).getZeroAttr(element));
  // for (e = tid; e < size; e += block_dim) ...
  auto forEachElement = [&](OpBuilder &b,
                            function_ref<void(OpBuilder &, Value)> bodyFn) {
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value step = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
    Value size = arith::ConstantIndexOp::create(b, loc, type.getNumElements());
    auto loop = scf::ForOp::create(b, loc, tid, size, step);
    OpBuilder inner = OpBuilder::atBlockBegin(loop.getBody());
    bodyFn(inner, loop.getInductionVar());
  };

  OpBuilder b = OpBuilder::atBlockBegin(&body);
  forEachElement(b, [&](OpBuilder &inner, Value e) {
    Value zero = arith::ConstantOp::create(inner, loc, zeroAttr);
    memref::StoreOp::create(inner, loc, zero, shared, e);
  });
  gpu::BarrierOp::create(b, loc);

  b.setInsertionPoint(body.getTerminator());
  gpu::BarrierOp::create(b, loc);
  forEachElement(b, [&](OpBuilder &inner, Value e) {
    Value partial = memref::LoadOp::create(inner, loc, shared, e);
    Value zero = arith::ConstantOp::create(inner, loc, zeroAttr);
    Value nonZero =
        isa<FloatType>(element)
            ? arith::CmpFOp::create(inner, loc, arith::CmpFPredicate::UNE,
                                    partial, zero)
                  .getResult()
            : arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::ne,
                                    partial, zero)
                  .getResult();
    auto ifOp = scf::IfOp::create(inner, loc, nonZero);
    OpBuilder then = ifOp.getThenBodyBuilder();
    memref::AtomicRMWOp::create(then, loc,
                                isa<FloatType>(element)
                                    ? arith::AtomicRMWKind::addf
                                    : arith::AtomicRMWKind::addi,
                                partial, buffer, e);
  });
}

/// Makes each thread of `region` handle n consecutive elements: g becomes
/// g*n, every load and store at [..., g] a vector access of n elements, and
/// every scalar operation in the guarded region the same operation on
/// vectors.
static LogicalResult vectorizeRegion(VectorizableRegion region, int64_t n) {
  Value g = region.globalIndex;
  Location loc = g.getLoc();
  OpBuilder b(g.getContext());
  b.setInsertionPointAfterValue(g);
  Value width = arith::ConstantIndexOp::create(b, loc, n);
  Value first = arith::MulIOp::create(b, loc, g, width);
  // n*g < bound holds exactly when all of n*g .. n*g+n-1 are below it, since
  // the bound is a multiple of n.
  region.guard.getLhsMutable().assign(first);

  Block *body = region.guarded.thenBlock();
  IRMapping vectors;
  auto vectorType = [&](Type scalar) { return VectorType::get({n}, scalar); };
  // A value from outside the region is the same for every element.
  auto vectorOf = [&](Value scalar) -> Value {
    if (Value mapped = vectors.lookupOrNull(scalar))
      return mapped;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(body);
    Value splat = vector::BroadcastOp::create(
        b, scalar.getLoc(), vectorType(scalar.getType()), scalar);
    vectors.map(scalar, splat);
    return splat;
  };
  auto indicesFor = [&](ValueRange indices) {
    SmallVector<Value> result(indices.begin(), indices.end());
    result.back() = first;
    return result;
  };
  auto alignment = [&](Type element) {
    return llvm::MaybeAlign(n * element.getIntOrFloatBitWidth() / 8);
  };
  SmallVector<Operation *> scalarOps;
  for (Operation &op : body->without_terminator())
    scalarOps.push_back(&op);
  for (Operation *op : scalarOps) {
    b.setInsertionPoint(op);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Type element = load.getType();
      Value vector = vector::LoadOp::create(
          b, load.getLoc(), vectorType(element), load.getMemRef(),
          indicesFor(load.getIndices()), /*nontemporal=*/false,
          alignment(element));
      vectors.map(load.getResult(), vector);
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      Type element = store.getValueToStore().getType();
      vector::StoreOp::create(b, store.getLoc(),
                              vectorOf(store.getValueToStore()),
                              store.getMemRef(), indicesFor(store.getIndices()),
                              /*nontemporal=*/false, alignment(element));
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto type = vectorType(constant.getType());
      Value splat = arith::ConstantOp::create(
          b, constant.getLoc(), type,
          DenseElementsAttr::get(type, constant.getValue()));
      vectors.map(constant.getResult(), splat);
      continue;
    }
    // An elementwise operation: the same one, properties included, on
    // vectors.
    for (Value operand : op->getOperands())
      vectorOf(operand);
    Operation *vectorOp = b.clone(*op, vectors);
    for (OpResult result : vectorOp->getResults())
      result.setType(vectorType(result.getType()));
  }
  for (Operation *op : llvm::reverse(scalarOps)) {
    op->dropAllUses();
    op->erase();
  }
  return success();
}

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
  if (rewrite.family == "coarsen" || rewrite.family == "vectorize") {
    // Both shrink the grid along x by n; each thread then does the work of n.
    for (gpu::LaunchFuncOp launch : launches) {
      OpBuilder b(launch);
      int64_t gx = *getConstant(launch.getGridSizeX());
      launch.getGridSizeXMutable().assign(
          arith::ConstantIndexOp::create(b, launch.getLoc(), (gx + n - 1) / n));
    }
    if (rewrite.family == "coarsen")
      return coarsenKernel(kernel, n);
    std::string why;
    FailureOr<VectorizableRegion> region =
        findVectorizableRegion(kernel, launches, n, why);
    if (failed(region))
      return kernel.emitError("cannot vectorize @")
             << kernel.getName() << ": " << why;
    return vectorizeRegion(*region, n);
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
  if (rewrite.family == "coalesce") {
    std::string why;
    CoalescePlan plan = *planCoalesce(kernel, launches, n, why);
    // Swap the roles of x and the fastest dimension in the kernel...
    auto swapped = [&](gpu::Dimension dim) {
      if (dim == gpu::Dimension::x)
        return plan.fastest;
      return dim == plan.fastest ? gpu::Dimension::x : dim;
    };
    kernel.walk([&](Operation *op) {
      if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
        id.setDimension(swapped(id.getDimension()));
      else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
        id.setDimension(swapped(id.getDimension()));
      else if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
        dim.setDimension(swapped(dim.getDimension()));
      else if (auto dim = dyn_cast<gpu::GridDimOp>(op))
        dim.setDimension(swapped(dim.getDimension()));
    });
    // ... and give every launch its new shape, the same threads per
    // dimension.
    for (auto [launch, shape] : llvm::zip(launches, plan.shapes)) {
      OpBuilder b(launch);
      auto constant = [&](int64_t v) -> Value {
        return arith::ConstantIndexOp::create(b, launch.getLoc(), v);
      };
      launch.getGridSizeXMutable().assign(constant(shape.first[0]));
      launch.getGridSizeYMutable().assign(constant(shape.first[1]));
      launch.getGridSizeZMutable().assign(constant(shape.first[2]));
      launch.getBlockSizeXMutable().assign(constant(shape.second[0]));
      launch.getBlockSizeYMutable().assign(constant(shape.second[1]));
      launch.getBlockSizeZMutable().assign(constant(shape.second[2]));
    }
    return success();
  }
  if (rewrite.family == "distribute-loop") {
    // n lanes share each original thread: blocks of min(B, 1024/n) original
    // threads, n times as many hardware threads.
    for (gpu::LaunchFuncOp launch : launches) {
      int64_t bx = *getConstant(launch.getBlockSizeX());
      int64_t threads = *getConstant(launch.getGridSizeX()) * bx;
      int64_t perBlock = std::min<int64_t>(bx, 1024 / n);
      OpBuilder b(launch);
      launch.getGridSizeXMutable().assign(arith::ConstantIndexOp::create(
          b, launch.getLoc(), threads / perBlock));
      launch.getBlockSizeXMutable().assign(
          arith::ConstantIndexOp::create(b, launch.getLoc(), perBlock * n));
    }
    std::string why;
    scf::ForOp loop = *findDistributableLoop(kernel, why);
    Block &body = kernel.getBody().front();
    Location loc = kernel.getLoc();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Value lanes = arith::ConstantIndexOp::create(b, loc, n);
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value bdim = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
    Value lane = arith::RemUIOp::create(b, loc, tid, lanes);
    Value originalTid = arith::DivUIOp::create(b, loc, tid, lanes);
    Value originalBdim = arith::DivUIOp::create(b, loc, bdim, lanes);
    // The x ids appear only in the global index (checked), so every other
    // use is that index's.
    kernel.walk([&](Operation *op) {
      Value replacement;
      if (auto id = dyn_cast<gpu::ThreadIdOp>(op);
          id && id != tid.getDefiningOp() &&
          id.getDimension() == gpu::Dimension::x)
        replacement = originalTid;
      else if (auto dim = dyn_cast<gpu::BlockDimOp>(op);
               dim && dim != bdim.getDefiningOp() &&
               dim.getDimension() == gpu::Dimension::x)
        replacement = originalBdim;
      if (replacement)
        op->getResult(0).replaceAllUsesWith(replacement);
    });
    b.setInsertionPoint(loop);
    Value offset = arith::MulIOp::create(b, loc, lane, loop.getStep());
    Value lower = arith::AddIOp::create(b, loc, loop.getLowerBound(), offset);
    Value step = arith::MulIOp::create(b, loc, loop.getStep(), lanes);
    loop.getLowerBoundMutable().assign(lower);
    loop.getStepMutable().assign(step);
    return success();
  }
  if (rewrite.family == "privatize-atomics") {
    if (n > 1 && failed(applyKernelRewrite({"coarsen", n}, module, kernel)))
      return failure();
    std::string why;
    for (BlockArgument buffer : findPrivatizableBuffers(kernel, why))
      privatizeAtomics(kernel, buffer);
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
  // Sectors per global load request (MemoryWorkloadAnalysis): 4 when a warp
  // reads 128 contiguous bytes, up to 32 when every lane hits its own
  // sector. Scattered loads call for remapping threads, not wider loads.
  std::optional<double> sectorsPerRequest;
  if (std::optional<double> sectors =
          metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"))
    if (std::optional<double> requests =
            metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
        requests && *requests > 0)
      sectorsPerRequest = *sectors / *requests;
  double remapBonus = 0;
  if (sectorsPerRequest)
    remapBonus = *sectorsPerRequest > 8 ? 2 : *sectorsPerRequest <= 5 ? -6 : 0;
  // Narrow scalar accesses waste load/store instructions and request slots;
  // one 128-bit access per thread moves the same bytes with fewer. The width
  // follows the narrowest element accessed.
  int64_t elementBytes = 4;
  kernel.walk([&](Operation *op) {
    Value memref;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef();
    Type element =
        memref ? cast<MemRefType>(memref.getType()).getElementType() : Type();
    if (element && element.isIntOrFloat() &&
        element.getIntOrFloatBitWidth() >= 8)
      elementBytes =
          std::min<int64_t>(elementBytes, element.getIntOrFloatBitWidth() / 8);
  });
  int64_t width = 16 / elementBytes;
  double wideningPenalty = remapBonus > 0 ? 3 : 0;
  consider((memoryBound ? 9.5 : 4) - wideningPenalty, "vectorize", width);
  if (width > 2)
    consider((memoryBound ? 8.5 : 3.5) - wideningPenalty, "vectorize",
             width / 2);
  // Many short-lived blocks: fewer blocks doing more work each amortize the
  // index math and the block launch.
  double blocks = feature("grid_blocks");
  consider(blocks >= 16384 ? 6.5 : 2.5, "coarsen", 4);
  consider(blocks >= 16384 ? 6 : 2, "coarsen", 2);
  // Atomic adds into a small buffer contend on few addresses; a shared copy
  // per block turns them into fast shared-memory atomics.
  if (feature("atomics") > 0) {
    consider(10.3, "privatize-atomics", 16);
    consider(10.2, "privatize-atomics", 64);
    consider(10.1, "privatize-atomics", 1);
  }
  // Threads next to each other along x should touch neighbouring elements.
  consider((memoryBound ? 9.8 : 5) + remapBonus, "coalesce", 32);
  consider((memoryBound ? 8.9 : 4.2) + remapBonus, "coalesce", 64);
  // A thread walking a row alone makes its warp touch 32 rows at once; lanes
  // that split the row's loop access it contiguously.
  consider((memoryBound ? 9.7 : 4.5) + remapBonus, "distribute-loop", 32);
  consider((memoryBound ? 9.6 : 4.4) + remapBonus, "distribute-loop", 8);
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
