//===- KernelRewrites.cpp - Built-in rewrites of a kernel and launch ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/KernelRewrites.h"

#include "RewriteAnalysis.h"
#include "ThreadRemap.h"

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Transforms/NormalizeKernels.h"

#include "autoprof/Transforms/EvaluationJobs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

static constexpr StringLiteral kFamilies[] = {
    "block-size",        "launch-bounds",   "min-blocks",
    "max-registers",     "unroll",          "restrict",
    "coarsen",           "vectorize",       "register-accumulate",
    "privatize-atomics", "distribute-loop", "coalesce",
    "form-blocks"};

/// The thread remap `form-blocks=N` (one-thread blocks become blocks of N
/// threads along the dimension whose consecutive indices walk contiguous
/// memory) or `coalesce=P` (that dimension moves to x with P threads of a
/// block along it) makes of `kernel`, or why there is none.
static FailureOr<ThreadRemapPlan>
planRemap(const KernelRewrite &rewrite, gpu::GPUFuncOp kernel,
          ArrayRef<gpu::LaunchFuncOp> launches, std::string &why) {
  std::array<int64_t, 3> grid, block;
  if (std::optional<std::string> reason =
          checkRemappable(kernel, launches, grid, block)) {
    why = *reason;
    return failure();
  }
  int64_t threads = block[0] * block[1] * block[2];
  bool formBlocks = rewrite.family == "form-blocks";
  if (formBlocks != (threads == 1)) {
    why = formBlocks ? "the launches do not have one-thread blocks"
                     : "the launches have one-thread blocks (form-blocks "
                       "applies)";
    return failure();
  }
  // The known sizes let the analysis see the ids' ranges.
  MemoryAccessAnalysis analysis(kernel, block);
  std::optional<std::pair<gpu::Dimension, int64_t>> contiguous =
      analysis.getContiguousDimension();
  int fastest = contiguous ? static_cast<int>(contiguous->first) : 0;
  if (!formBlocks) {
    if (!contiguous) {
      why = "no access walks contiguous memory along a thread dimension";
      return failure();
    }
    if (fastest == 0 && block[0] >= rewrite.parameter) {
      why = "the contiguous dimension already runs along x with at least " +
            std::to_string(rewrite.parameter) + " threads per block";
      return failure();
    }
  }
  int64_t perBlock =
      formBlocks ? rewrite.parameter : std::max(threads, rewrite.parameter);
  return planThreadRemap(grid, block, fastest, rewrite.parameter, perBlock,
                         why);
}

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
    if (std::optional<std::string> why =
            checkOneDimensionalResizable(kernel, launches))
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
    // Kernels that use their ids only as global indices keep their index
    // arithmetic; the others get their ids remapped.
    std::string why;
    if (succeeded(planCoalesce(kernel, launches, n, why)))
      return std::nullopt;
    if (failed(planRemap(rewrite, kernel, launches, why)))
      return why;
    return std::nullopt;
  }
  if (family == "form-blocks") {
    if (n != 64 && n != 128 && n != 256 && n != 512)
      return std::string("the block size must be 64, 128, 256 or 512");
    std::string why;
    if (failed(planRemap(rewrite, kernel, launches, why)))
      return why;
    return std::nullopt;
  }
  if (family == "distribute-loop") {
    if (n != 2 && n != 4 && n != 8 && n != 16 && n != 32)
      return std::string("the number of lanes must be 2, 4, 8, 16 or 32");
    if (std::optional<std::string> why =
            checkOneDimensionalResizable(kernel, launches))
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
    // Buffers not proved distinct get a run-time overlap check.
    std::string why;
    if (!passesDistinctBuffers(launches, why)) {
      if (!kernel.getBody().hasOneBlock())
        return why + ", and a kernel whose body is not a single block cannot "
                     "check for the overlap at run time";
      for (Type type : kernel.getArgumentTypes())
        if (auto memref = dyn_cast<MemRefType>(type);
            memref && !memref.hasStaticShape())
          return why + ", and a dynamically shaped buffer's extent is not "
                       "known to check for the overlap";
    }
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

/// Versions the body of `kernel`: the code that follows runs as written only
/// when the buffers of `accumulations` overlap another buffer argument, and
/// otherwise runs the copy the accumulations are in, which the caller then
/// rewrites. The buffers' extents are their static sizes.
static void guardAgainstOverlap(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                                ArrayRef<Accumulation> accumulations) {
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointToStart(&body);
  auto extent = [&](Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    int64_t bytes = type.getNumElements() *
                    std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    Value begin = memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc,
                                                                 buffer);
    Value size = arith::ConstantIndexOp::create(rewriter, loc, bytes);
    Value end = arith::AddIOp::create(rewriter, loc, begin, size);
    return std::make_pair(begin, end);
  };
  Value disjoint;
  llvm::SmallDenseSet<Value> accumulated;
  for (Accumulation acc : accumulations)
    accumulated.insert(acc.store.getMemRef());
  for (Value buffer : accumulated) {
    auto [begin, end] = extent(buffer);
    for (BlockArgument other : kernel.getArguments()) {
      if (other == buffer || !isa<MemRefType>(other.getType()))
        continue;
      auto [otherBegin, otherEnd] = extent(other);
      Value before = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule, end, otherBegin);
      Value after = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule, otherEnd, begin);
      Value apart = arith::OrIOp::create(rewriter, loc, before, after);
      disjoint = disjoint ? arith::AndIOp::create(rewriter, loc, disjoint, apart)
                                .getResult()
                          : apart;
    }
  }
  if (!disjoint)
    return;
  auto ifOp = scf::IfOp::create(rewriter, loc, disjoint, /*withElse=*/true);
  Block *then = ifOp.thenBlock();
  then->getOperations().splice(
      then->without_terminator().begin(), body.getOperations(),
      std::next(ifOp->getIterator()), body.getTerminator()->getIterator());
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  IRMapping mapping;
  for (Operation &op : then->without_terminator())
    rewriter.clone(op, mapping);
}

