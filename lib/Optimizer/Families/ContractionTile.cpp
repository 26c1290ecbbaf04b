//===- ContractionTile.cpp - contraction-tile=S: shared and register tiles ===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A contraction that each thread computes alone, C[i][j] = sum_k A[i][k] *
// B[k][j] with the sum in a register (after register-accumulate), reads
// every element of A and B once per result that uses it: a block of
// threads loads the same rows and columns again and again, and only the
// caches stand between the kernel and memory. This family gives each block
// of T x T threads an S x S block of results (S = 16, 32, 64 or 128; T = 8
// at S = 32, else 16, so each thread computes (S/T)^2 of them: 1, 16, 16 or
// 64) and runs
// the loop in stages of 16 iterations: for each load of the loop that only
// one of the two result dimensions moves (a "row" load like A[i][k] or a
// "column" load like B[k][j], in any layout), the block copies the 16 x S
// elements a stage needs into a tile in shared memory (the lanes run along
// whichever of k and the result dimension walks contiguous memory). With
// one buffer per tile (contraction-tile, mma-tile) a stage stores its
// elements, waits, loads the next stage's and computes, and waits again.
// With two (contraction-pipeline, mma-pipeline: ContractionPipeline.cpp,
// MmaPipeline.cpp) the first stage goes to buffer 0 before the loop; in stage s
// each thread loads its elements of stage s + 1 into registers, runs the 16
// iterations for each of its results from buffer s mod 2, stores the next
// stage's elements to the other buffer (every thread finished reading it before
// the last barrier) and waits at the stage's one barrier. Every element loaded
// from memory serves S results, and the next stage's loads are in flight while
// this one computes.
//
// A thread's results lie in groups of G = min(S/T, 4) neighbours along each
// dimension (thread t owns positions G t .. G t + G - 1 of every T G), so
// that per iteration it reads the G row elements and the G column elements
// of a group with one vector load each from the tiles (128 bits for f32 at
// S >= 32: 16 multiply-adds per two shared loads, where results 16 apart
// needed one load per two). The tiles' rows are padded by
// G elements, which keeps those loads aligned and spreads the staging
// stores of a warp over the banks; they are aligned to 16 bytes. The
// neighbouring results' loads and stores before and after the loop merge
// into vector accesses where the access analysis proves them aligned
// (mergeNeighbouringAccesses), and so do the staging copies: a thread copies
// groups of 16 bytes (4 f32, 8 halves) along whichever side the copying
// lanes run, and the stages are counted so that each starts at 16 times a
// value (where 16 divides the trip count the prefetch after the last stage
// reads the last stage again instead of clamping each iteration), so that a
// group's loads (A[i][k .. k+3], B[k][j .. j+3] of f32) are one 128-bit
// load.
//
// The kernel's own code computes everything: the operations before and after
// the loop are copied once per result with the original thread, block and
// size ids recomputed from the result's global index (as a thread remap does,
// ThreadRemap.h), the loop body once per result and iteration with the
// staged loads replaced by reads of the tiles, and the staging copies the
// backward slice of each staged load with the ids of the element it fetches.
// Each result is therefore computed by the same operations in the same
// order as before, but that, where every float the kernel stores is a sum
// of products, a product and the sum it is added to may fuse (the
// `contract` fast-math flag on the tiled loop's float operations, as cuBLAS
// computes its products): one rounding instead of two and half the
// instructions. Where terms cancel, that differs from the original by more
// than a tolerance relative to the result, so the kernel is marked
// `autoprof.reassociated` and its verification bounds the difference by the
// magnitude of the terms (docs/runtime.md, Verification); elsewhere the
// results are exact. The kernel asks for 1 to 4 resident blocks per SM
// (nvvm.minctasm), a register budget for its results: without it ptxas
// spills the accumulators of 256-thread blocks to reach an occupancy of its
// own choosing.
//
// A kernel that register-accumulate versioned (the accumulating loop runs
// under a run-time check that the buffers do not overlap, the original loop
// otherwise) keeps both branches: the tiled loop in the first, and the
// original code of each result, one after the other, in the second.
//
// The results' rows and columns are two of the kernel's thread dimensions.
// Where the loads that one of them moves (a convolution's weights, moving
// with the output channel) move with neither of the other two, and some
// load moves with both (the image, with its rows and pixels), the columns
// run over both: column c is pixel c mod N of image row c div N (N pixels
// per row), so that tiles of 64 or 128 columns cover a 112 x 112 image
// whose rows no such tile divides. A loop under a thread remap's bounds
// check (coalesce and form-blocks round the grid up and let only the
// original problem's threads through) tiles the indices the check lets
// through: every result of the tiles passes it, and it goes (only where
// nothing follows it, and a versioned loop's second branch is under the
// same check). Where S does not divide the results, the edge tiles' rows
// and columns past them are clamped to the last one for every load, and
// each result runs the code after the loop under its own bounds check.
// (mma-tile, MmaTile.cpp, runs the products on tensor cores instead: there
// the sums are added in another order.)
//
// Memory order: nothing before or in the loop may write memory, and the
// barrier that ends the last stage precedes every write, so every load
// reads what it read before; a staged element is one that a result of the
// same block reads in the same iteration.
//
//===----------------------------------------------------------------------===//

#include "ContractionTiling.h"
#include "WarpFragments.h"
#include "Families.h"

#include "../RewriteAnalysis.h"

#include "autoprof/Analysis/MemoryAccess.h"
#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::rewrites;

/// Iterations per stage: 16 for the threads' own products; 32 (two steps
/// of the tensor cores per pair of barriers) for mma-tile, whose loads that
/// walk the loop are staged with a row of iterations per element
/// (isElementMajor), so that deeper stages make longer rows rather than
/// more of them. (On an H200, stages of 64 for mma-tile=64 took 255.8 us on
/// a 2048^3 f16 matmul against 236.2 us at 16, when the row tile was staged
/// with a row per iteration: its staging stores met 6.5 times the shared
/// bank conflicts.)
static int64_t getDepth(bool tensorCores) { return tensorCores ? 32 : 16; }

/// T: threads of a new block along x and y for an S x S tile of results:
/// 8 for S = 32 (4 x 4 results per thread, as at S = 64), else 16.
static int64_t getThreads(int64_t s) { return s == 32 ? 8 : 16; }

/// G: how many neighbouring results a thread owns along each dimension of
/// an S x S tile of results (also the padding of the tiles' rows).
static int64_t getGroupWidth(int64_t s) {
  return std::min<int64_t>(s / getThreads(s), 4);
}

/// Elements that pad each row of a staged tile: G, or 8 halves for the
/// tensor cores' loads (rows of a multiple of 16 bytes).
static int64_t getTilePadding(int64_t s, bool tensorCores) {
  return tensorCores ? 8 : getGroupWidth(s);
}

/// Whether `staged`'s tile holds a row per result element, a stage's
/// iterations contiguous (S x (32 + 8)), instead of a row per iteration
/// (depth x (S + padding)): for the tensor cores, the loads that walk the loop (A[i][k] of
/// a row-major A). Their copies then store as they load, neighbouring
/// iterations into neighbouring elements (vector stores), and the fragments
/// are loaded without a transpose. The threads' own loads (contraction-tile)
/// read a row of a stage's elements per iteration, so their tiles keep a
/// row per iteration.
static bool isElementMajor(const StagedLoad &staged, bool tensorCores) {
  return tensorCores && staged.alongLoop;
}

/// How mma-tile=S arranges the eight warps of a block over its S x S
/// results: a grid of warps, each summing a `rows` x `columns` part of the
/// tile in 16 x 16 fragments. S = 64: 4 x 2 warps of 16 x 32; S = 128: 2 x
/// 4 warps of 64 x 32, eight fragments each, so that each fragment of the
/// row tile a warp loads serves two products and each of the column tile
/// four (at S = 64, one and two).
struct WarpTiling {
  int64_t gridColumns, rows, columns;
  int64_t rowFragments() const { return rows / 16; }
  int64_t columnFragments() const { return columns / 16; }
};
static WarpTiling getWarpTiling(int64_t s) {
  return s == 64 ? WarpTiling{2, 16, 32} : WarpTiling{4, 64, 32};
}

/// Rows of the shared tile that takes the tensor cores' sums to the threads
/// that own them: 32, in S / 32 passes (17 KiB at S = 128 instead of 66,
/// which leaves the staged tiles room under the 48 KiB of static shared
/// memory), or 16 where the staged tiles have two buffers at S = 128 (8
/// KiB next to their 37). A thread's results of one row index r lie in
/// rows 16 r .. 16 r + 15 of the tile (getResultRow), one pass.
static int64_t getSumsRows(int64_t s, bool doubleBuffered) {
  return doubleBuffered && s >= 128 ? 16 : 32;
}

/// `indices` of a staged tile, in its buffer `buffer` where that is not
/// null (a tile of two buffers is buffer x rows x columns).
static SmallVector<Value> inBuffer(Value buffer, ArrayRef<Value> indices) {
  SmallVector<Value> all;
  if (buffer)
    all.push_back(buffer);
  llvm::append_range(all, indices);
  return all;
}

