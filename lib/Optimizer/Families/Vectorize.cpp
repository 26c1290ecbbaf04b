//===- Vectorize.cpp - vectorize=V: V elements per thread -----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Each thread handles V consecutive elements with vector loads, stores and
// arithmetic; the grid along x shrinks by V. Fewer, wider memory
// instructions move the same bytes. Two forms qualify:
//  - a 1-D guarded elementwise kernel (`if (g < n) { ... }`, every access at
//    [..., g]); the grid is rounded up, the bounds check then covering no
//    more than the original threads;
//  - a straight-line elementwise kernel on any launch geometry whose x ids
//    only feed addresses, and whose every access that depends on them walks
//    contiguous memory along the global x index (stride 1, proved on the
//    memory-access analysis), at offsets that are multiples of V. Each new
//    thread stands for the V original threads V*g .. V*g+V-1 along x: the
//    original ids are recomputed from V*g, and each access becomes one
//    access of V elements. Accesses that do not depend on x are shared by
//    the V elements.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <variant>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
/// Scalars of one thread turned into vectors of the V elements it now
/// handles: each scalar's vector, broadcasts of values shared by the V
/// elements, and elementwise operations cloned on vectors.
class Widener {
public:
  /// Broadcasts go to the start of `broadcastBlock` when given (values from
  /// outside a guarded region), else right after the scalar's definition.
  Widener(RewriterBase &rewriter, int64_t width, Block *broadcastBlock)
      : rewriter(rewriter), width(width), broadcastBlock(broadcastBlock) {}

  /// vector<V x scalar>.
  VectorType getVectorType(Type scalar) const {
    return VectorType::get({width}, scalar);
  }
  /// The alignment of a V-element access: V x element bytes.
  llvm::MaybeAlign getAlignment(Type element) const {
    return llvm::MaybeAlign(width * element.getIntOrFloatBitWidth() / 8);
  }
  /// Records `vector` as the vector of `scalar`.
  void map(Value scalar, Value vector) { vectors.map(scalar, vector); }
  /// Whether `scalar` has a vector.
  bool isWide(Value scalar) const {
    return static_cast<bool>(vectors.lookupOrNull(scalar));
  }
  /// The vector of `scalar`, broadcasting it when it has none: a value the
  /// V elements share.
  Value getVector(Value scalar) {
    if (Value mapped = vectors.lookupOrNull(scalar))
      return mapped;
    OpBuilder::InsertionGuard guard(rewriter);
    if (broadcastBlock)
      rewriter.setInsertionPointToStart(broadcastBlock);
    else
      rewriter.setInsertionPointAfterValue(scalar);
    Value splat = vector::BroadcastOp::create(
        rewriter, scalar.getLoc(), getVectorType(scalar.getType()), scalar);
    vectors.map(scalar, splat);
    return splat;
  }
  /// Clones the elementwise `op` on vectors at the insertion point, its
  /// properties included.
  void widen(Operation *op) {
    for (Value operand : op->getOperands())
      getVector(operand);
    Operation *vectorOp = rewriter.clone(*op, vectors);
    rewriter.modifyOpInPlace(vectorOp, [&] {
      for (OpResult result : vectorOp->getResults())
        result.setType(getVectorType(result.getType()));
    });
  }

private:
  RewriterBase &rewriter;
  int64_t width;
  Block *broadcastBlock;
  IRMapping vectors;
};
} // namespace

/// Makes each thread of `region` handle n consecutive elements: g becomes
/// g*n, every load and store at [..., g] a vector access of n elements, and
/// every scalar operation in the guarded region the same operation on
/// vectors.
static void vectorizeRegion(RewriterBase &rewriter, VectorizableRegion region,
                            int64_t n) {
  Value g = region.globalIndex;
  Location loc = g.getLoc();
  rewriter.setInsertionPointAfterValue(g);
  Value width = arith::ConstantIndexOp::create(rewriter, loc, n);
  Value first = arith::MulIOp::create(rewriter, loc, g, width);
  // n*g < bound holds exactly when all of n*g .. n*g+n-1 are below it, since
  // the bound is a multiple of n.
  rewriter.modifyOpInPlace(region.guard,
                           [&] { region.guard.getLhsMutable().assign(first); });

  Block *body = region.guarded.thenBlock();
  // A value from outside the region is the same for every element.
  Widener wide(rewriter, n, body);
  auto indicesFor = [&](ValueRange indices) {
    SmallVector<Value> result(indices.begin(), indices.end());
    result.back() = first;
    return result;
  };
  SmallVector<Operation *> scalarOps;
  for (Operation &op : body->without_terminator())
    scalarOps.push_back(&op);
  for (Operation *op : scalarOps) {
    rewriter.setInsertionPoint(op);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Type element = load.getType();
      Value vector = vector::LoadOp::create(
          rewriter, load.getLoc(), wide.getVectorType(element),
          load.getMemRef(), indicesFor(load.getIndices()),
          /*nontemporal=*/false, wide.getAlignment(element));
      wide.map(load.getResult(), vector);
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      Type element = store.getValueToStore().getType();
      vector::StoreOp::create(
          rewriter, store.getLoc(), wide.getVector(store.getValueToStore()),
          store.getMemRef(), indicesFor(store.getIndices()),
          /*nontemporal=*/false, wide.getAlignment(element));
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto type = wide.getVectorType(constant.getType());
      Value splat = arith::ConstantOp::create(
          rewriter, constant.getLoc(), type,
          DenseElementsAttr::get(type, constant.getValue()));
      wide.map(constant.getResult(), splat);
      continue;
    }
    // An elementwise operation: the same one on vectors.
    wide.widen(op);
  }
  // Every use of a scalar operation is a later scalar operation of the
  // region, erased before it.
  for (Operation *op : llvm::reverse(scalarOps))
    rewriter.eraseOp(op);
}

