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
  /// The parallel points (threads past them do nothing).
  int64_t points = 0;
};

/// The block sizes a schedule may use.
llvm::ArrayRef<int64_t> getNestBlockSizes();

/// The schedule of `problem` with `threadsPerBlock` threads per block, or
/// the reason there is none (`why`): a block size the launch cannot have,
/// a problem of no points, or more blocks than a grid holds.
std::optional<NestSchedule> scheduleNest(const NestProblem &problem,
                                         int64_t threadsPerBlock,
                                         std::string &why);

} // namespace mlir::autoprof

#endif // AUTOPROF_SCHEDULE_NESTSCHEDULE_H