/// Why the loop of `plan` cannot run on tensor cores (mma-tile), or
/// nothing: its body must add to the value it carries the product of a
/// staged row element and a staged column element, both halves widened to
/// f32 (each such product is exact in f32; the tensor cores add them in
/// another order, accumulating in f32), and compute nothing else but the
/// loads' indices.
static std::optional<std::string> checkTensorCores(ContractionPlan &plan) {
  // (The tile's size and that the staged elements are f16 or bf16 are
  // checked where the parameter and the staged loads are.)
  if (plan.staged.size() != 2 || plan.staged[0].row == plan.staged[1].row)
    return std::string("the loop does not load exactly one row element and "
                       "one column element per iteration");
  if (plan.staged[0].load.getResult().getType() !=
      plan.staged[1].load.getResult().getType())
    return std::string("the row and column elements are of different types "
                       "(the tensor cores multiply two of f16 or of bf16)");
  scf::ForOp innermost = plan.nest.empty() ? plan.loop : plan.nest.back();
  if (plan.loop.getNumRegionIterArgs() != 1 ||
      !innermost.getRegionIterArgs().front().getType().isF32())
    return std::string("the loop does not carry one f32 sum");
  Value carried = innermost.getRegionIterArgs().front();
  auto yield = cast<scf::YieldOp>(innermost.getBody()->getTerminator());
  auto sum = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  arith::MulFOp product;
  if (sum && sum.getLhs() == carried)
    product = sum.getRhs().getDefiningOp<arith::MulFOp>();
  else if (sum && sum.getRhs() == carried)
    product = sum.getLhs().getDefiningOp<arith::MulFOp>();
  auto widened = [&](Value value) -> Operation * {
    auto ext = value.getDefiningOp<arith::ExtFOp>();
    return ext ? ext.getIn().getDefiningOp() : nullptr;
  };
  Operation *lhs = product ? widened(product.getLhs()) : nullptr;
  Operation *rhs = product ? widened(product.getRhs()) : nullptr;
  Operation *row =
      plan.staged[0].row ? plan.staged[0].load : plan.staged[1].load;
  Operation *column =
      plan.staged[0].row ? plan.staged[1].load : plan.staged[0].load;
  if (!lhs || !rhs ||
      !((lhs == row && rhs == column) || (lhs == column && rhs == row)))
    return std::string("the loop's body is not sum + f32(row) * f32(column)");
  for (Operation &op : innermost.getBody()->without_terminator()) {
    if (&op == sum || &op == product || &op == row || &op == column ||
        op.getUsers().empty())
      continue;
    if (isa<arith::ExtFOp>(op) &&
        llvm::all_of(op.getUsers(),
                     [&](Operation *u) { return u == product.getOperation(); }))
      continue;
    if (!llvm::all_of(op.getResultTypes(),
                      [](Type type) { return type.isIntOrIndex(); }))
      return "the loop's body computes more than the product and its sum ('" +
             op.getName().getStringRef().str() + "')";
  }
  return std::nullopt;
}

/// Resident blocks per SM that contraction-tile=S asks ptxas for
/// (nvvm.minctasm), a register budget per thread: 255 registers for the 64
/// results per thread of S = 128, 128 for the 16 of S = 32 and 64, 64 for
/// the one of S = 16; on tensor cores 128 at S = 64 and 128, but 255 at
/// S = 128 where edge tiles or a partial last stage clamp the staged
/// indices (`edges`): ptxas spilled 372 bytes in the loop of a 208 x 336 x
/// 72 f16 matmul at 128 registers, none at 193.
static int64_t getResidentBlocks(const GpuTarget &gpu, int64_t s,
                                 bool tensorCores, bool edges) {
  int64_t threads = getThreads(s) * getThreads(s);
  // The tensor cores hold a thread's sums in fragments (64 registers for
  // the eight of S = 128) and its results' values only after the loop: 128
  // registers, two blocks.
  int64_t registers = tensorCores ? (s >= 128 && edges ? 255 : 128)
                      : s >= 128  ? 255
                      : s >= 32   ? 128
                                  : 64;
  return std::max<int64_t>(1,
                           gpu.registersPerMultiprocessor / (threads * registers));
}

/// The share of the FMA pipe's peak an SM sustains running S x S tiles of
/// results, measured on an H200 (sm__pipe_fma_cycles_active of a 2048^3
/// f32 matmul tiled at each size, docs/results/optimize-upstream-h200.md,
/// "Tile sizes from a model of the waves"): more results per thread take
/// fewer shared loads and instructions per multiply-add. S = 16 reads two
/// shared elements per multiply-add.
static double getSustainedShare(int64_t s) {
  switch (s) {
  case 16:
    return 0.2;
  case 32:
    return 0.42;
  case 64:
    return 0.49;
  default:
    return 0.67;
  }
}

/// The time, in units of one result's multiply-adds on one SM at the FMA
/// peak, that S x S tiles take for `results` results on `multiprocessors`
/// SMs: the blocks (one per tile) spread over the SMs, the most loaded SM
/// runs ceil(blocks / SMs) of them, each S^2 results at the share of the
/// peak its size sustains. Small problems favour small tiles (a 768^3
/// matmul: 144 blocks of S = 64 leave most SMs one block and twelve two),
/// large ones the reuse of large tiles; on an H200 the ordering it gives
/// matched the measured one on 768^3 and 2048^3 matmuls (the section of
/// docs/results/optimize-upstream-h200.md named above).
static double getTileCost(int64_t s, double results, double multiprocessors) {
  double blocks = std::max(1.0, std::ceil(results / double(s * s)));
  return std::ceil(blocks / multiprocessors) * double(s * s) /
         getSustainedShare(s);
}

/// Lets a float multiply and the add of its product fuse (the `contract`
/// fast-math flag on `op` when it is a float operation that has flags).
static void allowContraction(RewriterBase &rewriter, Operation *op) {
  auto fastMath = dyn_cast<arith::ArithFastMathInterface>(op);
  if (!fastMath || !isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(op))
    return;
  arith::FastMathFlags flags = arith::FastMathFlags::contract;
  if (arith::FastMathFlagsAttr existing = fastMath.getFastMathFlagsAttr())
    flags = flags | existing.getValue();
  rewriter.modifyOpInPlace(op, [&] {
    op->setAttr(fastMath.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(op->getContext(), flags));
  });
}

/// Position, along a dimension of the S x S tile, of the `i`-th result of
/// a thread past G times its id along it: groups of G neighbours, T G
/// apart.
static int64_t getResultOffset(int64_t s, int64_t i) {
  int64_t group = getGroupWidth(s);
  return (i / group) * getThreads(s) * group + i % group;
}

