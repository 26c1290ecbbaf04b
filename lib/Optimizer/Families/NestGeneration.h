//===- NestGeneration.h - Kernels generated from a raised nest --*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// What the families that map a raised iteration space anew (map-nest,
// map-lanes) share: the plan (the raised form, its schedule, whether the
// launches need a host check that the buffers lie apart) and the generation
// of the kernel's new body from it. Each family chooses the schedule's
// parameters; the generated code only follows the schedule
// (autoprof/Schedule/NestSchedule.h). Internal to the optimizer library.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_OPTIMIZER_FAMILIES_NESTGENERATION_H
#define AUTOPROF_LIB_OPTIMIZER_FAMILIES_NESTGENERATION_H

#include "autoprof/Optimizer/RewriteFamily.h"
#include "autoprof/Raise/IterationSpace.h"
#include "autoprof/Schedule/NestSchedule.h"

#include <string>

namespace mlir::autoprof::rewrites {

/// A raised kernel and the schedule its new body follows.
struct NestPlan {
  IterationSpace space;
  NestSchedule schedule;
  /// The buffers are not proved distinct: each launch checks on the host
  /// that the written buffers lie apart from the others, and launches a
  /// copy of the original kernel (autoprof.fallback_of) where they do not.
  bool versioned = false;
  /// With lanes: for each accumulated operand (the outputs the nest reads
  /// and writes, in operand order), the body's operation that combines the
  /// element so far with the point's contribution.
  SmallVector<unsigned> accumulated;
  SmallVector<Operation *> combiners;
};

/// The problem a schedule of `space` solves: its parallel and reduction
/// extents and the dimensions the largest accesses walk contiguously.
NestProblem getNestProblem(const IterationSpace &space);

/// Raises `target`'s kernel and schedules it with `threadsPerBlock` threads
/// per block and `lanes` threads per point, or fails with `why`: the kernel
/// does not raise; its launch shape is tied (launch bounds); a launch is
/// asynchronous or has a cluster; a launch passes one buffer twice where the
/// buffers are not proved distinct; with lanes, an output that is not
/// accumulated, or an accumulation whose element is not combined once per
/// point by an associative and commutative operation with a contribution
/// of its own; or the schedule's refusal.
FailureOr<NestPlan> matchNestPlan(const RewriteTarget &target,
                                  int64_t threadsPerBlock, int64_t lanes,
                                  std::string &why);

/// Replaces the kernel's body by the one `plan` schedules, re-sizes every
/// launch and, where `plan.versioned`, puts each launch under the host
/// check with the original kernel as its fallback.
LogicalResult generateNest(RewriterBase &rewriter, const RewriteTarget &target,
                           const NestPlan &plan);

} // namespace mlir::autoprof::rewrites

#endif // AUTOPROF_LIB_OPTIMIZER_FAMILIES_NESTGENERATION_H
