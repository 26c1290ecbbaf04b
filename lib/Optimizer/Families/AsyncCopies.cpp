//===- AsyncCopies.cpp - Staging copies as cp.async ----------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A staging copy of a tile in two shared buffers (ContractionTile.cpp with
// stagesInTwoBuffers) loads a group of neighbouring elements from global
// memory into registers at the start of a stage and stores them into the
// other buffer at its end, before the stage's barrier. Where the group is
// one aligned vector of 4, 8 or 16 bytes stored whole, the copy becomes an
// asynchronous one (nvgpu.device_async_copy: cp.async) issued where the
// load was: the elements go from global to shared memory without
// registers, and the stage's products run while they travel. The copies
// of a block of code before one barrier form one group, which every thread
// waits for (nvgpu.device_async_wait) just before that barrier, so that
// what the barrier publishes is what the stores published before. Nobody
// reads the other buffer during the stage, so the copies may land in any
// order.
//
//===----------------------------------------------------------------------===//

#include "ContractionTiling.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::autoprof::rewrites;

/// The global load whose whole vector `store` stores: its value is
/// vector.from_elements of the load's elements 0 .. n-1 in order, used
/// nowhere else; or null.
static vector::LoadOp getCopiedLoad(vector::StoreOp store) {
  auto elements =
      store.getValueToStore().getDefiningOp<vector::FromElementsOp>();
  if (!elements || !elements->hasOneUse())
    return {};
  vector::LoadOp load;
  for (auto [position, element] : llvm::enumerate(elements.getElements())) {
    auto extract = element.getDefiningOp<vector::ExtractOp>();
    if (!extract || !extract->hasOneUse() ||
        extract.getStaticPosition().size() != 1 ||
        extract.getStaticPosition()[0] != int64_t(position))
      return {};
    auto source = extract.getSource().getDefiningOp<vector::LoadOp>();
    if (!source || (load && source != load))
      return {};
    load = source;
  }
  if (!load || load->getBlock() != store->getBlock() ||
      load.getVectorType() != store.getVectorType() ||
      !llvm::all_of(load->getUsers(), [&](Operation *user) {
        return isa<vector::ExtractOp>(user) && user->hasOneUse() &&
               *user->getUsers().begin() == elements.getOperation();
      }))
    return {};
  // The source a buffer the kernel receives (global memory), and no
  // barrier between the load and the store: moving the store up to the
  // load may not cross one that other threads rely on.
  auto source = dyn_cast<BlockArgument>(load.getBase());
  auto kernel = store->getParentOfType<gpu::GPUFuncOp>();
  if (!source || !kernel || source.getOwner() != &kernel.getBody().front() ||
      source.getArgNumber() >= kernel.getNumArguments())
    return {};
  for (Operation *op = load->getNextNode(); op != store.getOperation();
       op = op->getNextNode())
    if (op->walk([](gpu::BarrierOp) {
            return WalkResult::interrupt();
          }).wasInterrupted())
      return {};
  return load;
}

/// `value` available at `point`: itself where it dominates it, else a copy
/// of its side-effect-free definition (and of theirs) before `point`,
/// appended to `cloned`; null where a definition has effects.
static Value materializeAt(RewriterBase &rewriter, Value value,
                           Operation *point, DominanceInfo &dominance,
                           IRMapping &copies,
                           SmallVectorImpl<Operation *> &cloned) {
  if (dominance.properlyDominates(value, point))
    return value;
  if (Value copied = copies.lookupOrNull(value))
    return copied;
  Operation *def = value.getDefiningOp();
  if (!def || !isMemoryEffectFree(def) || def->getNumRegions() != 0)
    return {};
  for (Value operand : def->getOperands())
    if (!materializeAt(rewriter, operand, point, dominance, copies, cloned))
      return {};
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(point);
  Operation *copy = rewriter.clone(*def, copies);
  cloned.push_back(copy);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

int64_t mlir::autoprof::rewrites::copyStagesAsynchronously(
    RewriterBase &rewriter, gpu::GPUFuncOp kernel, ArrayRef<Value> tiles) {
  DominanceInfo dominance(kernel);
  // The copies that may go asynchronous, by the barrier that ends their
  // block of code.
  llvm::MapVector<Operation *, SmallVector<vector::StoreOp>> byBarrier;
  kernel.walk([&](vector::StoreOp store) {
    // Only the staging copies: nothing reads the other buffer during a
    // stage, so they may land early (not a store of the kernel's own).
    if (!llvm::is_contained(tiles, store.getBase()))
      return;
    int64_t bytes = store.getVectorType().getNumElements() *
                    store.getVectorType().getElementTypeBitWidth() / 8;
    if (bytes != 4 && bytes != 8 && bytes != 16)
      return;
    vector::LoadOp load = getCopiedLoad(store);
    if (!load || store.getAlignment().value_or(0) < uint64_t(bytes) ||
        load.getAlignment().value_or(0) < uint64_t(bytes))
      return;
    Operation *barrier = nullptr;
    for (Operation *op = store->getNextNode(); op; op = op->getNextNode())
      if (isa<gpu::BarrierOp>(op)) {
        barrier = op;
        break;
      }
    if (barrier)
      byBarrier[barrier].push_back(store);
  });
  int64_t converted = 0;
  MLIRContext *context = kernel.getContext();
  Type token = nvgpu::DeviceAsyncTokenType::get(context);
  for (auto &[barrier, stores] : byBarrier) {
    SmallVector<Value> tokens;
    for (vector::StoreOp store : stores) {
      vector::LoadOp load = getCopiedLoad(store);
      if (!load)
        continue;
      // The destination's indices where the load is; where one cannot be
      // there, the copy stays as it is and the copies made go again.
      IRMapping copies;
      SmallVector<Operation *> cloned;
      SmallVector<Value> indices;
      for (Value index : store.getIndices())
        if (Value available = materializeAt(rewriter, index, load, dominance,
                                            copies, cloned))
          indices.push_back(available);
      if (indices.size() != store.getIndices().size()) {
        for (Operation *copy : llvm::reverse(cloned))
          if (copy->use_empty())
            rewriter.eraseOp(copy);
        continue;
      }
      rewriter.setInsertionPoint(load);
      int64_t elements = store.getVectorType().getNumElements();
      int64_t bytes =
          elements * store.getVectorType().getElementTypeBitWidth() / 8;
      Value copy = nvgpu::DeviceAsyncCopyOp::create(
          rewriter, store.getLoc(), token, store.getBase(), indices,
          load.getBase(), load.getIndices(), rewriter.getIndexAttr(elements),
          Value(), bytes == 16 ? rewriter.getUnitAttr() : UnitAttr());
      tokens.push_back(copy);
      Operation *elementsOp = store.getValueToStore().getDefiningOp();
      rewriter.eraseOp(store);
      SmallVector<Operation *> extracts(elementsOp->getOperands().size());
      for (auto [n, operand] : llvm::enumerate(elementsOp->getOperands()))
        extracts[n] = operand.getDefiningOp();
      rewriter.eraseOp(elementsOp);
      for (Operation *extract : extracts)
        rewriter.eraseOp(extract);
      rewriter.eraseOp(load);
      ++converted;
    }
    if (tokens.empty())
      continue;
    rewriter.setInsertionPoint(barrier);
    Value group = nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, barrier->getLoc(), token, tokens);
    nvgpu::DeviceAsyncWaitOp::create(rewriter, barrier->getLoc(), group,
                                     rewriter.getI32IntegerAttr(0));
  }
  return converted;
}
