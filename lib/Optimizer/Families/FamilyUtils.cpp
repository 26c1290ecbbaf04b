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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

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
