//===- FamilyUtils.cpp - Steps several rewrite families share -------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

Value mlir::autoprof::rewrites::buildBuffersApart(RewriterBase &rewriter,
                                                  Location loc,
                                                  ArrayRef<Value> buffers,
                                                  ArrayRef<Value> others) {
  auto extent = [&](Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    // An index is 64 bits on the GPU targets.
    Type element = type.getElementType();
    int64_t elementBytes =
        element.isIndex() ? 8 : (element.getIntOrFloatBitWidth() + 7) / 8;
    int64_t bytes = type.getNumElements() * std::max<int64_t>(1, elementBytes);
    Value begin =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
    Value size = arith::ConstantIndexOp::create(rewriter, loc, bytes);
    Value end = arith::AddIOp::create(rewriter, loc, begin, size);
    return std::make_pair(begin, end);
  };
  Value apart;
  for (Value buffer : buffers) {
    auto [begin, end] = extent(buffer);
    for (Value other : others) {
      if (other == buffer)
        continue;
      auto [otherBegin, otherEnd] = extent(other);
      Value before = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule, end, otherBegin);
      Value after = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ule, otherEnd, begin);
      Value both = arith::OrIOp::create(rewriter, loc, before, after);
      apart =
          apart ? arith::AndIOp::create(rewriter, loc, apart, both).getResult()
                : both;
    }
  }
  return apart;
}

void mlir::autoprof::rewrites::setLaunchSizes(
    RewriterBase &rewriter, gpu::LaunchFuncOp launch,
    std::array<std::optional<int64_t>, 3> grid,
    std::array<std::optional<int64_t>, 3> block) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(launch);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, launch.getLoc(), value);
  };
  // Constants first, in operand order, then one in-place update.
  std::array<Value, 6> sizes;
  for (int d = 0; d < 3; ++d) {
    if (grid[d])
      sizes[d] = constant(*grid[d]);
  }
  for (int d = 0; d < 3; ++d) {
    if (block[d])
      sizes[3 + d] = constant(*block[d]);
  }
  rewriter.modifyOpInPlace(launch, [&] {
    MutableOperandRange ranges[] = {
        launch.getGridSizeXMutable(),  launch.getGridSizeYMutable(),
        launch.getGridSizeZMutable(),  launch.getBlockSizeXMutable(),
        launch.getBlockSizeYMutable(), launch.getBlockSizeZMutable()};
    for (auto [range, size] : llvm::zip(ranges, sizes))
      if (size)
        range.assign(size);
  });
}

void mlir::autoprof::rewrites::shrinkGridX(RewriterBase &rewriter,
                                           ArrayRef<gpu::LaunchFuncOp> launches,
                                           int64_t factor) {
  for (gpu::LaunchFuncOp launch : launches) {
    int64_t gx = *getConstant(launch.getGridSizeX());
    setLaunchSizes(rewriter, launch, {(gx + factor - 1) / factor}, {});
  }
}

double mlir::autoprof::rewrites::remapBonus(const RewriteEvidence &evidence) {
  if (evidence.isScattered())
    return 2;
  return evidence.isCoalesced() ? -6 : 0;
}

FailureOr<ThreadRemapPlan>
mlir::autoprof::rewrites::planRemap(RemapKind kind, int64_t parameter,
                                    const RewriteTarget &target,
                                    std::string &why) {
  std::array<int64_t, 3> grid, block;
  if (std::optional<std::string> reason =
          checkRemappable(target.kernel, target.launches, grid, block)) {
    why = *reason;
    return failure();
  }
  int64_t threads = block[0] * block[1] * block[2];
  bool formBlocks = kind == RemapKind::FormBlocks;
  if (formBlocks != (threads == 1)) {
    why = formBlocks ? "the launches do not have one-thread blocks"
                     : "the launches have one-thread blocks (form-blocks "
                       "applies)";
    return failure();
  }
  if (kind == RemapKind::Resize && threads == parameter) {
    why = "the kernel already runs with " + std::to_string(parameter) +
          " threads per block";
    return failure();
  }
  // The known sizes let the analysis see the ids' ranges.
  MemoryAccessAnalysis analysis(target.kernel, block, grid);
  std::optional<std::pair<gpu::Dimension, double>> contiguous =
      analysis.getContiguousDimension();
  int fastest = contiguous ? static_cast<int>(contiguous->first) : 0;
  if (kind == RemapKind::Coalesce) {
    if (!contiguous) {
      why = "no access walks contiguous memory along a thread dimension";
      return failure();
    }
    if (fastest == 0 && block[0] >= parameter) {
      why = "the contiguous dimension already runs along x with at least " +
            std::to_string(parameter) + " threads per block";
      return failure();
    }
  }
  int64_t perBlock =
      kind == RemapKind::Coalesce ? std::max(threads, parameter) : parameter;
  return planThreadRemap(grid, block, fastest, parameter, perBlock, why);
}