/// Whether `value` may differ between threads or depends on memory: its
/// backward slice reaches a geometry operation, an operation with effects
/// or regions, or a value a region defines.
static bool dependsOnThreadsOrMemory(Value value) {
  SmallVector<Value> work = {value};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value current = work.pop_back_val();
    Operation *def = current.getDefiningOp();
    if (!def) {
      if (!isa<gpu::GPUFuncOp>(
              cast<BlockArgument>(current).getOwner()->getParentOp()))
        return true;
      continue;
    }
    if (!seen.insert(def).second)
      continue;
    if (isGeometryOp(def) || !isMemoryEffectFree(def) ||
        def->getNumRegions() != 0)
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// The loops of `carrying` as one perfect nest, outermost first: each
/// loop's body is the next loop and the yield of its results, the next loop
/// starts from what this one carries, and every loop counts from 0 by 1 to
/// a constant. Fails otherwise.
static FailureOr<SmallVector<scf::ForOp>>
matchPerfectNest(ArrayRef<scf::ForOp> carrying) {
  scf::ForOp outermost;
  for (scf::ForOp loop : carrying)
    if (!llvm::any_of(carrying, [&](scf::ForOp other) {
          return other != loop && other->isProperAncestor(loop);
        }))
      outermost = loop;
  SmallVector<scf::ForOp> nest;
  for (scf::ForOp loop = outermost; loop;) {
    std::optional<int64_t> lower = getConstant(loop.getLowerBound()),
                           upper = getConstant(loop.getUpperBound()),
                           step = getConstant(loop.getStep());
    if (!lower || *lower != 0 || !step || *step != 1 || !upper || *upper < 1 ||
        !loop.getInductionVar().getType().isIndex() || loop.getUnsignedCmp())
      return failure();
    nest.push_back(loop);
    Block *body = loop.getBody();
    auto inner = dyn_cast<scf::ForOp>(&body->front());
    if (!inner || inner.getNumRegionIterArgs() == 0)
      break;
    if (&*std::next(body->begin()) != body->getTerminator() ||
        !llvm::equal(inner.getInitArgs(), loop.getRegionIterArgs()) ||
        !llvm::equal(body->getTerminator()->getOperands(), inner.getResults()))
      return failure();
    loop = inner;
  }
  if (nest.size() != carrying.size())
    return failure();
  return nest;
}

/// Why the operations of `block` before `end` (all of them when null) could
/// write memory or hold regions, or nothing.
static std::optional<std::string> checkReadOnly(Block &block, Operation *end) {
  for (Operation &op : block) {
    if (&op == end || op.hasTrait<OpTrait::IsTerminator>())
      break;
    if (op.getNumRegions() != 0)
      return "the code before the loop has a region ('" +
             op.getName().getStringRef().str() + "')";
    if (!isMemoryEffectFree(&op) && !isa<memref::LoadOp>(op))
      return "the code before the loop may write memory ('" +
             op.getName().getStringRef().str() + "')";
  }
  return std::nullopt;
}

/// The dimension whose global index `value` is (block id x block size +
/// thread id along one dimension, in any spelling the affine form of the
/// access analysis sees through; the block id alone where blocks have one
/// thread, the thread id alone where the grid has one block), or nothing.
static std::optional<int>
getGlobalIndexDim(MemoryAccessAnalysis &analysis, Value value,
                  const std::array<int64_t, 3> &grid,
                  const std::array<int64_t, 3> &block) {
  std::optional<AffineIndex> form = analysis.express(value);
  if (!form || form->constant != 0 || form->terms.empty())
    return std::nullopt;
  std::optional<int> dim;
  bool thread = false, blocks = false;
  for (auto [atomIndex, coefficient] : form->terms) {
    const IndexAtom &atom = analysis.getAtoms()[atomIndex];
    if (atom.kind != IndexAtomKind::ThreadId &&
        atom.kind != IndexAtomKind::BlockId)
      return std::nullopt;
    int d = static_cast<int>(atom.dim);
    if (dim && *dim != d)
      return std::nullopt;
    dim = d;
    if (atom.kind == IndexAtomKind::ThreadId) {
      if (coefficient != 1)
        return std::nullopt;
      thread = true;
    } else {
      if (coefficient != block[d])
        return std::nullopt;
      blocks = true;
    }
  }
  if ((!thread && block[*dim] != 1) || (!blocks && grid[*dim] != 1))
    return std::nullopt;
  return dim;
}

/// Whether `condition` is a conjunction of bounds on global indices, as a
/// thread remap's guard (threads past the original problem skip the body):
/// each `index < N` narrows `extents` along the index's dimension.
static bool matchBoundsGuard(MemoryAccessAnalysis &analysis, Value condition,
                             const std::array<int64_t, 3> &grid,
                             const std::array<int64_t, 3> &block,
                             std::array<int64_t, 3> &extents) {
  if (auto both = condition.getDefiningOp<arith::AndIOp>())
    return matchBoundsGuard(analysis, both.getLhs(), grid, block, extents) &&
           matchBoundsGuard(analysis, both.getRhs(), grid, block, extents);
  auto compare = condition.getDefiningOp<arith::CmpIOp>();
  if (!compare)
    return false;
  Value index = compare.getLhs(), bound = compare.getRhs();
  arith::CmpIPredicate predicate = compare.getPredicate();
  if (predicate == arith::CmpIPredicate::ugt ||
      predicate == arith::CmpIPredicate::sgt) {
    // N > index.
    std::swap(index, bound);
    predicate = predicate == arith::CmpIPredicate::ugt
                    ? arith::CmpIPredicate::ult
                    : arith::CmpIPredicate::slt;
  }
  std::optional<int64_t> limit = getConstant(bound);
  std::optional<int> d = getGlobalIndexDim(analysis, index, grid, block);
  if (!limit || !d || *limit < 1 ||
      (predicate != arith::CmpIPredicate::ult &&
       predicate != arith::CmpIPredicate::slt))
    return false;
  extents[*d] = std::min(extents[*d], *limit);
  return true;
}

/// Folds `plan.nest` into its outermost loop (upstream's coalesceLoops:
/// one loop over the product of the trip counts, the original iteration
/// variables recomputed from it by division), with the recomputation in
/// arith operations the access analysis and the staging copies read.
/// Loads keep their operations, so `plan.staged` stays valid.
static LogicalResult foldNest(RewriterBase &rewriter, ContractionPlan &plan) {
  scf::ForOp outermost = plan.nest.front();
  if (failed(coalesceLoops(rewriter, plan.nest)))
    return failure();
  SmallVector<affine::AffineDelinearizeIndexOp> delinearized;
  outermost.getBody()->walk(
      [&](affine::AffineDelinearizeIndexOp op) { delinearized.push_back(op); });
  for (affine::AffineDelinearizeIndexOp op : delinearized) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    if (failed(affine::lowerAffineDelinearizeIndexOp(rewriter, op)))
      return failure();
  }
  plan.loop = outermost;
  plan.nest.clear();
  return success();
}

