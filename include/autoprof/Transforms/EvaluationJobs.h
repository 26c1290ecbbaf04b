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
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::autoprof {

/// Builds the launch of an evaluation job. Buffer roles come from the kernel
/// body (read only: input; written only: output; both: inout); integer input
/// buffers get an index bound (the smallest buffer's element count) so that
/// data used as indices stays in bounds. Kernel argument attributes refine
/// the generated data: `autoprof.index_bound = N` sets the bound and
/// `autoprof.sorted` asks for ascending values (CSR row pointers). Emits a
/// diagnostic and fails on launches the runtime cannot reproduce: non-constant
/// sizes or scalars, a buffer passed twice, unsupported element types.
FailureOr<::autoprof::runtime::JobLaunch>
buildJobLaunch(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch);

/// The compulsory DRAM traffic of a launch: every input buffer read once,
/// every output written once, inout buffers both. Effective bandwidth and the
/// roofline floor are computed from it (repeated loads may hit in cache).
uint64_t getCompulsoryBytes(const ::autoprof::runtime::JobLaunch &launch);

/// What a kernel does with a buffer argument, followed through views:
/// "input" (only read or unused), "output" (only written) or "inout".
/// Uses AutoProf cannot classify count as both.
std::string inferBufferRole(Value buffer);

/// Checks a worker deadline option (1 to 86400 seconds); emits an error on
/// `module` otherwise.
LogicalResult checkWorkerDeadline(ModuleOp module, unsigned seconds);

/// Lowers a copy of `module` to PTX for `chip`/`features` and returns the PTX
/// of every gpu.module by name; `module` itself is not changed.
FailureOr<llvm::StringMap<std::string>>
lowerModulesToPTX(ModuleOp module, StringRef chip, StringRef features);

} // namespace mlir::autoprof

#endif // AUTOPROF_TRANSFORMS_EVALUATIONJOBS_H
