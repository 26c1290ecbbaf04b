//===- NestSchedule.h - Schedules for a raised parallel nest ----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// How the points of a raised iteration space (autoprof/Raise) go to the
// threads and blocks of a launch, as a pure function of the problem: its
// parallel extents, the dimension the largest accesses walk contiguously,
// and the points of its reductions. The transform that generates the kernel
// (lib/Optimizer/Families/MapNest.cpp) only applies what the schedule says,
// so the choices are unit-tested apart from the IR.
//
// The schedule linearizes the parallel points with the contiguous dimension
// innermost, so that consecutive threads of a warp take consecutive elements
// along it, and the other dimensions outside it in their order; blocks of
// `threadsPerBlock` threads along x take consecutive runs of points; each
// thread accumulates its reductions in registers.
//
// With L lanes per point (L a power of two up to a warp), L consecutive
// threads of one warp share each point: the reduction points are linearized
// with the reduction dimension the largest loads walk contiguously
// innermost, lane l accumulates points l, l + L, ... from the combination's
// neutral element, and the lanes combine their partial results by shuffles.
// Where the reduction is contiguous the lanes read consecutive elements;
// where the parallel points are few the lanes fill the GPU. Beyond a warp
// (L up to the block's threads), each warp's lanes combine by shuffles and
// the warps of a point combine through the block's shared memory: the
// block reduction strategy.
//
// With stacked lanes, the L lanes of a point lie a row apart instead: a
// block's threads form L rows of P = threadsPerBlock / L consecutive points
// (P a warp at least), row l takes every L-th reduction point, and after a
// barrier the first row combines the rows' partial results through the
// block's shared memory. Each warp still takes consecutive points, so that
// where the reduction is not what the loads walk contiguously (a column
// reduction, a pool over rows), the lanes read whole rows of points.
//
// With a vector width V, each thread takes V consecutive points along the
// contiguous dimension (whose extent V divides), so that its accesses along
// it can be one access of V elements.
//
// With a reuse R, each thread also takes R consecutive points along the
// reuse dimension: a parallel dimension (other than the contiguous one)
// that the largest loads per reduction point do not depend on, so that the
// R points share those loads (a convolution's input across output
// channels, a product's row across columns); R divides its extent.
//
// With a staged chunk K, the block's threads form a tile: 16 threads along
// the contiguous dimension times threadsPerBlock / 16 along the reuse
// dimension, each thread V x R points of it (V along the contiguous
// dimension, R along the reuse one), so that a block takes 16 V x
// (threadsPerBlock / 16) R points of those two dimensions and one point of
// every other parallel dimension. Where the tile does not divide the two
// dimensions' extents, the threads whose points lie past them take their
// share of the copies below and store nothing. The linearized reductions (in the raised form's
// order, so that each point combines in the same order) run in chunks of K
// points: for each chunk the
// block copies into its shared memory, once, the elements of each operand
// that its points share (the slices along the reuse dimension an operand
// does not index, or along the contiguous one), and every thread then reads
// them there. One block per tile.
//
// With a split S, each point's linearized reductions go to S chunks of
// threads: chunk c of a point's L lanes, lane l, takes the reduction points
// c * L + l, c * L + l + S * L, ...; the chunks are the outermost of the
// launch's linear thread index, so that within a chunk consecutive threads
// still take consecutive points. Each chunk combines its partial result into
// the output with an atomic operation. Where the parallel points are few (a
// whole-tensor reduction has one), the chunks fill the GPU.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SCHEDULE_NESTSCHEDULE_H
#define AUTOPROF_SCHEDULE_NESTSCHEDULE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::autoprof {