FailureOr<ContractionPlan>
ContractionTilingFamily::matchPlan(const RewriteTarget &target, int64_t s,
                                   std::string &why) const {
  gpu::GPUFuncOp kernel = target.kernel;
  ContractionPlan plan;
  if (std::optional<std::string> reason =
          checkRemappable(kernel, target.launches, plan.grid, plan.block)) {
    why = *reason;
    return failure();
  }
  Block &body = kernel.getBody().front();
  SmallVector<scf::ForOp> carrying;
  kernel.walk([&](scf::ForOp loop) {
    if (loop.getNumRegionIterArgs() != 0)
      carrying.push_back(loop);
  });
  // Several loops that carry values: a perfect nest (each loop's body is
  // the next loop and the yield of its results, each loop starts from
  // what the enclosing one carries) folds into one loop, the window
  // loops of a convolution into its reduction (an implicit GEMM).
  if (carrying.size() > 1) {
    FailureOr<SmallVector<scf::ForOp>> nest = matchPerfectNest(carrying);
    if (failed(nest)) {
      why = "the loops that carry values are not one perfect nest of "
            "loops from 0 with step 1 and constant bounds (a "
            "convolution's window folds into one loop only then)";
      return failure();
    }
    plan.nest = std::move(*nest);
    carrying = {plan.nest.front()};
  }
  if (carrying.empty()) {
    why = "the kernel does not have exactly one loop that carries values "
          "(register-accumulate makes one of C[i][j] += ...)";
    return failure();
  }
  plan.loop = carrying.front();
  for (int d = 0; d < 3; ++d)
    plan.extents[d] = plan.grid[d] * plan.block[d];
  Block *home = plan.loop->getBlock();
  MemoryAccessAnalysis analysis(kernel, plan.block);
  // A remap's bounds check around the loop: the results run over the
  // indices it lets through, and it holds for every one of them.
  Operation *inHome = plan.loop;
  std::array<int64_t, 3> bounded = plan.extents;
  if (auto guard = dyn_cast<scf::IfOp>(plan.loop->getParentOp());
      guard && guard.getNumResults() == 0 && !guard.elseBlock() &&
      matchBoundsGuard(analysis, guard.getCondition(), plan.grid, plan.block,
                       bounded)) {
    plan.extents = bounded;
    plan.guard = guard;
    inHome = guard;
    home = guard->getBlock();
  }
  Block *fallback = nullptr;
  if (home != &body) {
    auto ifOp = dyn_cast<scf::IfOp>(home->getParentOp());
    if (!ifOp || ifOp->getBlock() != &body || home != ifOp.thenBlock() ||
        ifOp.getNumResults() != 0) {
      why = "the loop is neither in the kernel's body nor in the first "
            "branch of a condition there";
      return failure();
    }
    if (dependsOnThreadsOrMemory(ifOp.getCondition())) {
      why = "the condition around the loop may differ between threads "
            "(every thread of a block must reach the barriers)";
      return failure();
    }
    plan.versioned = ifOp;
    fallback = ifOp.elseBlock();
  }
  // The threads the check skips must do nothing else: it is the last
  // operation of its block, the condition around it (if any) the last of
  // the kernel's, and a versioned loop's second branch runs under the same
  // check.
  if (plan.guard) {
    auto lastOfItsBlock = [](Operation *op) {
      return op->getNextNode() == op->getBlock()->getTerminator();
    };
    if (!lastOfItsBlock(plan.guard) ||
        (plan.versioned && !lastOfItsBlock(plan.versioned))) {
      why = "code after the bounds check around the loop runs for the "
            "threads it skips";
      return failure();
    }
    if (fallback) {
      auto other =
          dyn_cast_or_null<scf::IfOp>(fallback->getTerminator()->getPrevNode());
      std::array<int64_t, 3> otherExtents;
      for (int d = 0; d < 3; ++d)
        otherExtents[d] = plan.grid[d] * plan.block[d];
      if (!other || other.getNumResults() != 0 || other.elseBlock() ||
          !matchBoundsGuard(analysis, other.getCondition(), plan.grid,
                            plan.block, otherExtents) ||
          otherExtents != plan.extents || checkReadOnly(*fallback, other)) {
        why = "the second branch of the condition around the loop is not "
              "under the same bounds check";
        return failure();
      }
    }
  }
  Block *guarded = plan.guard ? plan.guard.thenBlock() : nullptr;
  std::optional<std::string> nested;
  kernel.walk([&](Operation *op) {
    Block *block = op->getBlock();
    if (!nested && isGeometryOp(op) && block != &body && block != home &&
        block != fallback && block != guarded)
      nested = std::string("a thread or block id is read inside a loop "
                           "or a nested branch");
  });
  if (nested) {
    why = *nested;
    return failure();
  }
  if (std::optional<std::string> reason = checkReadOnly(
          body, plan.versioned ? plan.versioned.getOperation() : inHome)) {
    why = *reason;
    return failure();
  }
  if (plan.versioned)
    if (std::optional<std::string> reason = checkReadOnly(*home, inHome)) {
      why = *reason;
      return failure();
    }
  if (plan.guard)
    if (std::optional<std::string> reason =
            checkReadOnly(*guarded, plan.loop)) {
      why = *reason;
      return failure();
    }

  std::optional<int64_t> lower = getConstant(plan.loop.getLowerBound()),
                         upper = getConstant(plan.loop.getUpperBound()),
                         step = getConstant(plan.loop.getStep());
  if (!lower || !upper || !step || *step <= 0) {
    why = "the loop's bounds are not constants with a positive step";
    return failure();
  }
  if (!plan.loop.getInductionVar().getType().isIndex() ||
      plan.loop.getUnsignedCmp()) {
    why = "the loop does not count in signed indices";
    return failure();
  }
  if (std::abs(*lower) > (int64_t(1) << 40) ||
      std::abs(*upper) > (int64_t(1) << 40) || *step > (int64_t(1) << 40)) {
    why = "the loop's bounds are too large to tile";
    return failure();
  }
  plan.lower = *lower;
  plan.step = *step;
  plan.trips = *upper > *lower ? (*upper - *lower + *step - 1) / *step : 0;
  // The folded nest runs the product of the trip counts from 0.
  for (scf::ForOp inner : plan.nest.empty()
                              ? ArrayRef<scf::ForOp>()
                              : ArrayRef<scf::ForOp>(plan.nest).drop_front()) {
    std::optional<int64_t> innerTrips = getConstant(inner.getUpperBound());
    if (plan.trips > (int64_t(1) << 40) / std::max<int64_t>(*innerTrips, 1)) {
      why = "the loops' trip counts are too large to fold and tile";
      return failure();
    }
    plan.trips *= *innerTrips;
  }
  if (plan.trips < 1) {
    why = "the loop runs no iteration";
    return failure();
  }

  SmallVector<memref::LoadOp> loads;
  scf::ForOp innermost = plan.nest.empty() ? plan.loop : plan.nest.back();
  for (Operation &op : innermost.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0) {
      why = "the loop's body holds a region ('" +
            op.getName().getStringRef().str() +
            "'): the contraction runs over several loops";
      return failure();
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      auto buffer = dyn_cast<BlockArgument>(load.getMemRef());
      if (!buffer || buffer.getOwner() != &body) {
        why = "a load of the loop does not read a buffer the kernel is "
              "passed";
        return failure();
      }
      loads.push_back(load);
      continue;
    }
    if (!isMemoryEffectFree(&op)) {
      why = "the loop's body may write memory ('" +
            op.getName().getStringRef().str() + "')";
      return failure();
    }
  }

  const std::array<int64_t, 3> &totals = plan.extents;
  // Which loads walk the loop one element per iteration (their copying
  // lanes then run along it). A folded nest's iteration f = sum_l i_l
  // x (the trip counts of the loops inside l) reaches the addresses
  // through divisions; an address c_l i_l + ... walks f with stride c
  // where each c_l is c times the trip counts inside l (a convolution's
  // weights, w[f][c][ky][kx], along (c, ky, kx)).
  SmallVector<std::optional<unsigned>> ivAtoms;
  SmallVector<int64_t> inner;
  for (scf::ForOp loop : plan.nest.empty() ? ArrayRef<scf::ForOp>(plan.loop)
                                           : ArrayRef<scf::ForOp>(plan.nest)) {
    std::optional<unsigned> found;
    for (auto [index, atom] : llvm::enumerate(analysis.getAtoms()))
      if (atom.value == loop.getInductionVar())
        found = index;
    ivAtoms.push_back(found);
  }
  int64_t span = 1;
  for (scf::ForOp loop : llvm::reverse(plan.nest)) {
    inner.insert(inner.begin(), span);
    span *= *getConstant(loop.getUpperBound());
  }
  auto strideAlongLoop = [&](const AffineIndex &address) -> int64_t {
    if (plan.nest.empty())
      return ivAtoms.front() ? address.coefficientOf(*ivAtoms.front()) : 0;
    std::optional<unsigned> innermostAtom = ivAtoms.back();
    int64_t stride = innermostAtom ? address.coefficientOf(*innermostAtom) : 0;
    for (auto [atom, factor] : llvm::zip(ivAtoms, inner))
      if ((atom ? address.coefficientOf(*atom) : 0) != stride * factor)
        return 0;
    return stride;
  };
  // Per load: the dimensions it moves with and its stride along the loop.
  SmallVector<std::array<bool, 3>> moves;
  SmallVector<int64_t> loopStrides;
  for (memref::LoadOp load : loads) {
    const MemoryAccess *access = nullptr;
    for (const MemoryAccess &candidate : analysis.getAccesses())
      if (candidate.op == load)
        access = &candidate;
    if (!access || !access->address || !access->threadAffine) {
      why = "the analysis does not express the address of a load of the "
            "loop as an affine form of the thread and block ids" +
            (access && !access->unknownReason.empty()
                 ? " (" + access->unknownReason + ")"
                 : std::string());
      return failure();
    }
    SmallVector<Operation *> slice = getGeometrySlice(load, nullptr);
    slice.push_back(load);
    for (Operation *op : slice)
      for (Value operand : op->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand);
            arg &&
            llvm::any_of(plan.nest.empty() ? ArrayRef<scf::ForOp>(plan.loop)
                                           : ArrayRef<scf::ForOp>(plan.nest),
                         [&](scf::ForOp loop) {
                           return arg.getOwner() == loop.getBody() &&
                                  arg != loop.getInductionVar();
                         })) {
          why = "the address of a load depends on a value the loop "
                "carries";
          return failure();
        }
    std::array<bool, 3> moving;
    for (int d = 0; d < 3; ++d)
      moving[d] = totals[d] > 1 &&
                  (access->threadStride[d] != 0 || access->blockStride[d] != 0);
    moves.push_back(moving);
    loopStrides.push_back(strideAlongLoop(*access->address));
  }

  // The result dimensions: each load moves with at most one of them, and
  // each of them with at least one load. Columns go along x; prefer the
  // one along which a store after the loop walks contiguous memory.
  std::optional<int> storeContiguous;
  for (const MemoryAccess &access : analysis.getAccesses())
    if (access.writes && access.threadAffine &&
        !plan.loop->isAncestor(access.op))
      for (int d = 0; d < 3; ++d)
        if (totals[d] > 1 && plan.block[d] > 1 &&
            (access.threadStride[d] == 1 || access.threadStride[d] == -1))
          storeContiguous = d;
  std::optional<std::pair<int, int>> chosen;
  for (int q = 0; q < 3; ++q)
    for (int p = 0; p < 3; ++p) {
      if (p == q || totals[p] < 2 || totals[q] < 2)
        continue;
      bool rows = false, columns = false, valid = true;
      for (const std::array<bool, 3> &moving : moves) {
        if (moving[p] && moving[q])
          valid = false;
        rows |= moving[p];
        columns |= moving[q];
      }
      if (!valid || !rows || !columns)
        continue;
      if (!chosen || (storeContiguous && q == *storeContiguous &&
                      chosen->second != *storeContiguous))
        chosen = {p, q};
    }
  // Columns over two dimensions, preferred where they apply: rows move
  // with neither, some column load with both (the column loads of the
  // pair above move with its third dimension). The inner one is the one
  // along which the stores walk memory faster.
  std::optional<std::pair<int, int>> merged;
  for (int p = 0; p < 3 && !merged; ++p) {
    int q = (p + 1) % 3, o = (p + 2) % 3;
    if (totals[p] < 2 || totals[q] < 2 || totals[o] < 2)
      continue;
    bool rows = false, both = false, valid = true;
    for (const std::array<bool, 3> &moving : moves) {
      if (moving[p] && (moving[q] || moving[o]))
        valid = false;
      rows |= moving[p];
      both |= moving[q] && moving[o];
    }
    if (!valid || !rows || !both)
      continue;
    std::array<int64_t, 3> strides = {0, 0, 0};
    for (const MemoryAccess &access : analysis.getAccesses())
      if (access.writes && access.threadAffine &&
          !plan.loop->isAncestor(access.op))
        for (int d = 0; d < 3; ++d)
          strides[d] = std::abs(plan.block[d] > 1 ? access.threadStride[d]
                                                  : access.blockStride[d]);
    if (strides[o] != 0 && (strides[q] == 0 || strides[o] < strides[q]))
      std::swap(q, o);
    merged = {p, q};
    chosen = merged;
  }
  if (!chosen) {
    why = "no two thread dimensions split the loop's loads into ones that "
          "only the first moves and ones that only the second moves (the "
          "rows and columns of a contraction)";
    return failure();
  }
  plan.rowDim = chosen->first;
  plan.columnDim = chosen->second;
  plan.batchDim = 3 - plan.rowDim - plan.columnDim;
  plan.mergedColumns = merged.has_value();
  int64_t columns =
      totals[plan.columnDim] * (plan.mergedColumns ? totals[plan.batchDim] : 1);
  int64_t sharedBytes = 0;
  for (auto [load, moving, stride] : llvm::zip(loads, moves, loopStrides)) {
    bool column =
        moving[plan.columnDim] || (plan.mergedColumns && moving[plan.batchDim]);
    if (!moving[plan.rowDim] && !column)
      continue;
    int64_t perIteration = stride * plan.step;
    plan.staged.push_back(
        {load, moving[plan.rowDim], perIteration == 1 || perIteration == -1});
    Type element = load.getResult().getType();
    if (usesTensorCores() && !isTensorCoreElement(element)) {
      why = "the staged elements are not f16 or bf16 (the tensor cores "
            "multiply halves here)";
      return failure();
    }
    if (!element.isIntOrFloat()) {
      why = "a staged load reads elements of type other than an integer "
            "or a float";
      return failure();
    }
    sharedBytes +=
        (isElementMajor(plan.staged.back(), usesTensorCores())
             ? s * (getDepth(true) + getTilePadding(s, true))
             : getDepth(usesTensorCores()) *
                   (s + getTilePadding(s, usesTensorCores()))) *
        ((element.getIntOrFloatBitWidth() + 7) / 8);
  }
  // The tensor cores' results go through a shared tile of f32 to the
  // threads that own them.
  plan.doubleBuffered = stagesInTwoBuffers();
  plan.sumsRows = getSumsRows(s, plan.doubleBuffered);
  sharedBytes = (plan.doubleBuffered ? 2 : 1) * sharedBytes +
                (usesTensorCores() ? plan.sumsRows * (s + 4) * 4 : 0);
  // Edge tiles past the results compute clamped copies of the last row
  // or column and store nothing; a tile larger than a whole dimension
  // would mostly compute such copies.
  for (int64_t size : {totals[plan.rowDim], columns})
    if (size < s) {
      why = "the result dimensions (" + std::to_string(totals[plan.rowDim]) +
            " x " + std::to_string(columns) +
            ") are smaller than the tile of " + std::to_string(s);
      return failure();
    }
  if (llvm::divideCeil(columns, s) > 2147483647 ||
      llvm::divideCeil(totals[plan.rowDim], s) > 65535 ||
      (!plan.mergedColumns && totals[plan.batchDim] > 65535)) {
    why = "the new grid would exceed the hardware's limits";
    return failure();
  }
  if (sharedBytes > target.gpu->staticSharedPerBlock) {
    why = std::string(plan.doubleBuffered ? "two buffers of the tiles"
                                          : "the tiles") +
          " would not fit in " +
          std::to_string(target.gpu->staticSharedPerBlock / 1024) +
          " KiB of shared memory (" + std::to_string(sharedBytes) + " bytes)";
    return failure();
  }
  std::string exact;
  plan.fuse = storesSumsOfProducts(kernel, exact);
  plan.tensorCores = usesTensorCores();
  if (plan.tensorCores)
    if (std::optional<std::string> reason = checkTensorCores(plan)) {
      why = *reason;
      return failure();
    }
  return plan;
}

