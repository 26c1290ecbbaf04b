//===- KernelFeatures.cpp - Static features of GPU kernels ----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Analysis/KernelFeatures.h"

#include "autoprof/Analysis/FeatureSchema.h"

#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::autoprof;

//===----------------------------------------------------------------------===//
// Types and memory spaces
//===----------------------------------------------------------------------===//

namespace {
enum class MemorySpace { Global, Shared, Private, Other };
} // namespace

static MemorySpace getMemorySpace(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return MemorySpace::Global;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return MemorySpace::Global;
    case gpu::AddressSpace::Workgroup:
      return MemorySpace::Shared;
    case gpu::AddressSpace::Private:
      return MemorySpace::Private;
    }
  }
  // NVPTX numbering, as produced by some pipelines.
  if (auto integer = dyn_cast<IntegerAttr>(space)) {
    switch (integer.getInt()) {
    case 0:
    case 1:
      return MemorySpace::Global;
    case 3:
      return MemorySpace::Shared;
    case 5:
      return MemorySpace::Private;
    }
  }
  return MemorySpace::Other;
}

/// Size in bytes of a scalar or vector value; index counts as 64-bit.
static int64_t getTypeBytes(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() * getTypeBytes(vector.getElementType());
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return 0;
}

static int64_t getMemRefBytes(MemRefType type) {
  return type.getNumElements() * getTypeBytes(type.getElementType());
}

/// Number of scalar lanes in a value of `type`.
static int64_t getLanes(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

//===----------------------------------------------------------------------===//
// Feature computation
//===----------------------------------------------------------------------===//

namespace {

/// Walks one kernel and accumulates its features.
class FeatureCounter {
public:
  FeatureCounter(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch)
      : kernel(kernel), launch(launch) {}

  LogicalResult run(KernelFeatures &features);

private:
  LogicalResult checkSignature();
  LogicalResult addLaunchFeatures(KernelFeatures &features);
  void computeThreadDependence();
  std::optional<int64_t> getConstantInt(Value value, unsigned depth = 0);
  std::optional<int64_t> getTripCount(scf::ForOp loop);
  LogicalResult countBlock(Block &block, double weight, unsigned depth);
  LogicalResult countOp(Operation *op, double weight, unsigned depth);
  LogicalResult countLoopBody(Operation *loop, std::optional<int64_t> trips,
                              bool divergent, double weight, unsigned depth);
  void countMemoryAccess(Value memref, Type valueType, bool isStore,
                         double weight);
  MemorySpace getMemorySpaceOf(Value memref);
  void countArithmetic(Operation *op, double weight);
  /// Adds `amount` floating-point operations of `type`'s precision.
  void addFlops(Type type, double amount);
  bool isThreadDependent(Value value) const {
    return threadDependent.contains(value);
  }
  void add(StringRef name, double amount) { counts[name] += amount; }

  gpu::GPUFuncOp kernel;
  gpu::LaunchFuncOp launch;
  llvm::StringMap<double> counts;
  llvm::DenseSet<Value> threadDependent;
  unsigned maxLoopDepth = 0;
  int64_t maxVectorBits = 0;
  int64_t localBytes = 0;
};
} // namespace

LogicalResult FeatureCounter::checkSignature() {
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    if (isa<UnrankedMemRefType>(type))
      return kernel.emitError("kernel argument #")
             << index << " has unranked type " << type
             << "; AutoProf needs statically shaped buffers (bare-pointer ABI)";
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      continue;
    if (!memref.hasStaticShape())
      return kernel.emitError("kernel argument #")
             << index << " has dynamic shape " << type
             << "; AutoProf needs statically shaped buffers (bare-pointer ABI)";
    if (!memref.getLayout().isIdentity())
      return kernel.emitError("kernel argument #")
             << index << " has a non-identity layout " << type
             << "; the bare-pointer ABI needs contiguous buffers";
  }
  return success();
}