/// What a schedule is chosen for.
struct NestProblem {
  /// The parallel extents, in the raised form's order.
  llvm::SmallVector<int64_t> parallelExtents;
  /// The index (into parallelExtents) of the dimension the largest accesses
  /// walk contiguously.
  unsigned contiguous = 0;
  /// The product of the reduction extents (1 without reduction).
  int64_t reductionPoints = 1;
  /// The reduction extents, in the raised form's order, and the index
  /// (into reductionExtents) of the one the largest loads walk
  /// contiguously, if any.
  llvm::SmallVector<int64_t> reductionExtents;
  std::optional<unsigned> contiguousReduction;
  /// The index (into parallelExtents) of the parallel dimension, other
  /// than the contiguous one, that the most bytes loaded per reduction
  /// point do not depend on (their points share those loads), if any.
  std::optional<unsigned> reuse;
  /// Where a split's atomic combination of some output is a loop of
  /// compare-and-swap on a 32-bit word (elements narrower than 32 bits,
  /// floating-point minimum and maximum): the points whose elements share
  /// one word (32 / bits, 1 for 32-bit elements); 0 where every
  /// combination is an atomic instruction of its own.
  int64_t compareSwapPointsPerWord = 0;
};

/// A mapping of the parallel points to a one-dimensional launch.
struct NestSchedule {
  /// The parallel dimensions (indices into NestProblem::parallelExtents)
  /// from the outermost to the innermost of the linear point index; the
  /// innermost runs along consecutive threads.
  llvm::SmallVector<unsigned> order;
  /// Threads per block (along x) and blocks (along x).
  int64_t threadsPerBlock = 0;
  int64_t blocks = 0;
  /// The parallel points, or with a vector width and a reuse the groups of
  /// `vector` x `reuse` points the threads take (threads past them do
  /// nothing).
  int64_t points = 0;
  /// Threads per point: each runs every `lanes`-th point of the
  /// linearized reductions, and the lanes combine their partial results.
  int64_t lanes = 1;
  /// With lanes: the reduction dimensions (indices into
  /// NestProblem::reductionExtents) from the outermost to the innermost of
  /// the linear reduction index; the innermost runs along the lanes.
  llvm::SmallVector<unsigned> reductionOrder;
  /// The lanes are stacked: a block holds `lanes` rows of
  /// threadsPerBlock / lanes consecutive points, one lane of each per row;
  /// each chunk (with a split) takes `blocks / split` consecutive blocks.
  bool stacked = false;
  /// Consecutive points along the contiguous dimension each thread takes.
  int64_t vector = 1;
  /// Consecutive points along the reuse dimension (an index into
  /// NestProblem::parallelExtents) each thread takes.
  int64_t reuse = 1;
  unsigned reuseDim = 0;
  /// Chunks of threads that split each point's reductions, combined in the
  /// output by atomic operations; with a split, reductionOrder is set as
  /// with lanes.
  int64_t split = 1;
  /// Reduction points per chunk that the block stages in shared memory (0:
  /// none); with a staged chunk, reductionOrder is the raised form's (each
  /// point's combinations keep their order), the
  /// block is a tile of kStagedTileColumns x (threadsPerBlock /
  /// kStagedTileColumns) threads, each taking `vector` x `reuse` points
  /// (`points` counts those groups), and `blocks` counts the tiles.
  int64_t stageChunk = 0;
};

/// Threads along the contiguous dimension of a staged tile.
constexpr int64_t kStagedTileColumns = 16;
/// The reduction points per chunk a staged schedule may take (any power of
/// two from 2 up to it).
constexpr int64_t kMaxStageChunk = 64;

/// The shape a schedule is asked for: threads per block, threads per point
/// (lanes), points per thread along the contiguous dimension (vector width)
/// and along the reuse dimension (reuse), and chunks per point (split).
struct NestShape {
  int64_t threadsPerBlock = 256;
  int64_t lanes = 1;
  int64_t vector = 1;
  int64_t split = 1;
  int64_t reuse = 1;
  /// The lanes are stacked rows of a block (NestSchedule::stacked).
  bool stacked = false;
  /// Reduction points per chunk staged in shared memory (0: none).
  int64_t stageChunk = 0;
};

/// The block sizes a schedule may use.
llvm::ArrayRef<int64_t> getNestBlockSizes();

