//===- NestStaging.cpp - Raised nests with operands staged per block ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The new body of a raised kernel under a staged schedule
// (autoprof/Schedule/NestSchedule.h): each block takes a tile of points
// along the contiguous and the reuse dimensions, 16 threads along the one
// and the block's other threads along the other, each thread V x R points
// of it. The linearized reductions run in chunks. Each thread loads its
// share of the first chunk's slices into registers before the loop: for
// each staged operand (NestPlan::staging), the elements along the tile
// dimension the operand indexes, for each reduction point of the chunk. In
// each chunk, after a barrier, the threads store their shares into shared
// memory; after a second barrier each thread loads its share of the next
// chunk, whose loads are in flight while it runs the chunk's reduction
// points, reading the staged operands from shared memory and the others
// from global memory. The accumulators stay in registers; after the last
// chunk each thread stores them.
//
// A slice is a chunk x extent array. The copy walks the operand's memory in
// order where it can: along the tile dimension where the operand is
// contiguous along it, else along the chunk where the operand is contiguous
// along the innermost reduction dimension; then consecutive threads store
// a column of the slice, whose rows get 16 bytes of padding so that they
// fall on different banks and stay aligned for the threads' vector reads.
// Reduction points past the end (in the last chunk where the chunk does not
// divide them, and in the chunk loaded ahead of the last) are copied as the
// last one; each chunk runs only the points before the end.
//
// The reductions keep the raised form's order, so each point combines its
// terms in the order the kernel did.
//
//===----------------------------------------------------------------------===//

#include "NestGeneration.h"

#include "Families.h"

#include "autoprof/Analysis/MemoryAccess.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

namespace {

/// A staged operand's slice in the block's shared memory.
struct Slice {
  unsigned operand;
  /// The tile dimension the operand indexes (a dimension of the space).
  unsigned dim;
  /// Points of the tile along it, and the slice's row length (padded).
  int64_t extent, rowLength;
  /// The copy walks the chunk innermost.
  bool chunkInner;
  Value buffer;
};

} // namespace