bool mlir::autoprof::rewrites::isGeometryOp(Operation *op) {
  return isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             gpu::GlobalIdOp>(op);
}

void mlir::autoprof::rewrites::mapGeometry(RewriterBase &rewriter, Location loc,
                                           ArrayRef<Operation *> geometry,
                                           std::array<Value, 3> global,
                                           std::array<int64_t, 3> grid,
                                           std::array<int64_t, 3> block,
                                           IRMapping &mapping) {
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  for (Operation *op : geometry) {
    int d = static_cast<int>(
        op->getAttrOfType<gpu::DimensionAttr>("dimension").getValue());
    Value value;
    if (isa<gpu::GlobalIdOp>(op))
      value = global[d];
    else if (isa<gpu::BlockDimOp>(op))
      value = index(block[d]);
    else if (isa<gpu::GridDimOp>(op))
      value = index(grid[d]);
    else if (block[d] == 1)
      value = isa<gpu::ThreadIdOp>(op) ? index(0) : global[d];
    else if (isa<gpu::ThreadIdOp>(op))
      value = arith::RemUIOp::create(rewriter, loc, global[d], index(block[d]));
    else
      value = arith::DivUIOp::create(rewriter, loc, global[d], index(block[d]));
    mapping.map(op->getResult(0), value);
  }
}

SmallVector<Operation *>
mlir::autoprof::rewrites::getGeometrySlice(Operation *target, Operation *stop) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work = {target};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def == stop || isGeometryOp(def) || slice.contains(def))
        continue;
      slice.insert(def);
      work.push_back(def);
    }
  }
  SmallVector<Operation *> ordered;
  if (slice.empty())
    return ordered;
  auto kernel = target->getParentOfType<gpu::GPUFuncOp>();
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (slice.contains(op))
      ordered.push_back(op);
  });
  return ordered;
}

bool mlir::autoprof::rewrites::reachesDefinition(
    Value value, llvm::function_ref<bool(Operation *)> matches) {
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work = {value};
  while (!work.empty()) {
    Value current = work.pop_back_val();
    Operation *def = current.getDefiningOp();
    if (!def) {
      // A region's argument (an induction variable, an iter_arg) depends on
      // what its operation takes; the kernel's arguments are values.
      Operation *owner = cast<BlockArgument>(current).getOwner()->getParentOp();
      if (!owner || isa<gpu::GPUFuncOp>(owner) || !seen.insert(owner).second)
        continue;
      llvm::append_range(work, owner->getOperands());
      owner->walk([&](scf::YieldOp yield) {
        llvm::append_range(work, yield.getOperands());
      });
      continue;
    }
    if (!seen.insert(def).second)
      continue;
    if (matches(def))
      return true;
    llvm::append_range(work, def->getOperands());
    def->walk([&](scf::YieldOp yield) {
      llvm::append_range(work, yield.getOperands());
    });
  }
  return false;
}

bool mlir::autoprof::rewrites::touchesMemory(Operation *op) {
  return !isMemoryEffectFree(op) && !isa<scf::ForOp, scf::IfOp>(op);
}

