//===- EvaluationJobs.h - Build GPU evaluation jobs from IR -----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Turns a kernel and its host launch into what autoprof-worker runs: the PTX
// of the kernel's gpu.module and a launch spec (grid, block, dynamic shared
// memory, and the parameters in order: buffers with element type, element
// count and role; scalars with their host constant values).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TRANSFORMS_EVALUATIONJOBS_H
#define AUTOPROF_TRANSFORMS_EVALUATIONJOBS_H

#include "autoprof/Runtime/Job.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::autoprof {

/// A launch that a host loop repeats: it sits directly in the body of an
/// scf.for with constant bounds and a positive step that runs at least once,
/// and passes the loop's induction variable as exactly one kernel operand.
struct HostLoopRepeat {
  scf::ForOp loop;
  /// The kernel operand that receives the induction variable.
  unsigned operand = 0;
  int64_t start = 0, step = 1;
  uint64_t tripCount = 1;
};

/// The host loop `launch` repeats in, or nothing (`why` says what is
/// missing when the launch is in a loop at all).
std::optional<HostLoopRepeat> matchHostLoopRepeat(gpu::LaunchFuncOp launch,
                                                  std::string *why = nullptr);

/// Builds the launch of an evaluation job. Buffer roles come from the kernel
/// body (read only: input; written only: output; both: inout); integer input
/// buffers get an index bound (the smallest buffer's element count) so that
/// data used as indices stays in bounds. Kernel argument attributes refine
/// the generated data: `autoprof.index_bound = N` sets the bound,
/// `autoprof.sorted` asks for ascending values (CSR row pointers) and
/// `autoprof.range = [low, high]` keeps an input's values in a domain
/// (instead of an index bound). Emits a
/// diagnostic and fails on launches the runtime cannot reproduce: non-constant
/// sizes or scalars, a buffer passed twice, unsupported element types. A
/// launch a host loop repeats (matchHostLoopRepeat) becomes a repeated launch
/// whose varying scalar takes the induction variable's values.
FailureOr<::autoprof::runtime::JobLaunch>
buildJobLaunch(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch);

/// Which reference parameter each parameter of `candidate` (the job launch
/// of `launch`) receives when a kernel and its reference take different
/// parameter lists (a normalized kernel has sunk constant scalars, a folded
/// one has dropped the induction variable of its host loop): buffers by
/// where the host takes them from (an argument of the host function or the
/// result of a host operation, by position), scalars in order by type and
/// value, the scalar a repeated launch varies only to its counterpart. The
/// candidate's buffers take the reference's roles and input hints, since
/// they are the reference's buffers. Emits an error on `launch` and fails
/// when the parameters cannot be mapped.
FailureOr<std::vector<unsigned>> mapJobParameters(
    gpu::LaunchFuncOp launch, ::autoprof::runtime::JobLaunch &candidate,
    gpu::LaunchFuncOp referenceLaunch,
    const ::autoprof::runtime::JobLaunch &reference, StringRef kernelName);

/// The compulsory DRAM traffic of a launch: every input buffer read once,
/// every output written once, inout buffers both. Effective bandwidth and the
/// roofline floor are computed from it (repeated loads may hit in cache).
uint64_t getCompulsoryBytes(const ::autoprof::runtime::JobLaunch &launch);

/// The same traffic split into bytes read (input and inout buffers) and
/// bytes written (output and inout buffers).
struct CompulsoryTraffic {
  uint64_t readBytes = 0, writeBytes = 0;
};
CompulsoryTraffic
getCompulsoryTraffic(const ::autoprof::runtime::JobLaunch &launch);

/// What a kernel does with a buffer argument, followed through views: an
/// input (only read or unused), an output (only written) or both. Uses
/// AutoProf cannot classify count as both.
::autoprof::runtime::BufferRole inferBufferRole(Value buffer);

/// The `reference_params` a candidate job carries for a parameter map from
/// mapJobParameters: none when candidate parameter i receives reference
/// parameter i for every i of the reference's `numReferenceParams`.
std::optional<std::vector<unsigned>>
asReferenceParams(std::vector<unsigned> map, size_t numReferenceParams);

/// The input distributions every kernel is verified on: getVerifyDistributions
/// without the special values, which only a kernel known to tolerate them
/// gets.
std::vector<autoprof_distribution> getBaseVerifyDistributions();

/// The input distributions a verification of `reference` (and of the
/// variants verified against it) uses: the job's four defaults, and
/// "special" (NaN, infinities, -0, subnormals among the floats) when the
/// reference tolerates them: it reads float buffers, and no float it
/// computes can become an address, a trip count or the condition of a
/// loop, so that the special values change its results, never whether it
/// ends or where it reads and writes. `why`, when given, says what keeps
/// "special" out.
std::vector<autoprof_distribution>
getVerifyDistributions(gpu::GPUFuncOp reference, std::string *why = nullptr);

/// Checks a worker deadline option (1 to 86400 seconds); emits an error on
/// `module` otherwise.
LogicalResult checkWorkerDeadline(ModuleOp module, unsigned seconds);

/// The lowest PTX ISA version (times ten) that can target `chip`, for the
/// architectures AutoProf supports (sm_75 to sm_121a: what CUDA 13 still
/// supports), or nothing for another chip.
std::optional<unsigned> getMinimumPtxVersion(StringRef chip);

/// Checks the options of a pass that runs jobs, where they are given:
/// `chip` one of the supported architectures, `device` not negative, and
/// `timeBudget` seconds a finite number from 0 to 3600. Emits an error
/// naming `pass` and the option at `loc` otherwise.
LogicalResult checkJobOptions(Location loc, StringRef pass, StringRef chip,
                              std::optional<int> device = std::nullopt,
                              std::optional<double> timeBudget = std::nullopt);

/// Lowers a copy of `module` to PTX for `chip`/`features` and returns the PTX
/// of every gpu.module by name; `module` itself is not changed.
FailureOr<llvm::StringMap<std::string>>
lowerModulesToPTX(ModuleOp module, StringRef chip, StringRef features);

} // namespace mlir::autoprof

#endif // AUTOPROF_TRANSFORMS_EVALUATIONJOBS_H