namespace {
/// The second form: a straight-line kernel whose x ids only address
/// contiguous memory.
struct WidePlan {
  /// The x ids the kernel reads.
  SmallVector<Operation *> xIds;
  /// Values computed from the x ids (index arithmetic and the ids).
  llvm::SetVector<Value> xDependent;
  int64_t blockX = 1;
};
} // namespace

/// The widest access of the general form: four 128-bit accesses, so that a
/// kernel reading 16 bytes per thread of a narrow type may write its wider
/// results with the same V.
static constexpr int64_t kMaxWideBits = 512;

/// Whether `value`'s innermost index form has the x ids only as the global
/// x index with stride 1 and everything else a multiple of `factor`.
static bool isContiguousAlongX(MemoryAccessAnalysis &analysis, Value index,
                               int64_t blockX, int64_t factor) {
  std::optional<AffineIndex> form = analysis.express(index);
  if (!form)
    return false;
  bool sawThread = false, sawBlock = false;
  for (auto [atomIndex, coefficient] : form->terms) {
    const IndexAtom &atom = analysis.getAtoms()[atomIndex];
    bool alongX = atom.dim == gpu::Dimension::x;
    if (atom.kind == IndexAtomKind::ThreadId && alongX) {
      if (coefficient != 1)
        return false;
      sawThread = true;
      continue;
    }
    if (atom.kind == IndexAtomKind::BlockId && alongX) {
      if (coefficient != blockX)
        return false;
      sawBlock = true;
      continue;
    }
    if (atom.kind == IndexAtomKind::Opaque)
      return false;
    if (coefficient % factor != 0)
      return false;
  }
  // Without the block id, the V threads a new thread stands for must lie in
  // one original block.
  return sawThread && (sawBlock || blockX % factor == 0) &&
         form->constant % factor == 0;
}

/// The dimension of a thread or block id or size, or nothing for other ops.
static std::optional<gpu::Dimension> getIdDimension(Operation *op) {
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return id.getDimension();
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    return id.getDimension();
  if (auto size = dyn_cast<gpu::BlockDimOp>(op))
    return size.getDimension();
  if (auto size = dyn_cast<gpu::GridDimOp>(op))
    return size.getDimension();
  if (auto id = dyn_cast<gpu::GlobalIdOp>(op))
    return id.getDimension();
  return std::nullopt;
}