LogicalResult FeatureCounter::addLaunchFeatures(KernelFeatures &features) {
  auto requireConstant = [&](Value value, StringRef what,
                             int64_t &result) -> LogicalResult {
    APInt constant;
    if (!matchPattern(value, m_ConstantInt(&constant)))
      return launch.emitError("launch of @")
             << kernel.getName() << " has a non-constant " << what
             << "; AutoProf needs static launch sizes";
    result = constant.getSExtValue();
    if (result < (what.contains("shared") ? 0 : 1))
      return launch.emitError("launch of @")
             << kernel.getName() << " has an invalid " << what << " of "
             << result;
    return success();
  };
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  int64_t gx, gy, gz, bx, by, bz, dynamicShared = 0;
  if (failed(requireConstant(grid.x, "grid size x", gx)) ||
      failed(requireConstant(grid.y, "grid size y", gy)) ||
      failed(requireConstant(grid.z, "grid size z", gz)) ||
      failed(requireConstant(block.x, "block size x", bx)) ||
      failed(requireConstant(block.y, "block size y", by)) ||
      failed(requireConstant(block.z, "block size z", bz)))
    return failure();
  if (Value shared = launch.getDynamicSharedMemorySize())
    if (failed(requireConstant(shared, "dynamic shared memory size",
                               dynamicShared)))
      return failure();
  if (bx > 1024 || by > 1024 || bz > 64 || gy > 65535 || gz > 65535 ||
      gx > 2147483647)
    return launch.emitError("launch of @")
           << kernel.getName()
           << " exceeds NVIDIA's limits (grid x < 2^31, grid y and z <= "
              "65535, block x and y <= 1024, block z <= 64): grid ("
           << gx << ", " << gy << ", " << gz << "), block (" << bx << ", " << by
           << ", " << bz << ")";
  if (bx * by * bz > 1024)
    return launch.emitError("launch of @")
           << kernel.getName() << " uses " << bx * by * bz
           << " threads per block; NVIDIA GPUs allow at most 1024";
  features.set("grid_x", gx);
  features.set("grid_y", gy);
  features.set("grid_z", gz);
  features.set("block_x", bx);
  features.set("block_y", by);
  features.set("block_z", bz);
  features.set("grid_blocks", double(gx) * gy * gz);
  features.set("block_threads", double(bx) * by * bz);
  features.set("total_threads", double(gx) * gy * gz * bx * by * bz);
  features.set("dynamic_shared_bytes", dynamicShared);
  return success();
}

/// Marks every value that may differ between the threads of a block: the
/// thread and lane ids and everything computed from them. Values flow into
/// and out of scf regions position by position, so a thread-dependent
/// accumulator does not make its loop's induction variable thread-dependent.
void FeatureCounter::computeThreadDependence() {
  SmallVector<Value> worklist;
  auto mark = [&](Value value) {
    if (threadDependent.insert(value).second)
      worklist.push_back(value);
  };
  auto markAll = [&](ValueRange values) {
    for (Value value : values)
      mark(value);
  };
  kernel.walk([&](Operation *op) {
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::GlobalIdOp>(op) ||
        op->getName().getStringRef().starts_with("nvvm.read.ptx.sreg.tid") ||
        op->getName().getStringRef() == "nvvm.read.ptx.sreg.laneid")
      markAll(op->getResults());
  });

  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      unsigned index = use.getOperandNumber();
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (index < 3) { // A bound: the iterations differ between threads.
          mark(loop.getInductionVar());
          markAll(loop.getResults());
        } else {
          mark(loop.getRegionIterArgs()[index - 3]);
          mark(loop.getResult(index - 3));
        }
        continue;
      }
      if (auto loop = dyn_cast<scf::WhileOp>(user)) {
        mark(loop.getBeforeArguments()[index]);
        continue;
      }
      if (isa<scf::IfOp, scf::IndexSwitchOp>(user)) {
        markAll(user->getResults());
        continue;
      }
      if (auto parallel = dyn_cast<scf::ParallelOp>(user)) {
        markAll(parallel.getInductionVars());
        markAll(parallel.getResults());
        continue;
      }
      if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
        auto loop = cast<scf::WhileOp>(condition->getParentOp());
        if (index == 0) { // The exit differs: every carried value may too.
          markAll(loop.getAfterArguments());
          markAll(loop.getResults());
        } else {
          mark(loop.getAfterArguments()[index - 1]);
          mark(loop.getResult(index - 1));
        }
        continue;
      }
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        Operation *parent = yield->getParentOp();
        if (auto loop = dyn_cast<scf::ForOp>(parent)) {
          mark(loop.getRegionIterArgs()[index]);
          mark(loop.getResult(index));
        } else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
          mark(loop.getBeforeArguments()[index]);
        } else if (index < parent->getNumResults()) {
          mark(parent->getResult(index));
        }
        continue;
      }
      // Branches pass values to their successors' block arguments.
      if (auto branch = dyn_cast<BranchOpInterface>(user)) {
        if (std::optional<BlockArgument> arg =
                branch.getSuccessorBlockArgument(use.getOperandNumber()))
          mark(*arg);
        continue;
      }
      // Anything else: its results, and for ops with regions (affine loops,
      // generic atomics, ...) conservatively every region argument.
      markAll(user->getResults());
      if (user->hasTrait<OpTrait::IsTerminator>()) {
        if (Operation *parent = user->getParentOp();
            parent && parent != kernel.getOperation())
          markAll(parent->getResults());
        continue;
      }
      for (Region &region : user->getRegions())
        for (Block &block : region)
          markAll(block.getArguments());
    }
  }
}

