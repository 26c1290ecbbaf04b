//===- ImportedKernel.h - Kernels known only as PTX -------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel that `autoprof-import-kernel` brought in from a kernel spec has no
// `gpu.func`: its code is the PTX (or the cubin) of a `gpu.binary` marked
// `autoprof.imported`, whose parameters the attribute lists, and a host
// `gpu.launch_func` runs it. This is how the passes that measure kernels
// (`autoprof-extract-features`, `autoprof-profile`) find such kernels and
// build their evaluation jobs; their results go on the binary.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_IMPORT_IMPORTEDKERNEL_H
#define AUTOPROF_IMPORT_IMPORTEDKERNEL_H

#include "autoprof/Import/Cubin.h"
#include "autoprof/Runtime/Job.h"
#include "autoprof/Target/GpuTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mlir::autoprof {

/// One launched imported kernel.
struct ImportedKernel {
  /// The binary that holds its code and carries `autoprof.imported`.
  gpu::BinaryOp binary;
  /// Its first launch in host code.
  gpu::LaunchFuncOp launch;
  /// The PTX text (empty for a cubin) and the entry the launch runs.
  std::string ptx;
  std::string entry;
  /// The bytes of a cubin (empty for PTX), and what it says of the entry.
  std::string cubin;
  std::optional<CubinEntry> cubinEntry;
  /// The spec says the kernel computes the same result with any block size
  /// that covers the problem.
  bool blockSizeGeneric = false;
  /// The CUDA C++ source of a spec in that format (empty for PTX), and the
  /// NVRTC options its PTX was compiled with.
  std::string cudaSource;
  std::vector<std::string> compileOptions;
  /// The spec's parameter names, in order.
  std::vector<std::string> paramNames;
  /// The evaluation job's launch: the launch's sizes, the binary's
  /// parameters.
  ::autoprof::runtime::JobLaunch jobLaunch;

  /// The kernel is known only as machine code: nothing of it can be
  /// rewritten but its launch.
  bool isCubin() const { return !cubin.empty(); }
  /// The GPU its code is for: the chip of the binary's #nvvm.target where
  /// that names a described one, else the default (sm_90).
  const GpuTarget &getGpuTarget() const;
  /// The evaluation job's kernel for `launch` and `variantPtx`, a variant's
  /// PTX, or when that is empty the kernel's own code (its PTX or cubin).
  ::autoprof::runtime::JobKernel
  getJobKernel(StringRef variantPtx,
               const ::autoprof::runtime::JobLaunch &launch) const;
  /// The evaluation job's kernel for the kernel as it is.
  ::autoprof::runtime::JobKernel getJobKernel() const {
    return getJobKernel(ptx, jobLaunch);
  }
};

/// The launched imported kernels of `module`, one per binary marked
/// `autoprof.imported` that a `gpu.launch_func` runs (binaries never
/// launched are left out). Emits a diagnostic at the binary or the launch
/// and fails when one cannot be read: no PTX or cubin object, a cubin
/// without the entry (Cubin.h), sizes that are not
/// constants, a parameter list that does not match the evaluation job's
/// schema or the launch's operands. Points each binary's location at its
/// line without a column, so that diagnostics at it name the file and line
/// but do not quote the line: a gpu.binary prints its whole source and PTX
/// on one line.
FailureOr<std::vector<ImportedKernel>> findImportedKernels(ModuleOp module);

/// Where the declaration of an entry lies in a PTX text: offsets of its
/// parameter list's parentheses and of its body's braces (`bodyOpen` and
/// `bodyClose` are StringRef::npos when the body is missing or not closed).
struct PtxEntryLocation {
  size_t paramsOpen, paramsClose, bodyOpen, bodyClose;
};

/// Finds `.entry entry (...)` in `ptx`: `.entry`, at least one blank, the
/// name exactly, optional blanks and `(`; the first such declaration. Fails
/// when there is none or its parameter list is not closed. Every reader and
/// editor of an entry (readPtxEntry, getPtxEntryBody, the PTX rewrites)
/// goes through it, so that they agree on which text is the entry's.
std::optional<PtxEntryLocation> locatePtxEntry(StringRef ptx,
                                               StringRef entry);

/// The body of `.entry entry(...) { ... }` in `ptx` (between its braces),
/// or an empty string when the entry or its braces are missing.
StringRef getPtxEntryBody(StringRef ptx, StringRef entry);

/// The bodies of the `.func`s of `ptx` that `body` reaches by `call`,
/// directly or through the functions it calls, each once, in the order
/// they are first reached: `.func [(returns)] name [(params)] { ... }`.
/// An indirect call (through a register) may reach any function: then
/// every `.func` body of `ptx` is in the list. Declarations without a
/// body (`.extern .func`) have none.
SmallVector<StringRef> getPtxCalledFunctionBodies(StringRef ptx,
                                                  StringRef body);

} // namespace mlir::autoprof

#endif // AUTOPROF_IMPORT_IMPORTEDKERNEL_H
