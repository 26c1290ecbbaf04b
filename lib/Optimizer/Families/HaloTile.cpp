//===- HaloTile.cpp - halo-tile=1: a stencil's window in shared memory ----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A stencil, a convolution or a pooling reads each input element from
// several threads of a block and several iterations of its window loops
// (out[i][j] += in[i + kh][j + kw] * k[kh][kw]: every element nine times).
// Through the caches that is nine requests per element, each misaligned by
// the window offset. This family stages the box of the input that one block
// reads, its tile and the halo the window adds, in shared memory: before
// the window loops every thread of the block copies a part of the box with
// consecutive threads at consecutive elements, a barrier, and the window
// loops read the box instead of global memory.
//
// The box comes from the access analysis: each index of the load is an
// affine form of thread ids, window-loop induction variables, block ids,
// kernel arguments and a constant; the thread ids and induction variables
// span the ranges the integer-range analysis proves, which give the box's
// extent along each dimension, and the rest (the same for every thread of
// the block) its corner. Elements of the box outside the buffer are not
// loaded. The staging and its barrier go before the operation of the
// kernel's body that holds the window loops, where every thread of the
// block runs, even when the loops sit under conditions (a bounds guard):
// the box does not depend on them. The window loops may not sit in another
// loop nor store to memory (register-accumulate first keeps an accumulator
// in a register), and nothing in the kernel may write the staged buffer.
// When the launches are not proved to pass distinct buffers
// (passesDistinctBuffers), the staged loops are versioned: a run-time check
// that the buffers the kernel writes lie apart from the staged one picks
// them, and the original loops run otherwise. Where L1 already serves most
// sectors the copy and its barrier only add work, so the family is ranked
// last when the profile says so.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {
/// A term of the box's corner that is the same for every thread of a block:
/// coefficient x (a block id along `dim`, or kernel argument `argument`).
struct UniformTerm {
  int64_t coefficient = 0;
  bool isBlockId = false;
  gpu::Dimension dim = gpu::Dimension::x;
  Value argument;
};

/// The box one index dimension of the staged load spans in a block.
struct BoxDim {
  /// The corner: constant + the uniform terms.
  int64_t constant = 0;
  SmallVector<UniformTerm> uniform;
  /// Elements the thread ids and window induction variables span.
  int64_t extent = 1;
};

/// What halo-tile changes in a kernel.
struct HaloPlan {
  memref::LoadOp load;
  /// The outermost window loop, and the operation of the kernel's body that
  /// holds it (itself, or the conditions around it): the staging goes right
  /// before that one, where every thread of the block runs.
  scf::ForOp nest;
  Operation *stagePoint = nullptr;
  SmallVector<BoxDim> box;
  std::array<int64_t, 3> block = {1, 1, 1};
  /// The buffers the kernel writes (for the overlap check).
  SmallVector<Value> written;
};

/// Shared memory a staged box may take.
constexpr int64_t kMaxBoxBytes = 32 * 1024;
/// The L1 hit rate (percent of sectors) above which the caches already
/// serve the window's reuse.
constexpr double kL1ServesReusePct = 75.0;
} // namespace

/// The constant block size every launch shares.
static std::optional<std::array<int64_t, 3>>
getSharedBlock(ArrayRef<gpu::LaunchFuncOp> launches) {
  std::optional<std::array<int64_t, 3>> block;
  for (gpu::LaunchFuncOp launch : launches) {
    gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
    std::array<std::optional<int64_t>, 3> values = {
        getConstantIntValue(sizes.x), getConstantIntValue(sizes.y),
        getConstantIntValue(sizes.z)};
    if (!values[0] || !values[1] || !values[2])
      return std::nullopt;
    std::array<int64_t, 3> current = {*values[0], *values[1], *values[2]};
    if (block && *block != current)
      return std::nullopt;
    block = current;
  }
  return block;
}

/// The memref a store-like operation writes, or null.
static Value getWrittenMemref(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getBase();
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return atomic.getMemref();
  if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return atomic.getMemref();
  return {};
}