bool mlir::autoprof::rewrites::mayDifferInBlock(Value value) {
  return reachesDefinition(value, [](Operation *def) {
    return isa<gpu::ThreadIdOp, gpu::GlobalIdOp, gpu::LaneIdOp,
               gpu::SubgroupIdOp>(def) ||
           def->getName().getDialectNamespace() == "nvvm" || touchesMemory(def);
  });
}

bool mlir::autoprof::rewrites::writesMemoryItself(Operation *op) {
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op))
    return !effects.onlyHasEffect<MemoryEffects::Read>() &&
           !effects.hasNoEffect();
  return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
}

bool mlir::autoprof::rewrites::mayWriteMemory(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return writesMemoryItself(nested) ? WalkResult::interrupt()
                                          : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
/// Accesses of one kind to one buffer, in one block, through the same outer
/// indices and innermost affine terms: they differ in the constant alone.
/// Loads are grouped between writes (a tile read, written again and read
/// again holds other values the second time).
struct NeighbourGroup {
  bool stores = false;
  Value memref;
  Block *block = nullptr;
  /// For loads: how many operations that may write memory precede them in
  /// their block.
  int64_t segment = 0;
  SmallVector<Value> outer;
  SmallVector<std::pair<unsigned, int64_t>> terms;
  /// Each access and the constant of its innermost index.
  SmallVector<std::pair<Operation *, int64_t>> members;
};
} // namespace

/// The innermost index of a memref.load or memref.store.
static Value getInnermostIndex(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getIndices().back();
  return cast<memref::StoreOp>(op).getIndices().back();
}

/// Whether the operations strictly between the first and the last of
/// `ops` (all in one block) let them merge: no write between loads; for
/// stores, no memory access at all but the stores themselves.
static bool nothingBetween(ArrayRef<Operation *> ops, bool stores) {
  if (ops.empty())
    return true;
  Operation *first = ops.front(), *last = ops.front();
  for (Operation *op : ops) {
    if (op->isBeforeInBlock(first))
      first = op;
    if (last->isBeforeInBlock(op))
      last = op;
  }
  for (Operation *op = first->getNextNode(); op != last;
       op = op->getNextNode()) {
    if (stores ? (!isMemoryEffectFree(op) && !llvm::is_contained(ops, op))
               : mayWriteMemory(op))
      return false;
  }
  return true;
}

