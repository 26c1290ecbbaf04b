//===- KernelSpec.h - Kernels from CUDA C++ and PTX sources -----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel spec describes a kernel that is not written in MLIR: a CUDA C++,
// PTX or cubin file, its entry point, the launch (grid, block, dynamic
// shared memory) and every parameter (a buffer with its element type, count
// and role, or a scalar with its type and value). `importKernel` turns it
// into the form the rest of AutoProf works on: a `gpu.binary` holding the
// PTX (or the cubin), marked `autoprof.imported` with the spec's parameters,
// and a host function that launches it with `gpu.launch_func`. The spec is
// JSON (or YAML, read as the JSON it denotes, when its name ends in .yaml or
// .yml):
//
//   {
//     "source": "saxpy.cu",            // relative to the spec's folder
//     "format": "cuda",                // optional: .cu -> cuda, .ptx -> ptx,
//                                      // .cubin -> cubin
//     "entry": "saxpy",
//     "grid": [4096, 1, 1], "block": [256, 1, 1],
//     "dynamic_shared_bytes": 0,       // optional
//     "block_size_generic": true,      // optional: any block size is right
//     "params": [
//       {"name": "a", "kind": "scalar", "dtype": "f32", "value": 2.0},
//       {"name": "x", "kind": "buffer", "dtype": "f32", "count": 1048576,
//        "role": "input"},
//       ...
//     ]
//   }
//
// The parameters follow the evaluation job's schema (autoprof/Runtime/Job.h,
// `JobParam`), so what the spec says is what the worker is given.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_IMPORT_KERNELSPEC_H
#define AUTOPROF_IMPORT_KERNELSPEC_H

#include "autoprof/Runtime/Job.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::autoprof {

/// A kernel described by a kernel spec.
struct KernelSpec {
  /// The spec file, and the source file it names (resolved against the
  /// spec's folder).
  std::string specPath;
  std::string sourcePath;
  ::autoprof::runtime::CodeFormat format = ::autoprof::runtime::CodeFormat::Ptx;
  std::string entry;
  /// Grid, block, dynamic shared memory and parameters.
  ::autoprof::runtime::JobLaunch launch;
  /// One name per parameter ("arg<i>" where the spec gives none).
  std::vector<std::string> paramNames;
  /// The kernel computes the same result with any block size that covers
  /// the problem (the spec says so; nothing checks it).
  bool blockSizeGeneric = false;
  /// NVRTC options the CUDA C++ is compiled with (`compile_options`; those
  /// ::autoprof::runtime::isAllowedCompileOption accepts).
  std::vector<std::string> compileOptions;
};

/// Parses the kernel spec `text` read from `specPath` (YAML when that ends in
/// .yaml or .yml, else JSON). An error names the field at fault
/// ("params[1].dtype: unknown element type").
llvm::Expected<KernelSpec> parseKernelSpec(llvm::StringRef text,
                                           llvm::StringRef specPath);

/// What a PTX module says of one of its entries.
struct PtxEntry {
  /// The `.target` (e.g. "sm_90"); empty when the PTX names none.
  std::string target;
  /// Each parameter's PTX type, in order (".u64", ".f32", ...).
  std::vector<std::string> paramTypes;
};

/// Reads `.target` and the parameter list of `.entry entry(...)` from `ptx`;
/// fails when the entry is missing.
llvm::Expected<PtxEntry> readPtxEntry(llvm::StringRef ptx,
                                      llvm::StringRef entry);

/// Checks the spec's parameters against the entry's (their number, and each
/// one's size and kind: a buffer is a 64-bit pointer) and that the PTX does
/// not target a newer architecture than `chip` (e.g. "sm_90").
llvm::Error checkPtxEntry(const KernelSpec &spec, const PtxEntry &entry,
                          llvm::StringRef chip);

struct CubinEntry;

/// Checks the spec's parameters against a cubin's entry (their number, and
/// each one's size: a buffer is a 64-bit pointer; a cubin does not say
/// which parameters are pointers) and that the cubin's code runs on `chip`
/// (the same major architecture, a minor one not newer; an
/// architecture-specific cubin such as sm_90a, where its flags say so, only
/// on that one).
llvm::Error checkCubinEntry(const KernelSpec &spec, const CubinEntry &entry,
                            llvm::StringRef chip);

/// Adds the imported kernel to `module`: a `gpu.binary` named after the
/// entry (made unique) holding `code` for `chip` (the PTX, or for a spec
/// of format "cubin" the cubin as a `bin` object), with the spec as its
/// `autoprof.imported` attribute, and a host function `@<binary>_launch`
/// that takes the buffers as statically shaped memrefs and launches the
/// entry with the spec's sizes and scalar values. Returns the binary's name.
std::string importKernel(ModuleOp module, const KernelSpec &spec,
                         llvm::StringRef code, llvm::StringRef chip,
                         llvm::StringRef sourceText);

} // namespace mlir::autoprof

#endif // AUTOPROF_IMPORT_KERNELSPEC_H