/// Folds `value` to a constant through casts and integer arithmetic; kernel
/// arguments count as constant when the launch passes a host constant.
std::optional<int64_t> FeatureCounter::getConstantInt(Value value,
                                                      unsigned depth) {
  if (depth > 8)
    return std::nullopt;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSignificantBits() <= 64
               ? std::optional<int64_t>(constant.getSExtValue())
               : std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (!launch || arg.getOwner() != &kernel.getBody().front() ||
        arg.getArgNumber() >= kernel.getNumArguments() ||
        arg.getArgNumber() >= launch.getNumKernelOperands())
      return std::nullopt;
    if (matchPattern(launch.getKernelOperand(arg.getArgNumber()),
                     m_ConstantInt(&constant)))
      return constant.getSExtValue();
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  // Block and grid sizes are known from the launch.
  if (launch && isa<gpu::BlockDimOp, gpu::GridDimOp>(def)) {
    gpu::Dimension dim = isa<gpu::BlockDimOp>(def)
                             ? cast<gpu::BlockDimOp>(def).getDimension()
                             : cast<gpu::GridDimOp>(def).getDimension();
    gpu::KernelDim3 sizes = isa<gpu::BlockDimOp>(def)
                                ? launch.getBlockSizeOperandValues()
                                : launch.getGridSizeOperandValues();
    Value size = dim == gpu::Dimension::x   ? sizes.x
                 : dim == gpu::Dimension::y ? sizes.y
                                            : sizes.z;
    if (matchPattern(size, m_ConstantInt(&constant)))
      return constant.getSExtValue();
    return std::nullopt;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(def))
    return getConstantInt(def->getOperand(0), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    std::optional<int64_t> lhs = getConstantInt(def->getOperand(0), depth + 1);
    std::optional<int64_t> rhs = getConstantInt(def->getOperand(1), depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    // Anything that overflows 64 bits is not a usable constant.
    if (isa<arith::AddIOp>(def))
      return llvm::checkedAdd(*lhs, *rhs);
    if (isa<arith::SubIOp>(def))
      return llvm::checkedSub(*lhs, *rhs);
    return llvm::checkedMul(*lhs, *rhs);
  }
  return std::nullopt;
}

std::optional<int64_t> FeatureCounter::getTripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantInt(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantInt(loop.getUpperBound());
  std::optional<int64_t> step = getConstantInt(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || loop.getUnsignedCmp())
    return std::nullopt;
  if (*ub <= *lb)
    return 0;
  std::optional<int64_t> span = llvm::checkedSub(*ub, *lb);
  if (!span)
    return std::nullopt;
  return llvm::divideCeil(*span, *step);
}

/// The memory space of a buffer: its type's, except that per-thread allocas
/// and private attributions are private whatever their type says.
MemorySpace FeatureCounter::getMemorySpaceOf(Value memref) {
  if (memref.getDefiningOp<memref::AllocaOp>())
    return MemorySpace::Private;
  if (auto arg = dyn_cast<BlockArgument>(memref))
    if (llvm::is_contained(kernel.getPrivateAttributions(), arg))
      return MemorySpace::Private;
  return getMemorySpace(cast<MemRefType>(memref.getType()));
}

void FeatureCounter::countMemoryAccess(Value memref, Type valueType,
                                       bool isStore, double weight) {
  int64_t bytes = getTypeBytes(valueType);
  if (isa<VectorType>(valueType))
    maxVectorBits = std::max(maxVectorBits, bytes * 8);
  switch (getMemorySpaceOf(memref)) {
  case MemorySpace::Global:
    add(isStore ? "global_stores" : "global_loads", weight);
    add(isStore ? "global_store_bytes" : "global_load_bytes", weight * bytes);
    break;
  case MemorySpace::Shared:
    add(isStore ? "shared_stores" : "shared_loads", weight);
    break;
  case MemorySpace::Private:
  case MemorySpace::Other:
    break;
  }
}

void FeatureCounter::addFlops(Type type, double amount) {
  // Other formats (f8, tf32, ...) only count towards the total.
  StringRef feature = type.isF64()    ? "flops_f64"
                      : type.isF32()  ? "flops_f32"
                      : type.isF16()  ? "flops_f16"
                      : type.isBF16() ? "flops_bf16"
                                      : "flops_other";
  add(feature, amount);
}

/// Counts floating-point, special-function, conversion and integer work.
void FeatureCounter::countArithmetic(Operation *op, double weight) {
  // math.sincos is the one multi-result op here; count it by its first result.
  if (op->getNumResults() == 0 || op->hasTrait<OpTrait::ConstantLike>() ||
      (op->getNumResults() > 1 && !isa<math::SincosOp>(op)))
    return;
  StringRef name = op->getName().stripDialect();
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
          arith::FPToSIOp, arith::FPToUIOp, arith::BitcastOp,
          arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(op)) {
    add("conversions", weight * getLanes(op->getResult(0).getType()));
    return;
  }
  if (isa<arith::SelectOp>(op))
    return;
  // Comparisons produce i1; classify them by their operands.
  Type type = isa<arith::CmpFOp, arith::CmpIOp>(op)
                  ? op->getOperand(0).getType()
                  : op->getResult(0).getType();
  Type element = getElementTypeOrSelf(type);
  double lanes = getLanes(type);
  if (auto floatType = dyn_cast<FloatType>(element)) {
    if (op->getDialect()->getNamespace() == "math") {
      bool special = llvm::StringSwitch<bool>(name)
                         .Cases({"exp", "exp2", "expm1", "log", "log2", "log10",
                                 "log1p", "sin", "cos", "tan"},
                                true)
                         .Cases({"tanh", "sinh", "cosh", "asin", "acos", "atan",
                                 "atan2", "sqrt", "rsqrt", "cbrt"},
                                true)
                         .Cases({"powf", "fpowi", "erf", "erfc", "asinh",
                                 "acosh", "atanh", "sincos"},
                                true)
                         .Default(false);
      if (special) {
        add("special_functions", weight * lanes);
        return;
      }
    }
    double flops = name == "fma" ? 2 : 1;
    addFlops(floatType, weight * lanes * flops);
    return;
  }
  if (isa<IntegerType, IndexType>(element))
    add("int_ops", weight * lanes);
}