/// Applies `rewrite`, whose preconditions hold.
static LogicalResult applyCheckedRewrite(const KernelRewrite &rewrite,
                                         ModuleOp module,
                                         gpu::GPUFuncOp kernel) {
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
    SmallVector<Accumulation> accumulations =
        findAccumulations(kernel, launches);
    std::string why;
    if (!passesDistinctBuffers(launches, why))
      guardAgainstOverlap(rewriter, kernel, accumulations);
    for (Accumulation acc : accumulations) {
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
  if (rewrite.family == "form-blocks" ||
      (rewrite.family == "coalesce" &&
       [&] {
         std::string why;
         return failed(planCoalesce(kernel, launches, n, why));
       }())) {
    std::string why;
    ThreadRemapPlan plan = *planRemap(rewrite, kernel, launches, why);
    IRRewriter rewriter(context);
    applyThreadRemap(rewriter, kernel, launches, plan);
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

LogicalResult mlir::autoprof::applyKernelRewrite(const KernelRewrite &rewrite,
                                                 ModuleOp module,
                                                 gpu::GPUFuncOp kernel) {
  if (std::optional<std::string> why =
          checkKernelRewrite(rewrite, module, kernel))
    return emitError(kernel.getLoc(), "cannot apply ")
           << rewrite.str() << " to @" << kernel.getName() << ": " << *why;
  bool hadKnownSizes = kernel.getKnownBlockSizeAttr() ||
                       kernel.getKnownGridSizeAttr();
  LogicalResult applied = applyCheckedRewrite(rewrite, module, kernel);
  // Sizes the kernel promised about its launches must stay true.
  if (succeeded(applied) && hadKnownSizes)
    recordKnownLaunchSizes(module, kernel);
  return applied;
}

//===----------------------------------------------------------------------===//
// Ranking
//===----------------------------------------------------------------------===//

SmallVector<KernelRewrite>
mlir::autoprof::proposeKernelRewrites(ModuleOp module, gpu::GPUFuncOp kernel,
                                      DictionaryAttr features,
                                      const llvm::StringMap<double> &metrics,
                                      SmallVectorImpl<RefusedRewrite> *refused) {
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
    std::optional<std::string> why = checkKernelRewrite(rewrite, module, kernel);
    if (!why)
      scored.push_back({score, rewrite});
    else if (refused)
      refused->push_back({rewrite, *why});
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
  // Without the counters, the static analysis estimates the same ratio from
  // each global load's address.
  if (!sectorsPerRequest) {
    SmallVector<gpu::LaunchFuncOp> launches = getLaunches(module, kernel);
    MemoryAccessAnalysis analysis(kernel, getUniformBlock(launches));
    double sectors = 0, requests = 0;
    for (const MemoryAccess &access : analysis.getAccesses())
      if (access.reads && !access.writes && !access.shared &&
          access.sectorsPerRequest > 0) {
        double weight = std::max<int64_t>(1, access.executionsPerThread);
        // Per 32 lanes, as the counter counts a full warp's request.
        sectors += weight * access.sectorsPerRequest;
        requests += weight * std::max<int64_t>(1, access.warpLanes) / 32.0;
      }
    if (requests > 0)
      sectorsPerRequest = sectors / requests;
  }
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
  // One-thread blocks leave 31 of 32 lanes of every warp idle.
  if (blockThreads == 1) {
    consider(12, "form-blocks", 256);
    consider(11.9, "form-blocks", 128);
    consider(11.8, "form-blocks", 512);
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