LogicalResult ContractionTilingFamily::applyPlan(RewriterBase &rewriter,
                                                 const RewriteTarget &target,
                                                 int64_t s,
                                                 ContractionPlan &plan) const {
  gpu::GPUFuncOp kernel = target.kernel;
  Location loc = kernel.getLoc();
  if (!plan.nest.empty() && failed(foldNest(rewriter, plan)))
    return kernel.emitError("folding the loop nest of @")
           << kernel.getName() << " into one loop failed";
  MLIRContext *context = kernel.getContext();
  int p = plan.rowDim, q = plan.columnDim, b = plan.batchDim;
  int64_t threads = getThreads(s);
  int64_t per = s / threads, outputs = per * per;
  // Elements of a stage's tile each thread copies: 16 x S over T x T.
  int64_t kDepth = getDepth(plan.tensorCores);
  int64_t copied = kDepth * s / (threads * threads);
  int64_t group = getGroupWidth(s);
  const std::array<int64_t, 3> &totals = plan.extents;
  int64_t columns = totals[q] * (plan.mergedColumns ? totals[b] : 1);
  for (gpu::LaunchFuncOp launch : target.launches)
    setLaunchSizes(rewriter, launch,
                   {llvm::divideCeil(columns, s),
                    llvm::divideCeil(totals[p], s),
                    plan.mergedColumns ? 1 : totals[b]},
                   {threads, threads, 1});

  Block &body = kernel.getBody().front();
  SmallVector<Operation *> original;
  for (Operation &op : body.without_terminator())
    original.push_back(&op);
  SmallVector<Operation *> geometry;
  kernel.walk([&](Operation *op) {
    if (isGeometryOp(op))
      geometry.push_back(op);
  });
  SmallVector<Value> tiles;
  int64_t rowLength = s + getTilePadding(s, plan.tensorCores);
  // The vector loads of the tiles assume rows that start 16-byte aligned:
  // the row length is a multiple of G elements and the tile itself is
  // aligned; the tensor cores' loads, fragments at 32-byte boundaries.
  auto addTile = [&](ArrayRef<int64_t> shape, Type element) {
    auto type = MemRefType::get(
        shape, element, MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
    Value tile = kernel.addWorkgroupAttribution(type, loc);
    kernel.setWorkgroupAttributionAttr(
        kernel.getNumWorkgroupAttributions() - 1,
        rewriter.getStringAttr(LLVM::LLVMDialect::getAlignAttrName()),
        rewriter.getI64IntegerAttr(plan.tensorCores ? 32 : 16));
    return tile;
  };
  // Rows of an element-major tile: a stage's iterations and the padding.
  int64_t depthLength = kDepth + getTilePadding(s, plan.tensorCores);
  // With two buffers, a staged tile is buffer x rows x columns.
  for (StagedLoad &staged : plan.staged) {
    SmallVector<int64_t> shape = isElementMajor(staged, plan.tensorCores)
                                     ? SmallVector<int64_t>{s, depthLength}
                                     : SmallVector<int64_t>{kDepth, rowLength};
    if (plan.doubleBuffered)
      shape.insert(shape.begin(), 2);
    tiles.push_back(addTile(shape, staged.load.getResult().getType()));
  }
  // mma-tile: the block's S x S sums, from the tensor cores' fragments to
  // the threads that own the results.
  int64_t sumsLength = s + 4, sumsRows = plan.sumsRows;
  Value sums = plan.tensorCores
                   ? addTile({sumsRows, sumsLength}, rewriter.getF32Type())
                   : Value();

  rewriter.setInsertionPointToStart(&body);
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  auto add = [&](Value lhs, Value rhs) -> Value {
    return arith::AddIOp::create(rewriter, loc, lhs, rhs);
  };
  auto offset = [&](Value value, int64_t by) -> Value {
    return by == 0 ? value : add(value, index(by));
  };
  auto mul = [&](Value lhs, int64_t rhs) -> Value {
    return arith::MulIOp::create(rewriter, loc, lhs, index(rhs));
  };
  Value lane = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value row = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::y);
  Value columnBase =
      mul(gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::x), s);
  Value rowBase =
      mul(gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::y), s);
  Value batch = plan.mergedColumns
                    ? Value()
                    : gpu::BlockIdOp::create(rewriter, loc, gpu::Dimension::z);
  Value linear = add(mul(row, threads), lane);
  // Where S does not divide the rows (columns), the last tiles reach past
  // them: their row (column) indices are clamped to the last one, so that
  // every load reads what a result reads, and those results store
  // nothing.
  bool partialRows = totals[p] % s != 0, partialColumns = columns % s != 0;
  auto clamp = [&](Value value, int64_t size) -> Value {
    return arith::MinUIOp::create(rewriter, loc, value, index(size - 1));
  };
  // Whether result (row, column) is one of the kernel's (null: all are).
  auto insideOf = [&](Value rowIndex, Value column) -> Value {
    Value inside;
    if (partialRows)
      inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                     rowIndex, index(totals[p]));
    if (partialColumns) {
      Value within = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, column, index(columns));
      inside =
          inside
              ? arith::AndIOp::create(rewriter, loc, inside, within).getResult()
              : within;
    }
    return inside;
  };
  // The original global indices of result (row, column).
  // (`clamped`: the caller clamped the row or the column already.)
  auto globalOf = [&](Value rowIndex, Value column,
                      std::pair<bool, bool> clamped = {false, false}) {
    if (partialRows && !clamped.first)
      rowIndex = clamp(rowIndex, totals[p]);
    if (partialColumns && !clamped.second)
      column = clamp(column, columns);
    std::array<Value, 3> global;
    global[p] = rowIndex;
    if (plan.mergedColumns) {
      global[q] =
          arith::RemUIOp::create(rewriter, loc, column, index(totals[q]));
      global[b] =
          arith::DivUIOp::create(rewriter, loc, column, index(totals[q]));
    } else {
      global[q] = column;
      global[b] = batch;
    }
    return global;
  };

  // Result (r, c) of this thread: row rowBase + G row + offset(r), column
  // columnBase + G lane + offset(c), with the original ids of its thread.
  // On tensor cores, whose threads do not read the tiles, row rowBase + row
  // + T r: a thread's results of one r lie in T rows (one pass of the tile
  // of sums).
  Value rowFirst = group == 1 || plan.tensorCores ? row : mul(row, group);
  Value laneFirst = group == 1 ? lane : mul(lane, group);
  auto getResultRow = [&](int64_t r) {
    return plan.tensorCores ? r * threads : getResultOffset(s, r);
  };
  SmallVector<IRMapping> maps(outputs);
  SmallVector<Value> inside(outputs);
  for (int64_t r = 0; r < per; ++r)
    for (int64_t c = 0; c < per; ++c) {
      Value rowIndex = add(rowBase, offset(rowFirst, getResultRow(r)));
      Value column = add(columnBase, offset(laneFirst, getResultOffset(s, c)));
      inside[r * per + c] = insideOf(rowIndex, column);
      std::array<Value, 3> global = globalOf(rowIndex, column);
      mapGeometry(rewriter, loc, geometry, global, plan.grid, plan.block,
                  maps[r * per + c]);
    }
  // Copies `ops` once per result with its ids; operations that may write
  // (`checked`) run, for a result past the kernel's, under its bounds
  // check (values they define are used only in their own block, so none
  // escapes the check).
  auto clonePerResult = [&](ArrayRef<Operation *> ops, bool checked) {
    for (auto [mapping, condition] : llvm::zip(maps, inside)) {
      OpBuilder::InsertionGuard guard(rewriter);
      if (checked && condition) {
        auto ifOp = scf::IfOp::create(rewriter, loc, condition,
                                      /*withElseRegion=*/false);
        rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      }
      for (Operation *op : ops)
        if (!isGeometryOp(op) && !op->hasTrait<OpTrait::IsTerminator>())
          rewriter.clone(*op, mapping);
    }
  };
  // The operations of `block` before `end` and after `start` (in the
  // kernel's body: of the original ones).
  auto before = [](Block &block, Operation *end) {
    SmallVector<Operation *> ops;
    for (Operation &op : block) {
      if (&op == end)
        break;
      ops.push_back(&op);
    }
    return ops;
  };
  auto after = [](Operation *start) {
    SmallVector<Operation *> ops;
    for (Operation *op = start->getNextNode(); op; op = op->getNextNode())
      ops.push_back(op);
    return ops;
  };

  // The loop, or the bounds check around it, which every result passes
  // (the tiles cover the indices it lets through): the check goes, the
  // operations it guards stay.
  Operation *inHome =
      plan.guard ? plan.guard.getOperation() : plan.loop.getOperation();
  Operation *anchor = plan.versioned ? plan.versioned.getOperation() : inHome;
  clonePerResult(ArrayRef<Operation *>(original).take_until(
                     [&](Operation *op) { return op == anchor; }),
                 false);
  scf::IfOp versioned;
  if (plan.versioned) {
    Value condition =
        maps.front().lookupOrDefault(plan.versioned.getCondition());
    versioned = scf::IfOp::create(
        rewriter, loc, condition,
        /*withElseRegion=*/plan.versioned.elseBlock() != nullptr);
    rewriter.setInsertionPoint(versioned.thenBlock()->getTerminator());
    clonePerResult(before(*inHome->getBlock(), inHome), false);
  }
  if (plan.guard)
    clonePerResult(before(*plan.loop->getBlock(), plan.loop), false);

  // Where each thread copies the elements of a stage: element (k, e) of a
  // tile is the staged load at iteration first + k for the result row (or
  // column) base + e; thread t copies elements t, t + T^2, ...
  auto iterationValue = [&](Value iteration) -> Value {
    return add(index(plan.lower), mul(iteration, plan.step));
  };
  // A thread copies W neighbours along whichever of k and e the lanes run
  // along: 16 bytes of halves (W = 8) where every staged load reads f16 or
  // bf16, else W = 4 (16 bytes of f32), where its share of a tile and the
  // side's length are multiples of W; else 4 neighbours, else one. Unit u
  // = linear + c T^2 covers elements W (u mod (L/W)) .. + W - 1 along that
  // side (of length L) and u div (L/W) along the other, so that the W
  // loads of a unit read neighbouring addresses and merge into one 128-bit
  // load where the analysis proves them aligned.
  bool halves = llvm::all_of(plan.staged, [](StagedLoad &staged) {
    Type type = staged.load.getType();
    return type.isF16() || type.isBF16();
  });
  // Eight only where the edges clamp whole groups of eight (below), so
  // that they stay one load each.
  bool partialStage = plan.trips % kDepth != 0;
  auto copiesInGroupsOf = [&](int64_t w) {
    return copied % w == 0 && kDepth % w == 0 && s % w == 0;
  };
  auto edgesClampGroupsOf = [&](int64_t w) {
    return llvm::all_of(plan.staged, [&](StagedLoad &staged) {
      if (staged.alongLoop)
        return !partialStage || plan.trips % w == 0;
      if (staged.row)
        return !partialRows || totals[p] % w == 0;
      return !partialColumns || columns % w == 0;
    });
  };
  int64_t width = halves && copiesInGroupsOf(8) && edgesClampGroupsOf(8) ? 8
                  : copiesInGroupsOf(4)                                  ? 4
                                                                         : 1;
  SmallVector<std::pair<Value, Value>> copies; // (k, e) per staged load, m
  // The first of each copy's W neighbours and its place among them.
  SmallVector<std::pair<Value, int64_t>> neighbours;
  for (StagedLoad &staged : plan.staged)
    for (int64_t c = 0; c < copied / width; ++c) {
      Value unit = offset(linear, c * threads * threads);
      int64_t units = (staged.alongLoop ? kDepth : s) / width;
      Value along = arith::RemUIOp::create(rewriter, loc, unit, index(units));
      Value across = arith::DivUIOp::create(rewriter, loc, unit, index(units));
      if (width != 1)
        along = mul(along, width);
      for (int64_t j = 0; j < width; ++j) {
        Value neighbour = offset(along, j);
        copies.push_back(staged.alongLoop ? std::make_pair(neighbour, across)
                                          : std::make_pair(across, neighbour));
        neighbours.push_back({along, j});
      }
    }
  // Where a bound that W divides cuts the W neighbours of a copy, they are
  // clamped together: W (min((base + first) / W, bound / W - 1)) + j
  // instead of min(base + first + j, bound - 1) each, so that they stay
  // neighbours at an aligned offset (one vector load) and within the
  // bound; the results that read them past the bound store nothing, the
  // iterations past the loop are not computed (or are zeros).
  auto clampNeighbours = [&](Value base, int64_t j, int64_t bound) {
    Value groups = arith::DivUIOp::create(rewriter, loc, base, index(width));
    Value last = arith::MinUIOp::create(rewriter, loc, groups,
                                        index(bound / width - 1));
    return offset(mul(last, width), j);
  };
  // Loads this thread's elements of stage `stage` (iterations 16 stage
  // ..): where 16 divides the trip count the caller keeps the stage
  // within the loop (the prefetch after the last stage reads it again,
  // unused), otherwise each iteration is clamped to the last one. The
  // stage's first iteration is 16 times a value, so that the analysis
  // sees neighbouring loads at aligned offsets.
  int64_t stageCount = (plan.trips + kDepth - 1) / kDepth;
  bool wholeStages = plan.trips % kDepth == 0;
  auto fetch = [&](Value stage) {
    Value first = mul(stage, kDepth);
    SmallVector<Value> fetched;
    for (auto [n, staged] : llvm::enumerate(plan.staged))
      for (int64_t m = 0; m < copied; ++m) {
        auto [depth, position] = copies[n * copied + m];
        auto [base, j] = neighbours[n * copied + m];
        bool grouped = width > 1;
        Value iteration = add(first, depth);
        if (!wholeStages && staged.alongLoop && grouped &&
            plan.trips % width == 0)
          iteration = clampNeighbours(add(first, base), j, plan.trips);
        else if (!wholeStages)
          iteration = arith::MinUIOp::create(rewriter, loc, iteration,
                                             index(plan.trips - 1));
        Value rowIndex = staged.row ? add(rowBase, position) : rowBase;
        Value column = staged.row ? columnBase : add(columnBase, position);
        // The neighbours along the rows (columns) of a load that does not
        // walk the loop, where the edge tile cuts them.
        std::pair<bool, bool> clamped = {false, false};
        if (!staged.alongLoop && grouped && staged.row && partialRows &&
            totals[p] % width == 0) {
          rowIndex = clampNeighbours(add(rowBase, base), j, totals[p]);
          clamped.first = true;
        }
        if (!staged.alongLoop && grouped && !staged.row && partialColumns &&
            columns % width == 0) {
          column = clampNeighbours(add(columnBase, base), j, columns);
          clamped.second = true;
        }
        std::array<Value, 3> global = globalOf(rowIndex, column, clamped);
        IRMapping mapping;
        mapGeometry(rewriter, loc, geometry, global, plan.grid, plan.block,
                    mapping);
        mapping.map(plan.loop.getInductionVar(), iterationValue(iteration));
        for (Operation *op : getGeometrySlice(staged.load, nullptr))
          rewriter.clone(*op, mapping);
        Value element = rewriter.clone(*staged.load, mapping)->getResult(0);
        // The tensor cores run all 16 iterations of the last stage: those
        // past the loop's add products of zeros.
        if (plan.tensorCores && !wholeStages) {
          Value within =
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                    add(first, depth), index(plan.trips));
          Value zero = arith::ConstantOp::create(
              rewriter, loc, rewriter.getZeroAttr(element.getType()));
          element =
              arith::SelectOp::create(rewriter, loc, within, element, zero);
        }
        fetched.push_back(element);
      }
    return fetched;
  };

  // The stages: the accumulators and this thread's elements of the next
  // stage, loaded while the current one computes.
  unsigned carried = plan.loop.getNumRegionIterArgs();
  SmallVector<Value> inits;
  // mma-tile: each warp of the grid of warps sums its part of the tile
  // (getWarpTiling) in 16 x 16 fragments (WarpFragments.h), from zero;
  // fragment (i, j) is rows 16 i .. and columns 16 j .. of the part. A tile
  // with a row per element holds the row operand as A, the column operand
  // as B^T; one with a row per iteration A^T, B.
  WarpTiling warps = getWarpTiling(s);
  Value warpRow, warpColumn;
  std::unique_ptr<WarpFragments> fragments;
  Value rowTile, columnTile;
  if (plan.tensorCores) {
    bool rowStagedFirst = plan.staged.front().row;
    StagedLoad &rowStaged = plan.staged[rowStagedFirst ? 0 : 1];
    StagedLoad &columnStaged = plan.staged[rowStagedFirst ? 1 : 0];
    rowTile = rowStagedFirst ? tiles[0] : tiles[1];
    columnTile = rowStagedFirst ? tiles[1] : tiles[0];
    fragments = createWarpFragments(
        rewriter, loc, rowStaged.load.getResult().getType(), linear,
        isElementMajor(rowStaged, true), isElementMajor(columnStaged, true));
    Value warp = arith::DivUIOp::create(rewriter, loc, linear, index(32));
    warpRow = mul(
        arith::DivUIOp::create(rewriter, loc, warp, index(warps.gridColumns)),
        warps.rows);
    warpColumn = mul(
        arith::RemUIOp::create(rewriter, loc, warp, index(warps.gridColumns)),
        warps.columns);
    for (int64_t f = 0; f < warps.rowFragments() * warps.columnFragments();
         ++f)
      llvm::append_range(inits, fragments->createZeroSums(rewriter, loc));
  } else {
    for (IRMapping &mapping : maps)
      for (Value init : plan.loop.getInitArgs())
        inits.push_back(mapping.lookupOrDefault(init));
  }
  unsigned accumulators = inits.size();
  // Stores this thread's elements of a stage (`values`) into the tiles, into
  // buffer `buffer` where they have two.
  auto stash = [&](ValueRange values, Value buffer) {
    for (auto [n, staged] : llvm::enumerate(plan.staged))
      for (int64_t m = 0; m < copied; ++m) {
        auto [depth, position] = copies[n * copied + m];
        memref::StoreOp::create(rewriter, loc, values[n * copied + m], tiles[n],
                                isElementMajor(staged, plan.tensorCores)
                                    ? inBuffer(buffer, {position, depth})
                                    : inBuffer(buffer, {depth, position}));
      }
  };
  // With two buffers the first stage is in the first one before the loop;
  // with one, its elements enter the loop in registers.
  if (plan.doubleBuffered) {
    stash(fetch(index(0)), index(0));
    gpu::BarrierOp::create(rewriter, loc);
  } else {
    llvm::append_range(inits, fetch(index(0)));
  }
  auto stages = scf::ForOp::create(rewriter, loc, index(0), index(stageCount),
                                   index(1), inits);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(stages.getBody());
    Value stage = stages.getInductionVar();
    Value first = mul(stage, kDepth);
    // The next stage's loads, from the last stage's when there is none.
    auto fetchNext = [&]() {
      Value nextStage = add(stage, index(1));
      if (wholeStages)
        nextStage = arith::MinUIOp::create(rewriter, loc, nextStage,
                                           index(stageCount - 1));
      return fetch(nextStage);
    };
    // One buffer: this stage's elements go from registers to the tiles,
    // then the next stage's loads start. Two: the next stage's loads start,
    // this stage's products read buffer stage mod 2, then the next stage's
    // elements go to the other buffer (whose products all threads finished
    // before the last barrier).
    Value buffer, nextBuffer;
    SmallVector<Value> next;
    if (plan.doubleBuffered) {
      buffer = arith::RemUIOp::create(rewriter, loc, stage, index(2));
      nextBuffer = arith::SubIOp::create(rewriter, loc, index(1), buffer);
      next = fetchNext();
    } else {
      stash(stages.getRegionIterArgs().drop_front(accumulators), Value());
      gpu::BarrierOp::create(rewriter, loc);
      next = fetchNext();
    }
    SmallVector<Value> summed;
    if (plan.tensorCores) {
      // Steps of 16: the warp's rows of the row tile against its columns
      // of the column tile; the column fragments are loaded once per step,
      // the row fragments one at a time (fewer live registers).
      unsigned values = fragments->getSumValues();
      summed.assign(stages.getRegionIterArgs().begin(),
                    stages.getRegionIterArgs().begin() + accumulators);
      for (int64_t step = 0; step < kDepth; step += 16) {
        SmallVector<SmallVector<Value>> b;
        for (int64_t j = 0; j < warps.columnFragments(); ++j)
          b.push_back(fragments->loadColumns(rewriter, loc, columnTile, buffer,
                                             offset(warpColumn, 16 * j), step));
        for (int64_t i = 0; i < warps.rowFragments(); ++i) {
          SmallVector<Value> a = fragments->loadRows(
              rewriter, loc, rowTile, buffer, offset(warpRow, 16 * i), step);
          for (int64_t j = 0; j < warps.columnFragments(); ++j)
            fragments->multiplyAdd(
                rewriter, loc, a, b[j],
                MutableArrayRef<Value>(summed).slice(
                    (i * warps.columnFragments() + j) * values, values));
        }
      }
    } else {
      Value depthBound = index(kDepth);
      if (plan.trips % kDepth != 0)
        depthBound = arith::MinUIOp::create(
            rewriter, loc, depthBound,
            arith::SubIOp::create(rewriter, loc, index(plan.trips), first));
      auto inner = scf::ForOp::create(
          rewriter, loc, index(0), depthBound, index(1),
          stages.getRegionIterArgs().take_front(accumulators));
      {
        OpBuilder::InsertionGuard innerGuard(rewriter);
        rewriter.setInsertionPointToStart(inner.getBody());
        Value k = inner.getInductionVar();
        // The tiles' values this thread's results use: a vector load per
        // group of G neighbours.
        SmallVector<SmallVector<Value>> values;
        for (auto [staged, tile] : llvm::zip(plan.staged, tiles)) {
          SmallVector<Value> perIndex;
          Value first = staged.row ? rowFirst : laneFirst;
          Type element = staged.load.getResult().getType();
          unsigned bits = element.getIntOrFloatBitWidth();
          for (int64_t i = 0; i < per; i += group) {
            Value position = offset(first, getResultOffset(s, i));
            if (group == 1 || bits % 8 != 0) {
              for (int64_t j = 0; j < group; ++j)
                perIndex.push_back(memref::LoadOp::create(
                    rewriter, loc, tile,
                    inBuffer(buffer, {k, offset(position, j)})));
              continue;
            }
            Value vector = vector::LoadOp::create(
                rewriter, loc, VectorType::get({group}, element), tile,
                inBuffer(buffer, {k, position}), /*nontemporal=*/false,
                llvm::MaybeAlign(std::min<int64_t>(group * bits / 8, 16)));
            for (int64_t j = 0; j < group; ++j)
              perIndex.push_back(
                  vector::ExtractOp::create(rewriter, loc, vector, j));
          }
          values.push_back(perIndex);
        }
        Value iv = iterationValue(add(first, k));
        SmallVector<Value> yielded;
        for (int64_t r = 0; r < per; ++r)
          for (int64_t c = 0; c < per; ++c) {
            int64_t o = r * per + c;
            IRMapping mapping = maps[o];
            mapping.map(plan.loop.getInductionVar(), iv);
            for (unsigned i = 0; i < carried; ++i)
              mapping.map(plan.loop.getRegionIterArgs()[i],
                          inner.getRegionIterArgs()[o * carried + i]);
            for (auto [staged, perIndex] : llvm::zip(plan.staged, values))
              mapping.map(staged.load.getResult(),
                          perIndex[staged.row ? r : c]);
            for (Operation &op : plan.loop.getBody()->without_terminator())
              if (!llvm::any_of(plan.staged, [&](StagedLoad &staged) {
                    return staged.load == &op;
                  })) {
                Operation *copy = rewriter.clone(op, mapping);
                if (plan.fuse)
                  allowContraction(rewriter, copy);
              }
            for (Value value :
                 plan.loop.getBody()->getTerminator()->getOperands())
              yielded.push_back(mapping.lookupOrDefault(value));
          }
        scf::YieldOp::create(rewriter, loc, yielded);
        // The copies of the staged loads' address computations are unused.
        SmallVector<Operation *> innerOps;
        for (Operation &op : inner.getBody()->without_terminator())
          innerOps.push_back(&op);
        for (Operation *op : llvm::reverse(innerOps))
          if (isOpTriviallyDead(op))
            rewriter.eraseOp(op);
      }
      summed.assign(inner.getResults().begin(), inner.getResults().end());
    }
    if (plan.doubleBuffered)
      stash(next, nextBuffer);
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> yielded(summed);
    if (!plan.doubleBuffered)
      llvm::append_range(yielded, next);
    scf::YieldOp::create(rewriter, loc, yielded);
  }
  if (plan.tensorCores) {
    // Each result: its sum from the tile of sums, added to the loop's
    // initial value. The tile holds 32 rows of sums at a time: in pass t
    // each warp stores its fragments of rows 32 t .. 32 t + 31, and each
    // thread reads its results of those rows (those of row index r lie in
    // rows T r .. T r + T - 1: one pass, as T divides 32).
    assert(sumsRows % threads == 0 && "a row index's results in one pass");
    // The operations before the loop that compute its initial value, in
    // order (the geometry they read is mapped per result).
    SetVector<Operation *> initSlice;
    BackwardSliceOptions options;
    options.filter = [&](Operation *op) {
      return !isGeometryOp(op) && !plan.loop->isAncestor(op) &&
             kernel->isProperAncestor(op) && op->getNumRegions() == 0;
    };
    if (Operation *def = plan.loop.getInitArgs()[0].getDefiningOp();
        def && options.filter(def))
      (void)getBackwardSlice(def, &initSlice, options);
    if (Operation *def = plan.loop.getInitArgs()[0].getDefiningOp();
        def && options.filter(def))
      initSlice.insert(def);
    int64_t passes = s / sumsRows;
    for (int64_t pass = 0; pass < passes; ++pass) {
      if (pass > 0)
        gpu::BarrierOp::create(rewriter, loc);
      // Fragment i of a warp holds rows warpRow + 16 i .. + 15 (warpRow a
      // multiple of 16): in the pass of its first row, whether the warp
      // stores it is the same for all of its lanes.
      for (int64_t i = 0; i < warps.rowFragments(); ++i) {
        OpBuilder::InsertionGuard guard(rewriter);
        Value fragmentRow = offset(warpRow, 16 * i);
        Value fragmentPass =
            arith::DivUIOp::create(rewriter, loc, fragmentRow, index(sumsRows));
        Value mine = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, fragmentPass, index(pass));
        auto ifOp = scf::IfOp::create(rewriter, loc, mine,
                                      /*withElseRegion=*/false);
        rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        Value passRow = pass == 0 ? fragmentRow
                                  : arith::SubIOp::create(
                                        rewriter, loc, fragmentRow,
                                        index(pass * sumsRows))
                                        .getResult();
        unsigned values = fragments->getSumValues();
        for (int64_t j = 0; j < warps.columnFragments(); ++j)
          fragments->storeSums(
              rewriter, loc,
              stages.getResults().slice(
                  (i * warps.columnFragments() + j) * values, values),
              sums, passRow, offset(warpColumn, 16 * j));
      }
      gpu::BarrierOp::create(rewriter, loc);
      for (int64_t r = 0; r < per; ++r) {
        int64_t rowOffset = getResultRow(r);
        if (rowOffset / sumsRows != pass)
          continue;
        for (int64_t c = 0; c < per; ++c) {
          IRMapping &mapping = maps[r * per + c];
          Value sum = memref::LoadOp::create(
              rewriter, loc, sums,
              ValueRange{offset(rowFirst, rowOffset - pass * sumsRows),
                         offset(laneFirst, getResultOffset(s, c))});
          // The initial value computed again here (the code before the
          // loop only reads memory, and the loop writes none): held
          // through the loop, the 64 initial values of S = 128 would spill
          // next to the fragments.
          IRMapping late = mapping;
          for (Operation *op : initSlice)
            rewriter.clone(*op, late);
          Value total = arith::AddFOp::create(
              rewriter, loc, late.lookupOrDefault(plan.loop.getInitArgs()[0]),
              sum);
          mapping.map(plan.loop.getResult(0), total);
        }
      }
    }
  } else {
    for (auto [o, mapping] : llvm::enumerate(maps))
      for (unsigned i = 0; i < carried; ++i)
        mapping.map(plan.loop.getResult(i), stages.getResult(o * carried + i));
  }

  if (plan.guard)
    clonePerResult(after(plan.loop), true);
  if (plan.versioned) {
    clonePerResult(after(inHome), true);
    if (Block *fallback = plan.versioned.elseBlock()) {
      rewriter.setInsertionPoint(versioned.elseBlock()->getTerminator());
      clonePerResult(before(*fallback, nullptr), true);
    }
    rewriter.setInsertionPointAfter(versioned);
  }
  clonePerResult(after(anchor), true);
  for (Operation *op : llvm::reverse(original))
    rewriter.eraseOp(op);
  // Fused products round once where the original rounded twice, and the
  // tensor cores add in another order: the verification bounds the
  // difference by the terms' magnitude.
  if (plan.fuse || plan.tensorCores)
    AutoProfDialect::ReassociatedAttrHelper(context).setAttr(
        kernel, rewriter.getUnitAttr());
  // A register budget for the tile: without one, ptxas fits blocks of
  // 256 threads into as few registers as it likes and spills the
  // accumulators (48 registers and 60 bytes of spills at S = 64).
  if (!kernel->hasAttr(NVVM::NVVMDialect::getMinctasmAttrName()))
    rewriter.modifyOpInPlace(kernel, [&] {
      kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      rewriter.getI32IntegerAttr(getResidentBlocks(
                          *target.gpu, s, plan.tensorCores,
                          partialRows || partialColumns || !wholeStages)));
    });
  // The neighbouring results' loads before the loop and stores after it
  // as vector accesses, where the analysis proves them aligned.
  // (CSE first, so that the results' outer indices are one value.)
  simplifyRecombinedIndices(kernel);
  DominanceInfo dominance(kernel);
  eliminateCommonSubExpressions(rewriter, dominance, kernel);
  mergeNeighbouringAccesses(rewriter, kernel, {threads, threads, 1});
  // With two buffers, the copies of whole vectors go from global to shared
  // memory without registers while the stage computes.
  if (plan.doubleBuffered)
    copyStagesAsynchronously(rewriter, kernel, tiles);
  return success();
}