LogicalResult FeatureCounter::countLoopBody(Operation *loop,
                                            std::optional<int64_t> trips,
                                            bool divergent, double weight,
                                            unsigned depth) {
  maxLoopDepth = std::max(maxLoopDepth, depth + 1);
  if (!trips)
    add("unknown_trip_loops", 1);
  double bodyWeight = weight * (trips ? double(*trips) : 1.0);
  // One loop-exit test per iteration.
  add("branches", bodyWeight);
  if (divergent)
    add("divergent_branches", bodyWeight);
  for (Region &region : loop->getRegions())
    for (Block &block : region)
      if (failed(countBlock(block, bodyWeight, depth + 1)))
        return failure();
  return success();
}

LogicalResult FeatureCounter::countBlock(Block &block, double weight,
                                         unsigned depth) {
  for (Operation &op : block)
    if (failed(countOp(&op, weight, depth)))
      return failure();
  return success();
}

LogicalResult FeatureCounter::countOp(Operation *op, double weight,
                                      unsigned depth) {
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  bool supportedDialect =
      llvm::is_contained({"arith", "math", "memref", "scf", "cf", "gpu",
                          "vector", "nvvm", "index", "affine", "ub"},
                         dialect);
  // Of nvgpu and llvm, what the tensor-core tiles use: ldmatrix, the
  // fields of mma.sync's results, and asynchronous copies (cp.async).
  bool supportedOp = isa<nvgpu::LdMatrixOp, nvgpu::DeviceAsyncCopyOp,
                         nvgpu::DeviceAsyncCreateGroupOp,
                         nvgpu::DeviceAsyncWaitOp, LLVM::ExtractValueOp>(op);
  if ((!supportedDialect && !supportedOp) ||
      isa<memref::AllocOp, memref::DeallocOp, memref::ReallocOp,
          gpu::LaunchFuncOp, gpu::LaunchOp>(op))
    return op->emitError("'")
           << op->getName() << "' in kernel @" << kernel.getName()
           << " is not supported by AutoProf's kernel analysis";

  // Loops.
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    bool divergent = isThreadDependent(loop.getLowerBound()) ||
                     isThreadDependent(loop.getUpperBound()) ||
                     isThreadDependent(loop.getStep());
    return countLoopBody(op, getTripCount(loop), divergent, weight, depth);
  }
  if (auto loop = dyn_cast<affine::AffineForOp>(op)) {
    std::optional<uint64_t> trips = affine::getConstantTripCount(loop);
    bool divergent = llvm::any_of(loop->getOperands(), [&](Value operand) {
      return isThreadDependent(operand);
    });
    return countLoopBody(op,
                         trips ? std::optional<int64_t>(*trips) : std::nullopt,
                         divergent, weight, depth);
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    bool divergent = isThreadDependent(loop.getConditionOp().getCondition());
    return countLoopBody(op, std::nullopt, divergent, weight, depth);
  }
  if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
    std::optional<int64_t> trips = 1;
    for (auto [lb, ub, step] : llvm::zip(
             loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
      std::optional<int64_t> l = getConstantInt(lb), u = getConstantInt(ub),
                             s = getConstantInt(step);
      if (!trips || !l || !u || !s || *s <= 0) {
        trips = std::nullopt;
        break;
      }
      *trips *= *u <= *l ? 0 : llvm::divideCeil(*u - *l, *s);
    }
    return countLoopBody(op, trips, false, weight, depth);
  }

  // Branches: both sides are counted, so counts are upper bounds.
  if (isa<scf::IfOp, scf::IndexSwitchOp, affine::AffineIfOp>(op)) {
    add("branches", weight);
    if (llvm::any_of(op->getOperands(),
                     [&](Value operand) { return isThreadDependent(operand); }))
      add("divergent_branches", weight);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(countBlock(block, weight, depth)))
          return failure();
    return success();
  }
  if (isa<cf::CondBranchOp, cf::SwitchOp>(op)) {
    add("branches", weight);
    if (isThreadDependent(op->getOperand(0)))
      add("divergent_branches", weight);
    return success();
  }
  if (op->getNumRegions() != 0) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(countBlock(block, weight, depth)))
          return failure();
  }

  // Memory.
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    countMemoryAccess(load.getMemRef(), load.getType(), false, weight);
    return success();
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    countMemoryAccess(store.getMemRef(), store.getValueToStore().getType(),
                      true, weight);
    return success();
  }
  if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
    countMemoryAccess(load.getMemRef(), load.getType(), false, weight);
    return success();
  }
  if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
    countMemoryAccess(store.getMemRef(), store.getValueToStore().getType(),
                      true, weight);
    return success();
  }
  if (auto load = dyn_cast<vector::LoadOp>(op)) {
    countMemoryAccess(load.getBase(), load.getVectorType(), false, weight);
    return success();
  }
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
    // A load from global memory and a store to shared memory, without
    // registers.
    auto moved = VectorType::get(
        {copy.getDstElements().getSExtValue()},
        cast<MemRefType>(copy.getDst().getType()).getElementType());
    countMemoryAccess(copy.getSrc(), moved, false, weight);
    countMemoryAccess(copy.getDst(), moved, true, weight);
    return success();
  }
  if (isa<nvgpu::DeviceAsyncCreateGroupOp, nvgpu::DeviceAsyncWaitOp>(op))
    return success();
  if (auto matrix = dyn_cast<nvgpu::LdMatrixOp>(op)) {
    countMemoryAccess(matrix.getSrcMemref(), matrix.getRes().getType(), false,
                      weight);
    return success();
  }
  if (auto store = dyn_cast<vector::StoreOp>(op)) {
    countMemoryAccess(store.getBase(), store.getVectorType(), true, weight);
    return success();
  }
  if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
    if (isa<MemRefType>(read.getBase().getType()))
      countMemoryAccess(read.getBase(), read.getVectorType(), false, weight);
    return success();
  }
  if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
    if (isa<MemRefType>(write.getBase().getType()))
      countMemoryAccess(write.getBase(), write.getVectorType(), true, weight);
    return success();
  }
  if (isa<vector::MaskedLoadOp, vector::GatherOp>(op)) {
    // vector.gather may also read a tensor, which is not memory traffic.
    if (isa<MemRefType>(op->getOperand(0).getType()))
      countMemoryAccess(op->getOperand(0), op->getResult(0).getType(), false,
                        weight);
    return success();
  }
  if (auto store = dyn_cast<vector::MaskedStoreOp>(op)) {
    countMemoryAccess(store.getBase(), store.getValueToStore().getType(), true,
                      weight);
    return success();
  }
  if (auto scatter = dyn_cast<vector::ScatterOp>(op)) {
    if (isa<MemRefType>(scatter.getBase().getType()))
      countMemoryAccess(scatter.getBase(), scatter.getValueToStore().getType(),
                        true, weight);
    return success();
  }
  if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op)) {
    MemRefType type =
        isa<memref::AtomicRMWOp>(op)
            ? cast<memref::AtomicRMWOp>(op).getMemRefType()
            : cast<memref::GenericAtomicRMWOp>(op).getMemref().getType();
    add("atomics", weight);
    if (isa<memref::AtomicRMWOp>(op) && isa<FloatType>(type.getElementType()))
      addFlops(type.getElementType(), weight);
    if (getMemorySpaceOf(op->getOperand(
            isa<memref::AtomicRMWOp>(op) ? 1 : 0)) == MemorySpace::Global)
      add("global_atomic_bytes", weight * getTypeBytes(type.getElementType()));
    return success();
  }
  if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
    localBytes += getMemRefBytes(alloca.getType());
    return success();
  }

  // Synchronization and warp-level operations.
  StringRef name = op->getName().getStringRef();
  if (isa<gpu::BarrierOp>(op) || name == "nvvm.barrier0" ||
      name == "nvvm.barrier") {
    add("barriers", weight);
    return success();
  }
  if (isa<gpu::ShuffleOp>(op) || name.starts_with("nvvm.shfl")) {
    add("warp_shuffles", weight);
    return success();
  }
  if (name.starts_with("nvvm.wmma") || name.starts_with("nvvm.mma") ||
      name.starts_with("nvvm.wgmma") || name.starts_with("nvgpu.mma") ||
      name.starts_with("gpu.subgroup_mma_compute")) {
    add("tensor_core_ops", weight);
    return success();
  }

  if (auto fma = dyn_cast<vector::FMAOp>(op)) {
    addFlops(fma.getVectorType().getElementType(),
             weight * 2 * fma.getVectorType().getNumElements());
    return success();
  }
  if (auto reduction = dyn_cast<vector::ReductionOp>(op)) {
    VectorType type = reduction.getSourceVectorType();
    if (isa<FloatType>(type.getElementType()))
      addFlops(type.getElementType(), weight * type.getNumElements());
    else
      add("int_ops", weight * type.getNumElements());
    return success();
  }
  if (llvm::is_contained({"arith", "math", "index", "affine"}, dialect))
    countArithmetic(op, weight);
  return success();
}