/// Plans the second form, or says why it does not apply.
static FailureOr<WidePlan> planWide(const RewriteTarget &target, int64_t n,
                                    std::string &why) {
  gpu::GPUFuncOp kernel = target.kernel;
  std::array<int64_t, 3> grid, block;
  if (std::optional<std::string> reason =
          checkRemappable(kernel, target.launches, grid, block)) {
    why = *reason;
    return failure();
  }
  if (grid[0] % n != 0) {
    why = "the grid's " + std::to_string(grid[0]) +
          " blocks along x are not a multiple of " + std::to_string(n);
    return failure();
  }
  WidePlan plan;
  plan.blockX = block[0];
  Block &body = kernel.getBody().front();
  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() != 0) {
      why = "the kernel's body is not straight-line code ('" +
            op.getName().getStringRef().str() + "' has regions)";
      return failure();
    }
    if (std::optional<gpu::Dimension> dim = getIdDimension(&op)) {
      if (*dim != gpu::Dimension::x)
        continue;
      if (!isa<gpu::ThreadIdOp, gpu::BlockIdOp>(op)) {
        if (!op.use_empty()) {
          why = "the kernel uses '" + op.getName().getStringRef().str() +
                " x', which the wider threads change";
          return failure();
        }
        continue;
      }
      plan.xIds.push_back(&op);
      plan.xDependent.insert(op.getResult(0));
      continue;
    }
    bool dependsOnX = llvm::any_of(op.getOperands(), [&](Value operand) {
      return plan.xDependent.contains(operand);
    });
    if (isa<memref::LoadOp, memref::StoreOp>(op)) {
      auto load = dyn_cast<memref::LoadOp>(op);
      auto store = dyn_cast<memref::StoreOp>(op);
      Value memref = load ? load.getMemRef() : store.getMemRef();
      ValueRange indices = load ? load.getIndices() : store.getIndices();
      if (store && plan.xDependent.contains(store.getValueToStore())) {
        why = "a value computed from the x ids is stored as data";
        return failure();
      }
      auto type = cast<MemRefType>(memref.getType());
      if (!llvm::any_of(indices, [&](Value index) {
            return plan.xDependent.contains(index);
          })) {
        if (store) {
          why = "a store does not depend on the x ids: the threads it "
                "would merge store to the same element";
          return failure();
        }
        continue;
      }
      Type element = type.getElementType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
          element.getIntOrFloatBitWidth() * n > kMaxWideBits ||
          type.getShape().back() % n != 0) {
        why = "an access that depends on the x ids is not to a buffer with a "
              "static identity layout whose innermost extent is a multiple "
              "of " +
              std::to_string(n) + " elements of at most " +
              std::to_string(kMaxWideBits / n) + " bits";
        return failure();
      }
      if (llvm::any_of(indices.drop_back(), [&](Value index) {
            return plan.xDependent.contains(index);
          })) {
        why = "an access uses the x ids in an index other than the innermost";
        return failure();
      }
      continue;
    }
    if (dependsOnX) {
      // Index arithmetic on the ids; anything else would see the ids as
      // data.
      if (!isMemoryEffectFree(&op) ||
          !llvm::all_of(op.getResultTypes(),
                        [](Type type) { return type.isIntOrIndex(); })) {
        why = "'" + op.getName().getStringRef().str() +
              "' uses a value computed from the x ids other than as an "
              "address";
        return failure();
      }
      for (Value result : op.getResults())
        plan.xDependent.insert(result);
      continue;
    }
    bool scalar = llvm::all_of(op.getResultTypes(), [](Type type) {
      return type.isIntOrIndexOrFloat();
    });
    if (!scalar || !(isa<arith::ConstantOp>(op) ||
                     (OpTrait::hasElementwiseMappableTraits(&op) &&
                      isMemoryEffectFree(&op)))) {
      why = "the kernel contains '" + op.getName().getStringRef().str() +
            "', which is not an elementwise computation on scalars";
      return failure();
    }
  }
  if (plan.xIds.empty()) {
    why = "the kernel does not use its x ids";
    return failure();
  }
  // Every value computed from the ids is used only by index arithmetic and
  // as an index (checked above as data uses); every access through them
  // walks memory contiguously along the global x index.
  MemoryAccessAnalysis analysis(kernel, block);
  for (Operation &op : body.without_terminator()) {
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      indices = load.getIndices();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      indices = store.getIndices();
    if (indices.empty() || !plan.xDependent.contains(indices.back()))
      continue;
    if (!isContiguousAlongX(analysis, indices.back(), block[0], n)) {
      why = "an access's innermost index is not block_id x * " +
            std::to_string(block[0]) + " + thread_id x plus a multiple of " +
            std::to_string(n) + " (the analysis gives " +
            (analysis.express(indices.back())
                 ? analysis.describe(*analysis.express(indices.back()))
                 : std::string("no affine form")) +
            ")";
      return failure();
    }
  }
  return plan;
}

/// Applies the second form: new ids stand for V*g, accesses through them
/// become vector accesses, and data computed from them becomes vectors.
static void applyWide(RewriterBase &rewriter, const RewriteTarget &target,
                      int64_t n, WidePlan &plan) {
  gpu::GPUFuncOp kernel = target.kernel;
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointToStart(&body);
  Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value blockX = arith::ConstantIndexOp::create(rewriter, loc, plan.blockX);
  Value width = arith::ConstantIndexOp::create(rewriter, loc, n);
  Value global = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, bid, blockX), tid);
  Value first = arith::MulIOp::create(rewriter, loc, global, width);
  Value firstTid = arith::RemUIOp::create(rewriter, loc, first, blockX);
  Value firstBid = arith::DivUIOp::create(rewriter, loc, first, blockX);
  for (Operation *id : plan.xIds)
    rewriter.replaceOp(id, isa<gpu::ThreadIdOp>(id) ? firstTid : firstBid);

  Widener wide(rewriter, n, /*broadcastBlock=*/nullptr);
  SmallVector<Operation *> replaced;
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      ValueRange indices = load.getIndices();
      if (indices.empty() || !plan.xDependent.contains(indices.back()))
        continue;
      Value vector = vector::LoadOp::create(
          rewriter, load.getLoc(), wide.getVectorType(load.getType()),
          load.getMemRef(), indices, /*nontemporal=*/false,
          wide.getAlignment(load.getType()));
      wide.map(load.getResult(), vector);
      replaced.push_back(op);
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      Type element = store.getValueToStore().getType();
      vector::StoreOp::create(
          rewriter, store.getLoc(), wide.getVector(store.getValueToStore()),
          store.getMemRef(), store.getIndices(),
          /*nontemporal=*/false, wide.getAlignment(element));
      replaced.push_back(op);
      continue;
    }
    // Data that differs between the V elements becomes vectors; data shared
    // by them (constants, uniform loads) and index arithmetic stay scalar.
    if (op->getNumResults() == 0 ||
        llvm::none_of(op->getOperands(),
                      [&](Value operand) { return wide.isWide(operand); }))
      continue;
    wide.widen(op);
    replaced.push_back(op);
  }
  for (Operation *op : llvm::reverse(replaced)) {
    if (op->use_empty())
      rewriter.eraseOp(op);
  }
}