/// The lane counts a schedule may give each point: powers of two up to
/// 512, a warp's or more within one block.
llvm::ArrayRef<int64_t> getNestLaneCounts();
/// The vector widths a schedule may give each thread.
llvm::ArrayRef<int64_t> getNestVectorWidths();
/// The most chunks a schedule may split each point's reductions into (any
/// power of two from 2 up to it).
constexpr int64_t kMaxNestSplit = 4096;
/// The most points a thread may take along the reuse dimension (any power
/// of two from 2 up to it).
constexpr int64_t kMaxNestReuse = 16;

/// The most compare-and-swap loops a split lets contend for one word: each
/// failed swap is retried, so contenders cost about their square, where an
/// atomic instruction of its own costs each contender once. Not set from a
/// measurement yet: 512 chunks of a column maximum over i8 (2048
/// contenders a word) took twice the time of one thread per column.
constexpr int64_t kMaxCompareSwapContention = 64;

/// The most chunks a split schedule of `problem` may take: kMaxNestSplit,
/// or where its combination is a compare-and-swap loop, as many as keep
/// the contenders for one word within kMaxCompareSwapContention (the
/// chunks times the points sharing a word), 1 at the least.
int64_t getNestSplitLimit(const NestProblem &problem);

/// The lanes per point of a split schedule of `problem`: a warp (32) where
/// the largest loads walk a reduction dimension contiguously, so that a
/// warp's requests are contiguous; else one thread per point, consecutive
/// threads on consecutive points.
int64_t getNestSplitLanes(const NestProblem &problem);

/// The split a schedule of `points` parallel points with `lanes` lanes each
/// and `reductionPoints` reduction points per point takes on a GPU of
/// `residentThreads` thread slots: the smallest power of two whose chunks
/// fill the slots, but no more than leaves each thread 16 reduction points,
/// and at most `maxSplit` (getNestSplitLimit); nothing where that is below
/// 2 (the points fill the GPU, the reductions are too short to share, or
/// the combination bears no split).
std::optional<int64_t> chooseNestSplit(int64_t points, int64_t reductionPoints,
                                       int64_t lanes, int64_t residentThreads,
                                       int64_t maxSplit = kMaxNestSplit);

/// The schedule of `problem` in `shape`, or the reason there is none
/// (`why`): a block size the launch cannot have, a lane count that is not a
/// power of two up to 512 or exceeds the block size, a split that is not a power of two up to
/// kMaxNestSplit, lanes and chunks without at least two reduction points
/// per thread, a vector width that is not a power of two up to 16 or does
/// not divide the contiguous extent, a reuse that is not a power of two up
/// to kMaxNestReuse, without a reuse dimension, or that does not divide
/// its extent, a vector width or a reuse with lanes or a split, stacked
/// lanes that are one or leave a row of the block less than a warp of
/// points, a problem of no points, or more blocks than a grid holds. A
/// staged chunk must be a power of two from 2 up to kMaxStageChunk, without
/// lanes or a split, with a reuse dimension and reductions of a chunk at
/// least, and with several points per thread along a tile dimension the
/// tile may not lie more than half past its extent.
std::optional<NestSchedule> scheduleNest(const NestProblem &problem,
                                         const NestShape &shape,
                                         std::string &why);
inline std::optional<NestSchedule> scheduleNest(const NestProblem &problem,
                                                int64_t threadsPerBlock,
                                                int64_t lanes, int64_t vector,
                                                std::string &why) {
  NestShape shape;
  shape.threadsPerBlock = threadsPerBlock;
  shape.lanes = lanes;
  shape.vector = vector;
  return scheduleNest(problem, shape, why);
}
inline std::optional<NestSchedule> scheduleNest(const NestProblem &problem,
                                                int64_t threadsPerBlock,
                                                int64_t lanes,
                                                std::string &why) {
  return scheduleNest(problem, threadsPerBlock, lanes, /*vector=*/1, why);
}
inline std::optional<NestSchedule> scheduleNest(const NestProblem &problem,
                                                int64_t threadsPerBlock,
                                                std::string &why) {
  return scheduleNest(problem, threadsPerBlock, /*lanes=*/1, why);
}

} // namespace mlir::autoprof

#endif // AUTOPROF_SCHEDULE_NESTSCHEDULE_H