ArrayRef<StringRef> mlir::autoprof::rewrites::smallerTileFacts() {
  static const StringRef facts[] = {"too-few-waves", "tail-effect",
                                    "register-spills"};
  return facts;
}

ArrayRef<StringRef> mlir::autoprof::rewrites::largerTileFacts() {
  static const StringRef facts[] = {"issue-bound", "l1-bound", "l2-bound",
                                    "barrier-stalls"};
  return facts;
}

ArrayRef<StringRef> mlir::autoprof::rewrites::pipelineFacts() {
  return getBuiltinRewriteFamilyDecl(BuiltinRewriteFamily::ContractionPipeline)
      .facts;
}

void mlir::autoprof::rewrites::rankPipelineRevision(
    const RewriteEvidence &evidence, StringRef pipelineFamily, int64_t s,
    double score, SmallVectorImpl<RankedParameter> &ranked) {
  if (std::optional<std::string> facts = listHolding(evidence, pipelineFacts()))
    ranked.push_back(
        {score, s, "the winner's profile: " + *facts, pipelineFamily});
}

std::optional<std::string>
mlir::autoprof::rewrites::listHolding(const RewriteEvidence &evidence,
                                      ArrayRef<StringRef> names) {
  SmallVector<std::string> holding;
  for (StringRef name : names)
    if (const BottleneckFact *fact = evidence.findFact(name);
        fact && fact->state == FactState::True)
      holding.push_back(name.str() + " (" + fact->evidence + ")");
  if (holding.empty())
    return std::nullopt;
  return llvm::join(holding, ", ");
}