namespace {
using VectorizePlan = std::variant<VectorizableRegion, WidePlan>;

class VectorizeFamily : public RewriteFamilyWithPlan<VectorizePlan> {
public:
  VectorizeFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::Vectorize) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Narrow scalar accesses waste load/store instructions and request
    // slots; one 128-bit access per thread moves the same bytes with fewer.
    // The width makes the widest stored element one 128-bit store (narrower
    // loads become narrower vectors: measured on an H200, i8 -> f32 with 4
    // elements per thread ran at 1.46x the speed of 8 and 2x that of 16);
    // without stores it follows the narrowest element accessed. Scattered
    // loads call for remapping threads, not for wider loads.
    int64_t width = 16 / (evidence.widestStoredElementBytes
                              ? evidence.widestStoredElementBytes
                              : evidence.narrowestElementBytes);
    double penalty = evidence.isScattered() ? 3 : 0;
    ranked.push_back({(evidence.memoryBound ? 9.5 : 4) - penalty, width});
    if (width > 2)
      ranked.push_back(
          {(evidence.memoryBound ? 8.5 : 3.5) - penalty, width / 2});
  }

protected:
  FailureOr<VectorizePlan> matchPlan(const RewriteTarget &target, int64_t n,
                                     std::string &why) const override {
    // The 1-D guarded form first; the general one where it does not apply.
    std::string oneDimensional;
    FailureOr<VectorizableRegion> region =
        matchGuarded(target, n, oneDimensional);
    if (succeeded(region))
      return VectorizePlan(*region);
    FailureOr<WidePlan> wide = planWide(target, n, why);
    if (succeeded(wide))
      return VectorizePlan(std::move(*wide));
    why = oneDimensional + "; nor does the general form apply: " + why;
    return failure();
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t n, VectorizePlan &plan) const override {
    shrinkGridX(rewriter, target.launches, n);
    if (auto *region = std::get_if<VectorizableRegion>(&plan))
      vectorizeRegion(rewriter, *region, n);
    else
      applyWide(rewriter, target, n, std::get<WidePlan>(plan));
    return success();
  }

private:
  /// The 1-D guarded form.
  static FailureOr<VectorizableRegion>
  matchGuarded(const RewriteTarget &target, int64_t n, std::string &why) {
    if (std::optional<std::string> reason = checkCoarsenable(target)) {
      why = *reason;
      return failure();
    }
    gpu::GPUFuncOp kernel = target.kernel;
    FailureOr<VectorizableRegion> region =
        findVectorizableRegion(kernel, target.launches, n, why);
    if (failed(region))
      return failure();
    // A grid that does not divide is rounded up; the extra threads fail the
    // bounds check, which must then cover no more than the original threads.
    if (checkGridDivisible(target.launches, n)) {
      for (gpu::LaunchFuncOp launch : target.launches) {
        std::optional<int64_t> bound =
            getLaunchValue(region->guard.getRhs(), kernel, launch);
        int64_t threads = *getConstant(launch.getGridSizeX()) *
                          *getConstant(launch.getBlockSizeX());
        if (!bound || *bound > threads) {
          why = "a launch's grid is not a multiple of " + std::to_string(n) +
                " blocks and its bounds check does not stop at its " +
                std::to_string(threads) + " threads";
          return failure();
        }
      }
      for (Operation &op : kernel.getBody().front().without_terminator())
        if (&op != region->guarded.getOperation() && !isMemoryEffectFree(&op)) {
          why = "a launch's grid is not a multiple of " + std::to_string(n) +
                " blocks and '" + op.getName().getStringRef().str() +
                "' outside the bounds check has side effects";
          return failure();
        }
    }
    return region;
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createVectorizeFamily() {
  return std::make_unique<VectorizeFamily>();
}