LogicalResult mlir::autoprof::rewrites::generateStagedNest(
    RewriterBase &rewriter, const RewriteTarget &target, const NestPlan &plan) {
  const IterationSpace &space = plan.space;
  const NestSchedule &schedule = plan.schedule;
  gpu::GPUFuncOp kernel = target.kernel;
  Location loc = kernel.getLoc();
  MLIRContext *context = kernel.getContext();
  SmallVector<gpu::LaunchFuncOp> launches(target.launches);
  if (plan.versioned)
    launches = versionNestLaunches(rewriter, target, space);
  Block &old = kernel.getBody().front();
  Block *entry = nullptr;
  IRMapping mapping = beginNestBody(rewriter, kernel, entry);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddIOp::create(rewriter, loc, a, b);
  };
  auto mul = [&](Value a, int64_t b) -> Value {
    return arith::MulIOp::create(rewriter, loc, a, constant(b));
  };
  auto rem = [&](Value a, int64_t b) -> Value {
    return arith::RemUIOp::create(rewriter, loc, a, constant(b));
  };
  auto div = [&](Value a, int64_t b) -> Value {
    return arith::DivUIOp::create(rewriter, loc, a, constant(b));
  };

  SmallVector<unsigned> parallel = space.getParallelDims();
  SmallVector<unsigned> reductions = space.getReductionDims();
  unsigned contiguous = parallel[schedule.order.back()];
  unsigned reuse = parallel[schedule.reuseDim];
  int64_t vector = schedule.vector, rowsPerThread = schedule.reuse;
  int64_t copies = vector * rowsPerThread;
  int64_t threads = schedule.threadsPerBlock;
  int64_t columns = kStagedTileColumns * vector;
  int64_t rows = threads / kStagedTileColumns * rowsPerThread;
  int64_t chunk = schedule.stageChunk;
  int64_t reductionPoints = space.getReductionPoints();

  // The block's tile: the schedule's order from the innermost, the two
  // tile dimensions counted in tiles (the last one partly past the extent
  // where the tile does not divide it).
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value block = gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x);
  SmallVector<Value> base(space.dims.size());
  Value rest = block;
  for (int i = static_cast<int>(schedule.order.size()) - 1; i >= 0; --i) {
    unsigned d = parallel[schedule.order[i]];
    int64_t tile = d == contiguous ? columns : d == reuse ? rows : 1;
    int64_t extent = llvm::divideCeil(space.dims[d].extent, tile);
    Value index = i == 0 ? rest : rem(rest, extent);
    if (i != 0)
      rest = div(rest, extent);
    base[d] = tile == 1 ? index : mul(index, tile);
  }
  Value zero = constant(0);
  for (unsigned d : reductions)
    base[d] = zero;
  // The thread's points: copy i * V + v is the point R * row + i along the
  // reuse dimension and V * column + v along the contiguous one.
  Value column = rem(thread, kStagedTileColumns);
  Value row = div(thread, kStagedTileColumns);
  Value columnOffset = vector > 1 ? mul(column, vector) : column;
  Value rowOffset = rowsPerThread > 1 ? mul(row, rowsPerThread) : row;
  SmallVector<Value> columnOffsets, rowOffsets;
  for (int64_t v = 0; v < vector; ++v)
    columnOffsets.push_back(v == 0 ? columnOffset
                                   : add(columnOffset, constant(v)));
  for (int64_t i = 0; i < rowsPerThread; ++i)
    rowOffsets.push_back(i == 0 ? rowOffset : add(rowOffset, constant(i)));
  SmallVector<SmallVector<Value>> copyDims(copies, base);
  for (int64_t i = 0; i < rowsPerThread; ++i)
    for (int64_t v = 0; v < vector; ++v) {
      copyDims[i * vector + v][reuse] = add(base[reuse], rowOffsets[i]);
      copyDims[i * vector + v][contiguous] =
          add(base[contiguous], columnOffsets[v]);
    }
  // Where the tile does not divide an extent, the threads whose points lie
  // past it (all of a thread's points, since V and R divide the extents)
  // copy their share of the slices and store nothing; the global loads of
  // their reductions read the last element instead.
  int64_t contiguousExtent = space.dims[contiguous].extent;
  int64_t reuseExtent = space.dims[reuse].extent;
  bool partialColumns = contiguousExtent % columns != 0;
  bool partialRows = reuseExtent % rows != 0;
  auto clamp = [&](Value index, int64_t extent) -> Value {
    return arith::MinUIOp::create(rewriter, loc, index, constant(extent - 1));
  };
  Value inside;
  auto within = [&](unsigned d, int64_t extent) {
    Value below =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                              copyDims[0][d], constant(extent));
    inside =
        inside ? arith::AndIOp::create(rewriter, loc, inside, below).getResult()
               : below;
  };
  if (partialColumns)
    within(contiguous, contiguousExtent);
  if (partialRows)
    within(reuse, reuseExtent);
  SmallVector<SmallVector<Value>> loopDims(copyDims);
  for (SmallVector<Value> &dims : loopDims) {
    if (partialColumns)
      dims[contiguous] = clamp(dims[contiguous], contiguousExtent);
    if (partialRows)
      dims[reuse] = clamp(dims[reuse], reuseExtent);
  }
  // Runs `build` where the thread's points lie within the extents.
  auto ifInside = [&](llvm::function_ref<void()> build) {
    if (!inside)
      return build();
    auto guard = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
    OpBuilder::InsertionGuard insertion(rewriter);
    rewriter.setInsertionPointToStart(guard.thenBlock());
    build();
  };
  auto indices = [&](const SpaceOperand &operand, ArrayRef<Value> dims) {
    SmallVector<Value> values;
    for (AffineExpr expr : operand.map.getResults())
      values.push_back(
          affine::expandAffineExpr(rewriter, loc, expr, dims, ValueRange{}));
    return values;
  };
  // The reduction dimensions of linear reduction point `index`, the last
  // innermost.
  auto setReductions = [&](Value index, SmallVectorImpl<Value> &dims) {
    for (int i = static_cast<int>(schedule.reductionOrder.size()) - 1; i >= 0;
         --i) {
      unsigned d = reductions[schedule.reductionOrder[i]];
      if (i == 0) {
        dims[d] = index;
        break;
      }
      int64_t extent = space.dims[d].extent;
      dims[d] = rem(index, extent);
      index = div(index, extent);
    }
  };

  // The slices in shared memory.
  SmallVector<Slice> slices;
  SmallVector<int> sliceOf(space.operands.size(), -1);
  for (auto [index, operand] : llvm::enumerate(space.operands)) {
    NestStaging staging = plan.staging[index];
    if (staging == NestStaging::None)
      continue;
    Slice slice;
    slice.operand = index;
    slice.dim = staging == NestStaging::AlongReuse ? reuse : contiguous;
    slice.extent = staging == NestStaging::AlongReuse ? rows : columns;
    slice.chunkInner = plan.stagedAlongChunk[index];
    Type element = cast<MemRefType>(operand.buffer.getType()).getElementType();
    slice.rowLength =
        slice.extent + (slice.chunkInner ? getStagedRowPadding(element) : 0);
    auto type = MemRefType::get(
        {chunk, slice.rowLength}, element, MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
    slice.buffer = kernel.addWorkgroupAttribution(type, loc);
    sliceOf[index] = slices.size();
    slices.push_back(slice);
  }

  // Accumulated outputs stay in registers through the chunks, from their
  // elements; one register per copy, at slot * copies + copy.
  // (Threads past the extents start from zeros.)
  SmallVector<unsigned> accumulated;
  for (auto [i, operand] : llvm::enumerate(space.operands))
    if (operand.written && operand.read)
      accumulated.push_back(i);
  auto loadInitial = [&]() {
    SmallVector<Value> values;
    for (unsigned i : accumulated)
      for (int64_t c = 0; c < copies; ++c)
        values.push_back(memref::LoadOp::create(
            rewriter, loc, mapping.lookup(space.operands[i].buffer),
            indices(space.operands[i], copyDims[c])));
    return values;
  };
  SmallVector<Value> initial;
  if (inside && !accumulated.empty()) {
    SmallVector<Type> types;
    for (unsigned i : accumulated)
      types.append(copies, cast<MemRefType>(space.operands[i].buffer.getType())
                               .getElementType());
    auto start = scf::IfOp::create(rewriter, loc, types, inside,
                                   /*withElse=*/true);
    rewriter.setInsertionPointToStart(start.thenBlock());
    scf::YieldOp::create(rewriter, loc, loadInitial());
    rewriter.setInsertionPointToStart(start.elseBlock());
    SmallVector<Value> zeros;
    for (Type type : types)
      zeros.push_back(arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(type))));
    scf::YieldOp::create(rewriter, loc, zeros);
    rewriter.setInsertionPointAfter(start);
    initial.assign(start.getResults().begin(), start.getResults().end());
  } else {
    initial = loadInitial();
  }

  // A thread's share of a slice: elements thread + j * threads, each the
  // slice's point (row) and position along the tile. Where the block's
  // threads do not divide the slice's elements, the last share clamps to
  // the last element (two threads copy the same value there). The loads of
  // a chunk's share: each reduction point clamped to the last, so that the
  // chunk past the end, loaded ahead, stays in bounds.
  auto sharesOf = [&](const Slice &slice) {
    return (chunk * slice.extent + threads - 1) / threads;
  };
  auto shareOf = [&](const Slice &slice, int64_t j) {
    int64_t elements = chunk * slice.extent;
    Value element = j == 0 ? thread : add(thread, constant(j * threads));
    if (elements % threads != 0)
      element = clamp(element, elements);
    Value point =
        slice.chunkInner ? rem(element, chunk) : div(element, slice.extent);
    Value along =
        slice.chunkInner ? div(element, chunk) : rem(element, slice.extent);
    return std::make_pair(point, along);
  };
  auto loadShares = [&](Value first) {
    SmallVector<Value> values;
    for (const Slice &slice : slices) {
      const SpaceOperand &operand = space.operands[slice.operand];
      for (int64_t j = 0; j < sharesOf(slice); ++j) {
        auto [point, along] = shareOf(slice, j);
        Value reduction = arith::MinUIOp::create(
            rewriter, loc, add(first, point), constant(reductionPoints - 1));
        SmallVector<Value> dims(base);
        setReductions(reduction, dims);
        dims[slice.dim] = add(base[slice.dim], along);
        if (slice.dim == contiguous ? partialColumns : partialRows)
          dims[slice.dim] =
              clamp(dims[slice.dim],
                    slice.dim == contiguous ? contiguousExtent : reuseExtent);
        values.push_back(memref::LoadOp::create(rewriter, loc,
                                                mapping.lookup(operand.buffer),
                                                indices(operand, dims)));
      }
    }
    return values;
  };
  // The first chunk's shares are loaded before the loop; each iteration
  // stores the shares it carries, and loads the next chunk's before it
  // runs its own points, so that those loads are in flight meanwhile.
  SmallVector<Value> carried(initial);
  unsigned accumulators = initial.size();
  llvm::append_range(carried, loadShares(zero));
  auto chunks = scf::ForOp::create(
      rewriter, loc, zero, constant(reductionPoints), constant(chunk), carried);
  rewriter.setInsertionPointToStart(chunks.getBody());
  Value first = chunks.getInductionVar();
  ValueRange shares = chunks.getRegionIterArgs().drop_front(accumulators);
  // Copy the chunk's slices once every thread is done with the last ones.
  gpu::BarrierOp::create(rewriter, loc);
  unsigned share = 0;
  for (const Slice &slice : slices)
    for (int64_t j = 0; j < sharesOf(slice); ++j) {
      auto [point, along] = shareOf(slice, j);
      memref::StoreOp::create(rewriter, loc, shares[share++], slice.buffer,
                              ValueRange{point, along});
    }
  gpu::BarrierOp::create(rewriter, loc);
  SmallVector<Value> nextShares = loadShares(add(first, constant(chunk)));
  bool ragged = reductionPoints % chunk != 0;

  // The chunk's reduction points.
  Value upper = constant(chunk);
  if (ragged)
    upper = arith::MinUIOp::create(
        rewriter, loc, upper,
        arith::SubIOp::create(rewriter, loc, constant(reductionPoints), first));
  auto points =
      scf::ForOp::create(rewriter, loc, zero, upper, constant(1),
                         chunks.getRegionIterArgs().take_front(accumulators));
  rewriter.setInsertionPointToStart(points.getBody());
  Value point = points.getInductionVar();
  ValueRange current = points.getRegionIterArgs();
  // The reduction dimensions, for the operands read from global memory.
  bool reduced = false;
  auto reduce = [&]() {
    if (reduced)
      return;
    reduced = true;
    SmallVector<Value> dims(base);
    setReductions(add(first, point), dims);
    for (SmallVector<Value> &copyDim : loopDims)
      for (unsigned d : reductions)
        copyDim[d] = dims[d];
  };
  SmallVector<IRMapping> mappings(copies, mapping);
  SmallVector<Value> next(current.begin(), current.end());
  cloneNestBody(
      rewriter, space, mappings, accumulated, current, next,
      [&](unsigned operand, int64_t copy) -> Value {
        if (sliceOf[operand] >= 0) {
          const Slice &slice = slices[sliceOf[operand]];
          Value along = slice.dim == reuse ? rowOffsets[copy / vector]
                                           : columnOffsets[copy % vector];
          return memref::LoadOp::create(rewriter, loc, slice.buffer,
                                        ValueRange{point, along});
        }
        reduce();
        const SpaceOperand &accessed = space.operands[operand];
        return memref::LoadOp::create(rewriter, loc,
                                      mapping.lookup(accessed.buffer),
                                      indices(accessed, loopDims[copy]));
      },
      [&](unsigned operand, int64_t copy, Value value) {
        reduce();
        const SpaceOperand &accessed = space.operands[operand];
        ifInside([&] {
          memref::StoreOp::create(rewriter, loc, value,
                                  mapping.lookup(accessed.buffer),
                                  indices(accessed, loopDims[copy]));
        });
      });
  scf::YieldOp::create(rewriter, loc, next);
  rewriter.setInsertionPointAfter(points);
  SmallVector<Value> yielded(points.getResults());
  llvm::append_range(yielded, nextShares);
  scf::YieldOp::create(rewriter, loc, yielded);
  rewriter.setInsertionPointAfter(chunks);
  ifInside([&] {
    for (auto [slot, operand] : llvm::enumerate(accumulated)) {
      const SpaceOperand &output = space.operands[operand];
      for (int64_t c = 0; c < copies; ++c)
        memref::StoreOp::create(
            rewriter, loc, chunks.getResult(slot * copies + c),
            mapping.lookup(output.buffer), indices(output, copyDims[c]));
    }
  });
  rewriter.setInsertionPointToEnd(entry);
  gpu::ReturnOp::create(rewriter, loc);
  rewriter.eraseBlock(&old);

  setNestGeometry(rewriter, kernel, launches, schedule);
  // The copies' loads of one address are made once, and neighbouring ones
  // (a thread's points along a slice's row) merge into vector accesses.
  DominanceInfo dominance(kernel);
  eliminateCommonSubExpressions(rewriter, dominance, kernel);
  mergeNeighbouringAccesses(rewriter, kernel, {threads, 1, 1});
  return success();
}