namespace {
class ContractionTileFamily : public ContractionTilingFamily {
public:
  ContractionTileFamily()
      : ContractionTilingFamily(BuiltinRewriteFamily::ContractionTile) {}

  void rank(const RewriteEvidence &evidence,
            SmallVectorImpl<RankedParameter> &ranked) const override {
    // Each staged element serves S results, which the static intensity
    // (bytes per access, not per distinct element) does not see: ahead of
    // unroll whatever it says. Among the sizes, the one the tile model
    // expects to finish first (getTileCost) ranks first.
    double results = evidence.blockThreads * evidence.gridBlocks;
    double multiprocessors = evidence.getMultiprocessors();
    SmallVector<std::pair<double, int64_t>> costs;
    for (int64_t s : {16, 32, 64, 128})
      costs.push_back({getTileCost(s, results, multiprocessors), s});
    llvm::stable_sort(costs, [](const auto &lhs, const auto &rhs) {
      return lhs.first < rhs.first;
    });
    for (auto [position, cost] : llvm::enumerate(costs)) {
      int64_t s = cost.second;
      double blocks = std::max(1.0, std::ceil(results / double(s * s)));
      std::string why;
      llvm::raw_string_ostream os(why);
      os << "tile model: " << llvm::formatv("{0:F0}", blocks) << " blocks on "
         << llvm::formatv("{0:F0}", multiprocessors) << " SMs"
         << evidence.describeMultiprocessors()
         << ", at most "
         << llvm::formatv("{0:F0}", std::ceil(blocks / multiprocessors))
         << " per SM at " << llvm::formatv("{0:F2}", getSustainedShare(s))
         << " of the FMA peak, cost " << llvm::formatv("{0:F0}", cost.first);
      ranked.push_back({11.4 - 0.1 * double(position), s, why});
    }
  }

  void rankRevisions(const RewriteEvidence &evidence, int64_t s,
                     SmallVectorImpl<RankedParameter> &ranked) const override {
    // The winner's own profile: a tile that leaves SMs idle or spills goes
    // to the next smaller size; one whose warps wait at the barriers or on
    // the staging loads, or whose L1 and shared path is busy, to two
    // buffers (ContractionPipeline.cpp); one whose pipes or barriers limit
    // it, on a grid that fills the GPU, to the next larger.
    if (s > 16)
      if (std::optional<std::string> facts =
              listHolding(evidence, smallerTileFacts()))
        ranked.push_back({2, s / 2, "the winner's profile: " + *facts});
    rankPipelineRevision(evidence, "contraction-pipeline", s, 1.5, ranked);
    if (s < 128 && evidence.getFact("too-few-waves") != FactState::True)
      if (std::optional<std::string> facts =
              listHolding(evidence, largerTileFacts()))
        ranked.push_back({1, s * 2, "the winner's profile: " + *facts});
  }

protected:
  bool usesTensorCores() const override { return false; }
};
} // namespace

std::unique_ptr<RewriteFamily>
mlir::autoprof::rewrites::createContractionTileFamily() {
  return std::make_unique<ContractionTileFamily>();
}