int64_t mlir::autoprof::rewrites::mergeNeighbouringAccesses(
    RewriterBase &rewriter, gpu::GPUFuncOp kernel,
    std::array<int64_t, 3> blockSize) {
  MemoryAccessAnalysis analysis(kernel, blockSize);
  Block &entry = kernel.getBody().front();
  SmallVector<NeighbourGroup> groups;
  llvm::DenseMap<Block *, int64_t> writesSoFar;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto load = dyn_cast<memref::LoadOp>(op);
    auto store = dyn_cast<memref::StoreOp>(op);
    int64_t &writes = writesSoFar[op->getBlock()];
    if (!load && mayWriteMemory(op))
      ++writes;
    if (!load && !store)
      return;
    int64_t segment = load ? writes : 0;
    Value memref = load ? load.getMemRef() : store.getMemRef();
    ValueRange indices = load ? load.getIndices() : store.getIndices();
    auto buffer = dyn_cast<BlockArgument>(memref);
    auto type = cast<MemRefType>(memref.getType());
    Type element = type.getElementType();
    if (!buffer || buffer.getOwner() != &entry || indices.empty() ||
        !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      return;
    std::optional<AffineIndex> form = analysis.express(indices.back());
    if (!form)
      return;
    llvm::sort(form->terms);
    SmallVector<Value> outer(indices.drop_back());
    NeighbourGroup *group = nullptr;
    for (NeighbourGroup &candidate : groups)
      if (candidate.stores == bool(store) && candidate.memref == memref &&
          candidate.block == op->getBlock() && candidate.segment == segment &&
          candidate.outer == outer && candidate.terms == form->terms) {
        group = &candidate;
        break;
      }
    if (!group) {
      group = &groups.emplace_back();
      group->stores = bool(store);
      group->memref = memref;
      group->block = op->getBlock();
      group->segment = segment;
      group->outer = outer;
      group->terms = form->terms;
    }
    group->members.push_back({op, form->constant});
  });

  int64_t merged = 0;
  for (NeighbourGroup &group : groups) {
    if (group.members.size() < 2)
      continue;
    auto type = cast<MemRefType>(group.memref.getType());
    Type element = type.getElementType();
    int64_t bytes = element.getIntOrFloatBitWidth() / 8;
    // The widest aligned group: 128 bits, a divisor of the innermost extent
    // (rows start aligned) and of every term's coefficient (the form's
    // variable part is a multiple of it).
    int64_t widest = 16 / bytes;
    auto divides = [](int64_t width, int64_t value) {
      return value % width == 0;
    };
    while (widest > 1 && (!divides(widest, type.getShape().back()) ||
                          llvm::any_of(group.terms, [&](auto term) {
                            return !divides(widest, term.second);
                          })))
      widest /= 2;
    llvm::SmallDenseSet<Operation *> done;
    for (int64_t width = widest; width >= 2; width /= 2) {
      // The aligned starts that the constants reach.
      SmallVector<int64_t> starts;
      for (auto [op, offset] : group.members)
        starts.push_back(llvm::divideFloorSigned(offset, width) * width);
      llvm::sort(starts);
      starts.erase(llvm::unique(starts), starts.end());
      for (int64_t start : starts) {
        // The accesses of each element of [start, start + width).
        SmallVector<SmallVector<Operation *>> byElement(width);
        for (auto [op, offset] : group.members)
          if (!done.contains(op) && offset >= start && offset < start + width)
            byElement[offset - start].push_back(op);
        if (llvm::any_of(byElement, [&](ArrayRef<Operation *> ops) {
              return ops.empty() || (group.stores && ops.size() != 1);
            }))
          continue;
        SmallVector<Operation *> ops;
        for (ArrayRef<Operation *> element : byElement)
          llvm::append_range(ops, element);
        if (!nothingBetween(ops, group.stores))
          continue;
        // The vector access goes where the first load or the last store
        // was, its index that access's plus the distance to the start.
        Operation *anchor = ops.front();
        for (Operation *op : ops)
          if (group.stores ? anchor->isBeforeInBlock(op)
                           : op->isBeforeInBlock(anchor))
            anchor = op;
        int64_t anchorOffset = 0;
        for (auto [op, offset] : group.members)
          if (op == anchor)
            anchorOffset = offset;
        rewriter.setInsertionPoint(anchor);
        Location loc = anchor->getLoc();
        SmallVector<Value> indices(group.outer);
        Value index = getInnermostIndex(anchor);
        if (start != anchorOffset)
          index =
              arith::AddIOp::create(rewriter, loc, index,
                                    arith::ConstantIndexOp::create(
                                        rewriter, loc, start - anchorOffset));
        indices.push_back(index);
        auto vectorType = VectorType::get({width}, element);
        llvm::MaybeAlign alignment(width * bytes);
        if (group.stores) {
          SmallVector<Value> values;
          for (ArrayRef<Operation *> element : byElement)
            values.push_back(
                cast<memref::StoreOp>(element.front()).getValueToStore());
          Value vector =
              vector::FromElementsOp::create(rewriter, loc, vectorType, values);
          vector::StoreOp::create(rewriter, loc, vector, group.memref, indices,
                                  /*nontemporal=*/false, alignment);
          for (Operation *op : ops)
            rewriter.eraseOp(op);
        } else {
          Value vector = vector::LoadOp::create(
              rewriter, loc, vectorType, group.memref, indices,
              /*nontemporal=*/false, alignment);
          for (auto [k, element] : llvm::enumerate(byElement))
            for (Operation *op : element) {
              rewriter.setInsertionPointAfterValue(vector);
              rewriter.replaceOp(
                  op, vector::ExtractOp::create(
                          rewriter, loc, vector,
                          ArrayRef<int64_t>{static_cast<int64_t>(k)}));
            }
        }
        for (Operation *op : ops)
          done.insert(op);
        merged += ops.size();
      }
    }
  }
  return merged;
}