/// Whether `type` lives in workgroup (shared) memory.
static bool isWorkgroup(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// The box of `load` below `nest` in a block of `block` threads, or why
/// there is none.
static FailureOr<SmallVector<BoxDim>>
planBox(MemoryAccessAnalysis &analysis, memref::LoadOp load, scf::ForOp nest,
        std::array<int64_t, 3> block, std::string &why) {
  SmallVector<BoxDim> box;
  ArrayRef<IndexAtom> atoms;
  for (auto [dim, index] : llvm::enumerate(load.getIndices())) {
    std::optional<AffineIndex> form = analysis.express(index);
    if (!form) {
      why = "index " + std::to_string(dim) +
            " of the load is not an affine form the analysis can express";
      return failure();
    }
    atoms = analysis.getAtoms();
    BoxDim boxDim;
    boxDim.constant = form->constant;
    for (auto [atomIndex, coefficient] : form->terms) {
      const IndexAtom &atom = atoms[atomIndex];
      switch (atom.kind) {
      case IndexAtomKind::ThreadId:
      case IndexAtomKind::InductionVar: {
        if (atom.kind == IndexAtomKind::InductionVar) {
          auto iv = dyn_cast<BlockArgument>(atom.value);
          Operation *loop = iv ? iv.getOwner()->getParentOp() : nullptr;
          if (!loop || !nest->isAncestor(loop)) {
            why = "index " + std::to_string(dim) + " of the load uses " +
                  atom.name +
                  ", the variable of a loop outside the window "
                  "loops";
            return failure();
          }
        }
        int64_t lower = atom.lower, upper = atom.upper;
        if (atom.kind == IndexAtomKind::ThreadId) {
          lower = 0;
          upper = block[static_cast<int>(atom.dim)] - 1;
        }
        if (lower == INT64_MIN || upper == INT64_MAX || upper < lower ||
            upper - lower > (1 << 20) || std::abs(coefficient) > (1 << 20)) {
          why = "the range of " + atom.name + " in index " +
                std::to_string(dim) + " of the load is not bounded";
          return failure();
        }
        boxDim.constant +=
            coefficient > 0 ? coefficient * lower : coefficient * upper;
        boxDim.extent += std::abs(coefficient) * (upper - lower);
        break;
      }
      case IndexAtomKind::BlockId: {
        UniformTerm term;
        term.coefficient = coefficient;
        term.isBlockId = true;
        term.dim = atom.dim;
        boxDim.uniform.push_back(term);
        break;
      }
      case IndexAtomKind::KernelArgument: {
        UniformTerm term;
        term.coefficient = coefficient;
        term.argument = atom.value;
        boxDim.uniform.push_back(term);
        break;
      }
      case IndexAtomKind::Opaque:
        why = "index " + std::to_string(dim) + " of the load depends on " +
              atom.name + ", which is not affine in the thread ids";
        return failure();
      }
    }
    box.push_back(std::move(boxDim));
  }
  return box;
}

namespace {
class HaloTileFamily : public RewriteFamilyWithPlan<HaloPlan> {
public:
  HaloTileFamily() : RewriteFamilyWithPlan(BuiltinRewriteFamily::HaloTile) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // The box replaces requests that the caches would otherwise serve several
    // times: worth it where memory is the limit, after the remaps that
    // coalesce the accesses and register accumulation. Where L1 already
    // serves most sectors, the copy and its barrier only add work (on an
    // H200, a 3x3 convolution whose loads hit L1 83% of the time ran 1.67x
    // slower staged): tried last.
    std::optional<double> hitRate =
        evidence.getMetric("l1tex__t_sector_hit_rate.pct");
    if (hitRate && *hitRate >= kL1ServesReusePct) {
      ranked.push_back({1.0, 1});
      return;
    }
    ranked.push_back({evidence.memoryBound ? 9.7 : 4.5, 1});
  }

protected:
  FailureOr<HaloPlan> matchPlan(const RewriteTarget &target, int64_t,
                                std::string &why) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    if (target.launches.empty()) {
      why = "the kernel is never launched";
      return failure();
    }
    std::optional<std::array<int64_t, 3>> block =
        getSharedBlock(target.launches);
    if (!block) {
      why = "the launches do not share one constant block size";
      return failure();
    }
    HaloPlan plan;
    plan.block = *block;
    int64_t threads = plan.block[0] * plan.block[1] * plan.block[2];
    if (threads < 2) {
      why = "the launches have one-thread blocks (form-blocks applies)";
      return failure();
    }
    if (!kernel.getBody().hasOneBlock()) {
      why = "the kernel's body is not a single block";
      return failure();
    }

    // One staging per kernel: a kernel that synchronizes its threads already
    // (after halo-tile, block-reduce, contraction-tile) is left alone.
    if (kernel.walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
            .wasInterrupted()) {
      why = "the kernel already synchronizes its threads (a barrier)";
      return failure();
    }

    // The buffers the kernel writes.
    llvm::SetVector<Value> written;
    bool unknownWrite = false;
    kernel.walk([&](Operation *op) {
      if (Value memref = getWrittenMemref(op))
        written.insert(memref);
      else if (!isa<memref::LoadOp, vector::LoadOp>(op) &&
               !isMemoryEffectFree(op) &&
               !isa<scf::ForOp, scf::IfOp, scf::YieldOp, gpu::ReturnOp,
                    gpu::GPUFuncOp, gpu::BarrierOp>(op))
        unknownWrite = true;
    });
    if (unknownWrite) {
      why = "the kernel has an operation with side effects other than loads "
            "and stores";
      return failure();
    }

    MemoryAccessAnalysis analysis(kernel, plan.block);
    // Why the last load of a buffer the kernel only reads was refused; a
    // load of a written buffer (the accumulator) says less.
    std::string lastWhy = "no global load sits in window loops";
    bool readOnlyLoad = false;
    for (const MemoryAccess &access : analysis.getAccesses()) {
      auto load = dyn_cast<memref::LoadOp>(access.op);
      if (!load || access.shared || access.loops.empty())
        continue;
      auto type = cast<MemRefType>(load.getMemRef().getType());
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          isWorkgroup(type) || !isa<BlockArgument>(load.getMemRef())) {
        lastWhy = "the load in window loops does not read a statically "
                  "shaped buffer argument";
        continue;
      }
      if (written.contains(load.getMemRef())) {
        if (!readOnlyLoad)
          lastWhy = "the kernel writes the buffer the window loops read";
        continue;
      }
      readOnlyLoad = true;
      if (!llvm::is_contained(access.loopVariant, true)) {
        lastWhy = "the load does not change with the window loops";
        continue;
      }
      // The outermost loop the address changes with.
      scf::ForOp nest = access.loops[llvm::find(access.loopVariant, true) -
                                     access.loopVariant.begin()];
      // The staging runs once, where every thread of the block reaches the
      // barrier: before the operation of the kernel's body that holds the
      // nest, through conditions (the box is the same whatever they say).
      Operation *stagePoint = nest;
      bool onlyConditions = true;
      for (Operation *parent = nest->getParentOp(); parent != kernel;
           parent = parent->getParentOp()) {
        if (!isa<scf::IfOp>(parent)) {
          onlyConditions = false;
          break;
        }
        stagePoint = parent;
      }
      if (!onlyConditions) {
        lastWhy = "the window loops sit in another loop or region than "
                  "conditions (the staging must run once per block)";
        continue;
      }
      bool stores = false;
      nest.walk([&](Operation *op) {
        if (getWrittenMemref(op))
          stores = true;
      });
      if (stores) {
        lastWhy = "the window loops store to memory (an accumulation through "
                  "memory: register-accumulate first)";
        continue;
      }
      FailureOr<SmallVector<BoxDim>> box =
          planBox(analysis, load, nest, plan.block, lastWhy);
      if (failed(box))
        continue;
      // What every thread of a block reads alike (a filter tap) comes from
      // one broadcast request already.
      if (llvm::all_of(access.threadStride,
                       [](int64_t stride) { return stride == 0; })) {
        lastWhy = "the load in window loops reads the same element in every "
                  "thread of a block";
        continue;
      }
      int64_t elements = 1;
      for (const BoxDim &dim : *box)
        elements *= dim.extent;
      Type element = type.getElementType();
      if (!element.isIntOrIndexOrFloat()) {
        lastWhy = "the load in window loops reads elements that are not "
                  "integers or floats";
        continue;
      }
      // An index is 64 bits on the GPU targets.
      int64_t elementBytes =
          element.isIndex() ? 8 : (element.getIntOrFloatBitWidth() + 7) / 8;
      if (elements * elementBytes > kMaxBoxBytes) {
        lastWhy = "the box a block reads takes " +
                  std::to_string(elements * elementBytes) +
                  " bytes, more than the " + std::to_string(kMaxBoxBytes) +
                  " shared memory may take";
        continue;
      }
      // Each element of the box must be read at least twice.
      if (threads * access.executionsPerThread < 2 * elements) {
        lastWhy = "the threads of a block read each element of the box "
                  "fewer than twice (no reuse to stage)";
        continue;
      }
      plan.load = load;
      plan.nest = nest;
      plan.stagePoint = stagePoint;
      plan.box = std::move(*box);
      plan.written = written.takeVector();
      return plan;
    }
    why = lastWhy;
    return failure();
  }

  LogicalResult applyPlan(RewriterBase &rewriter, const RewriteTarget &target,
                          int64_t, HaloPlan &plan) const override {
    gpu::GPUFuncOp kernel = target.kernel;
    Location loc = plan.load.getLoc();
    MLIRContext *context = kernel.getContext();
    Value input = plan.load.getMemRef();
    auto inputType = cast<MemRefType>(input.getType());
    Type element = inputType.getElementType();
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };

    // Versioning: the staged nest runs only when no written buffer overlaps
    // the staged one.
    scf::ForOp nest = plan.nest;
    rewriter.setInsertionPoint(nest);
    std::string why;
    Value apart = passesDistinctBuffers(target.launches, why)
                      ? Value()
                      : buildBuffersApart(rewriter, loc, {input}, plan.written);
    if (apart) {
      auto ifOp = scf::IfOp::create(rewriter, loc, nest.getResultTypes(), apart,
                                    /*withElseRegion=*/true);
      // Each branch runs a copy of the nest and yields its results (a
      // branch without results has its terminator already).
      auto fill = [&](Block *branch, IRMapping &mapping) {
        bool terminated = branch->mightHaveTerminator();
        if (terminated)
          rewriter.setInsertionPoint(branch->getTerminator());
        else
          rewriter.setInsertionPointToEnd(branch);
        auto copy = cast<scf::ForOp>(rewriter.clone(*nest, mapping));
        if (!terminated)
          scf::YieldOp::create(rewriter, loc, copy.getResults());
      };
      IRMapping mapping, original;
      fill(ifOp.thenBlock(), mapping);
      fill(ifOp.elseBlock(), original);
      plan.load = cast<memref::LoadOp>(
          mapping.lookup(plan.load.getResult()).getDefiningOp());
      if (plan.stagePoint == nest.getOperation())
        plan.stagePoint = ifOp;
      rewriter.replaceOp(nest, ifOp.getResults());
    }

    // The box, in row-major order.
    SmallVector<int64_t> extents;
    for (const BoxDim &dim : plan.box)
      extents.push_back(dim.extent);
    auto boxType = MemRefType::get(
        extents, element, MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
    Value box = kernel.addWorkgroupAttribution(boxType, loc);

    rewriter.setInsertionPoint(plan.stagePoint);
    // The corner of the box: the same for every thread of the block.
    SmallVector<Value> corner;
    for (const BoxDim &dim : plan.box) {
      Value value = index(dim.constant);
      for (const UniformTerm &term : dim.uniform) {
        Value atom =
            term.isBlockId
                ? gpu::BlockIdOp::create(rewriter, loc, term.dim).getResult()
                : term.argument;
        if (!atom.getType().isIndex())
          atom = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), atom);
        Value scaled =
            arith::MulIOp::create(rewriter, loc, atom, index(term.coefficient));
        value = arith::AddIOp::create(rewriter, loc, value, scaled);
      }
      corner.push_back(value);
    }

    // Every thread copies the elements linear, linear + threads, ... of the
    // box.
    std::array<int64_t, 3> block = plan.block;
    int64_t threads = block[0] * block[1] * block[2];
    // tid.x + bx * (tid.y + by * tid.z), leaving out dimensions of one thread.
    Value linear;
    for (int d = 2; d >= 0; --d) {
      if (block[d] == 1)
        continue;
      Value id = gpu::ThreadIdOp::create(rewriter, loc,
                                         static_cast<gpu::Dimension>(d));
      linear = linear ? arith::AddIOp::create(
                            rewriter, loc, id,
                            arith::MulIOp::create(rewriter, loc,
                                                  index(block[d]), linear))
                            .getResult()
                      : id;
    }
    int64_t elements = 1;
    for (int64_t extent : extents)
      elements *= extent;
    auto copy = scf::ForOp::create(rewriter, loc, linear, index(elements),
                                   index(threads));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(copy.getBody());
      Value at = copy.getInductionVar();
      SmallVector<Value> local(extents.size()), global(extents.size());
      for (int64_t d = extents.size() - 1; d >= 0; --d) {
        local[d] = arith::RemUIOp::create(rewriter, loc, at, index(extents[d]));
        at = arith::DivUIOp::create(rewriter, loc, at, index(extents[d]));
        global[d] = arith::AddIOp::create(rewriter, loc, corner[d], local[d]);
      }
      Value inside;
      for (auto [d, value] : llvm::enumerate(global)) {
        Value above = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::sge, value, index(0));
        Value below =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                  value, index(inputType.getDimSize(d)));
        Value both = arith::AndIOp::create(rewriter, loc, above, below);
        inside =
            inside
                ? arith::AndIOp::create(rewriter, loc, inside, both).getResult()
                : both;
      }
      auto ifOp = scf::IfOp::create(rewriter, loc, inside,
                                    /*withElseRegion=*/false);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value value = memref::LoadOp::create(rewriter, loc, input, global);
      memref::StoreOp::create(rewriter, loc, value, box, local);
    }
    gpu::BarrierOp::create(rewriter, loc);

    // The window loops read the box.
    rewriter.setInsertionPoint(plan.load);
    SmallVector<Value> offsets;
    for (auto [d, value] : llvm::enumerate(plan.load.getIndices()))
      offsets.push_back(arith::SubIOp::create(rewriter, loc, value, corner[d]));
    rewriter.replaceOpWithNewOp<memref::LoadOp>(plan.load, box, offsets);
    return success();
  }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createHaloTileFamily() {
  return std::make_unique<HaloTileFamily>();
}