LogicalResult FeatureCounter::run(KernelFeatures &features) {
  if (failed(checkSignature()))
    return failure();
  if (launch && failed(addLaunchFeatures(features)))
    return failure();
  computeThreadDependence();

  // Shared memory: workgroup attributions plus module-level globals in the
  // workgroup address space.
  int64_t sharedBytes = 0;
  for (BlockArgument attribution : kernel.getWorkgroupAttributions())
    sharedBytes += getMemRefBytes(cast<MemRefType>(attribution.getType()));
  llvm::SmallPtrSet<Operation *, 4> sharedGlobals;
  kernel.walk([&](memref::GetGlobalOp getGlobal) {
    if (getMemorySpace(getGlobal.getType()) != MemorySpace::Shared)
      return;
    Operation *global = SymbolTable::lookupNearestSymbolFrom(
        getGlobal, getGlobal.getNameAttr());
    if (global && sharedGlobals.insert(global).second)
      sharedBytes += getMemRefBytes(getGlobal.getType());
  });
  for (BlockArgument attribution : kernel.getPrivateAttributions())
    localBytes += getMemRefBytes(cast<MemRefType>(attribution.getType()));

  // Parameters are laid out at their natural alignment.
  int64_t argBytes = 0;
  for (Type type : kernel.getArgumentTypes()) {
    int64_t size = isa<MemRefType>(type) ? 8 : getTypeBytes(type);
    argBytes = llvm::alignTo(argBytes, std::max<int64_t>(size, 1)) + size;
  }

  if (failed(countBlock(kernel.getBody().front(), 1.0, 0)))
    return failure();
  // Multi-block kernel bodies (cf-based control flow) are counted once per
  // block.
  for (Block &block : llvm::drop_begin(kernel.getBody()))
    if (failed(countBlock(block, 1.0, 0)))
      return failure();

  auto count = [&](StringRef name) { return counts.lookup(name); };
  for (StringRef name : {"global_loads",      "global_stores",
                         "global_load_bytes", "global_store_bytes",
                         "shared_loads",      "shared_stores",
                         "atomics",           "barriers",
                         "branches",          "divergent_branches",
                         "flops_f64",         "flops_f32",
                         "flops_f16",         "flops_bf16",
                         "special_functions", "int_ops",
                         "conversions",       "tensor_core_ops",
                         "warp_shuffles",     "unknown_trip_loops"})
    features.set(name, count(name));
  double flops = count("flops_f64") + count("flops_f32") + count("flops_f16") +
                 count("flops_bf16") + count("flops_other");
  double bytes = count("global_load_bytes") + count("global_store_bytes") +
                 count("global_atomic_bytes");
  features.set("flops", flops);
  features.set("global_bytes_per_thread", bytes);
  features.set("static_shared_bytes", sharedBytes);
  features.set("local_bytes", localBytes);
  features.set("arg_bytes", argBytes);
  features.set("loop_depth", maxLoopDepth);
  features.set("max_vector_bits", maxVectorBits);
  if (bytes > 0)
    features.set("arith_intensity", flops / bytes);
  if (std::optional<double> threads = features.lookup("total_threads")) {
    features.set("global_bytes_total", bytes * *threads);
    features.set("flops_total", flops * *threads);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// KernelFeatures
//===----------------------------------------------------------------------===//

FailureOr<KernelFeatures> KernelFeatures::compute(gpu::GPUFuncOp kernel,
                                                  gpu::LaunchFuncOp launch) {
  KernelFeatures features;
  FeatureCounter counter(kernel, launch);
  if (failed(counter.run(features)))
    return failure();
  return features;
}

std::optional<double> KernelFeatures::lookup(StringRef name) const {
  auto it = values.find(name);
  if (it == values.end())
    return std::nullopt;
  return it->second;
}

void KernelFeatures::set(StringRef name, double value) {
  const FeatureInfo *info = lookupFeature(name);
  assert(info && "setting a feature that is not in the schema");
  values[info->name] = value;
}

DictionaryAttr KernelFeatures::toAttr(MLIRContext *context) const {
  Builder builder(context);
  SmallVector<NamedAttribute> entries;
  // Counts past what an i64 holds (nested loops of 2^32 trips each)
  // saturate at its largest value instead of wrapping around.
  auto toCount = [](double value) -> int64_t {
    constexpr double limit = 9223372036854775807.0; // rounds to 2^63
    if (std::isnan(value))
      return 0;
    if (value >= limit)
      return std::numeric_limits<int64_t>::max();
    if (value <= -limit)
      return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(std::llround(value));
  };
  for (const auto &[name, value] : values) {
    Attribute attr = lookupFeature(name)->integral
                         ? Attribute(builder.getI64IntegerAttr(toCount(value)))
                         : Attribute(builder.getF64FloatAttr(value));
    entries.push_back(builder.getNamedAttr(name, attr));
  }
  return builder.getDictionaryAttr(entries);
}

mlir::autoprof::KernelLaunchLists
mlir::autoprof::findAllKernelLaunches(ModuleOp module) {
  KernelLaunchLists lists;
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
            launch, launch.getKernel()))
      lists[kernel].push_back(launch);
  });
  return lists;
}

llvm::DenseMap<Operation *, gpu::LaunchFuncOp>
mlir::autoprof::findKernelLaunches(ModuleOp module) {
  llvm::DenseMap<Operation *, gpu::LaunchFuncOp> launches;
  for (auto &[kernel, list] : findAllKernelLaunches(module))
    launches.try_emplace(kernel, list.front());
  return launches;
}