LogicalResult mlir::autoprof::rewrites::carryInRegisters(
    RewriterBase &rewriter, gpu::GPUFuncOp kernel,
    ArrayRef<Accumulation> accumulations) {
  // Load before the loop, carry the value through iter_args, store once
  // after it. The loop runs at least once, so the final store happens in
  // the original too; no other access of the buffer is in the loop.
  // Through each enclosing loop that qualifies too, from the innermost
  // out: the load and store the previous step left around the inner loop
  // are then those of the enclosing one.
  for (Accumulation acc : accumulations) {
    // An earlier accumulation of the same loop nest replaced the loops it
    // went through: the load is still in its loop's body.
    auto loop = cast<scf::ForOp>(acc.load->getParentOp());
    memref::LoadOp load = acc.load;
    memref::StoreOp store = acc.store;
    for (unsigned step = 0; step <= acc.enclosing; ++step) {
      auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
      rewriter.setInsertionPoint(loop);
      auto initial = memref::LoadOp::create(
          rewriter, load.getLoc(), load.getMemRef(), load.getIndices());
      Value stored = store.getValueToStore();
      FailureOr<LoopLikeOpInterface> replaced =
          cast<LoopLikeOpInterface>(loop.getOperation())
              .replaceWithAdditionalYields(
                  rewriter, initial.getResult(),
                  /*replaceInitOperandUsesInLoop=*/false,
                  [&](OpBuilder &, Location, ArrayRef<BlockArgument>)
                      -> SmallVector<Value> { return {stored}; });
      if (failed(replaced))
        return emitError(kernel.getLoc(), "cannot carry the accumulation of @")
               << kernel.getName() << " through its loop";
      auto newLoop = cast<scf::ForOp>(replaced->getOperation());
      rewriter.replaceAllUsesWith(load.getResult(),
                                  newLoop.getRegionIterArgs().back());
      rewriter.setInsertionPointAfter(newLoop);
      auto final = memref::StoreOp::create(
          rewriter, store.getLoc(), newLoop.getResults().back(),
          store.getMemRef(), store.getIndices());
      rewriter.eraseOp(store);
      rewriter.eraseOp(load);
      loop = outer;
      load = initial;
      store = final;
    }
  }
  return success();
}

bool mlir::autoprof::rewrites::storesSumsOfProducts(gpu::GPUFuncOp kernel,
                                                    std::string &why) {
  llvm::SmallPtrSet<Operation *, 32> seen;
  SmallVector<Value> work;
  kernel.walk([&](memref::StoreOp store) {
    if (isa<FloatType>(store.getValueToStore().getType()))
      work.push_back(store.getValueToStore());
  });
  while (!work.empty()) {
    Value current = work.pop_back_val();
    Operation *def = current.getDefiningOp();
    if (!def) {
      Operation *owner = cast<BlockArgument>(current).getOwner()->getParentOp();
      if (!owner || isa<gpu::GPUFuncOp>(owner) || !seen.insert(owner).second)
        continue;
      if (auto loop = dyn_cast<scf::ForOp>(owner)) {
        llvm::append_range(work, loop.getInitArgs());
        llvm::append_range(work,
                           loop.getBody()->getTerminator()->getOperands());
      }
      continue;
    }
    if (!seen.insert(def).second)
      continue;
    if (isa<memref::LoadOp, arith::ConstantOp>(def))
      continue;
    if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp>(def)) {
      llvm::append_range(work, def->getOperands());
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      unsigned index = cast<OpResult>(current).getResultNumber();
      work.push_back(loop.getInitArgs()[index]);
      work.push_back(loop.getBody()->getTerminator()->getOperand(index));
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      unsigned index = cast<OpResult>(current).getResultNumber();
      work.push_back(ifOp.thenYield().getOperand(index));
      if (!ifOp.getElseRegion().empty())
        work.push_back(ifOp.elseYield().getOperand(index));
      continue;
    }
    why = "a stored value is computed with '" +
          def->getName().getStringRef().str() +
          "', not only with sums, differences and products of loaded values "
          "(the magnitude that bounds a reassociated sum's rounding would not "
          "hold)";
    return false;
  }
  return true;
}
