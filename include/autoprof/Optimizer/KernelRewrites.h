//===- KernelRewrites.h - Built-in rewrites of a kernel and launch -*- C++ -*-//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Rewrites by name ("family=parameter") over the family registry
// (RewriteFamily.h): parsing, checking, applying and ranking. Each rewrite
// changes one kernel (and, for launch changes, every launch of it) and
// states its preconditions, which are proved on the IR before it is
// applied: a rewrite that cannot be proved legal leaves the kernel alone.
// The worker's verification is the second line of defence, not the first.
// Each family is one file of lib/Optimizer/Families/.
//
// Families (parameter in brackets):
//   block-size[N]     re-launch a 1-D kernel with N threads per block and the
//                     same total number of threads;
//   launch-bounds[1]  promise the exact block size (nvvm.maxntid);
//   min-blocks[K]     ask for K resident blocks per SM (nvvm.minctasm, with
//                     the exact block size);
//   max-registers[R]  cap registers per thread at R (nvvm.maxnreg);
//   unroll[F]         unroll innermost constant-trip scf.for loops by F;
//   restrict[1]       mark buffers no-alias and never-written ones read-only,
//                     so that loads can use the read-only data path;
//   coarsen[C]        each thread does the work of C threads of C
//                     consecutive blocks (grid x / C, the body in a loop);
//   vectorize[V]      each thread handles V consecutive elements with vector
//                     loads, stores and arithmetic (grid x / V);
//   privatize-atomics[C]
//                     coarsen by C, then give each block a shared copy of a
//                     buffer only updated by atomic adds;
//   distribute-loop[L]
//                     L lanes per original thread split its loop;
//   coalesce[P]       the contiguous dimension moves to x, with P threads
//                     of a block along it;
//   form-blocks[N]    one-thread blocks become blocks of N threads along
//                     the contiguous dimension (grid rounded up, guarded);
//   register-accumulate[1]
//                     keep an element a loop loads and stores every iteration
//                     in a register (load before, store after the loop);
//   fold-host-loop[1] a host loop around the launch moves into the kernel
//                     (one launch; versioned on the host when the buffers
//                     are not proved distinct).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_KERNELREWRITES_H
#define AUTOPROF_OPTIMIZER_KERNELREWRITES_H

#include "autoprof/Diagnosis/BottleneckFacts.h"
#include "autoprof/Target/GpuTarget.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir::autoprof {

/// One rewrite: a family and its parameter.
struct KernelRewrite {
  std::string family;
  int64_t parameter = 1;

  /// "family=parameter", the form parseKernelRewrite reads.
  std::string str() const;
  bool operator==(const KernelRewrite &other) const {
    return family == other.family && parameter == other.parameter;
  }
};

/// Parses "family=parameter" (or "family" for parameter 1); fails with a
/// message naming the known families.
FailureOr<KernelRewrite> parseKernelRewrite(StringRef text, std::string &error);

/// Why `rewrite` cannot be applied to `kernel` in `module`, or nothing when
/// its preconditions hold. Every function here takes the GPU the kernel is
/// for as `gpu`; null: the one the module's #nvvm.target names, else sm_90
/// (RewriteTarget::get).
std::optional<std::string> checkKernelRewrite(const KernelRewrite &rewrite,
                                              ModuleOp module,
                                              gpu::GPUFuncOp kernel,
                                              const GpuTarget *gpu = nullptr);

/// Applies `rewrite` to `kernel` and its launches in `module` through
/// `rewriter`; fails with an error naming the reason when its
/// preconditions do not hold.
LogicalResult applyKernelRewrite(RewriterBase &rewriter,
                                 const KernelRewrite &rewrite, ModuleOp module,
                                 gpu::GPUFuncOp kernel,
                                 const GpuTarget *gpu = nullptr);

/// applyKernelRewrite with an IRRewriter of its own.
LogicalResult applyKernelRewrite(const KernelRewrite &rewrite, ModuleOp module,
                                 gpu::GPUFuncOp kernel,
                                 const GpuTarget *gpu = nullptr);

/// A rewrite considered for a kernel whose preconditions do not hold.
struct RefusedRewrite {
  KernelRewrite rewrite;
  std::string reason;
};

/// A rewrite whose preconditions hold, with what ranked it.
struct ProposedRewrite {
  KernelRewrite rewrite;
  /// Its score (docs/optimizer.md, Ranking).
  double score = 0;
  /// The bottleneck facts its family addresses, as the collected metrics
  /// decide them (unknown where they were not collected).
  SmallVector<BottleneckFact> facts;
  /// What else placed it (RankedParameter::why); empty when nothing.
  std::string why;
};

/// The rewrites worth trying on `kernel`, most promising first, given its
/// static features, its memory-access analysis and the metrics collected for
/// it (missing metrics are absent from `metrics`) with the bottleneck facts
/// they establish. Only rewrites whose preconditions hold are returned (and,
/// with their scores and facts, go to `proposed` when given, in the same
/// order); the others considered go to `refused` when given. The ranking
/// rules are documented in docs/optimizer.md.
SmallVector<KernelRewrite>
proposeKernelRewrites(ModuleOp module, gpu::GPUFuncOp kernel,
                      DictionaryAttr features,
                      const llvm::StringMap<double> &metrics,
                      SmallVectorImpl<RefusedRewrite> *refused = nullptr,
                      SmallVectorImpl<ProposedRewrite> *proposed = nullptr,
                      const GpuTarget *gpu = nullptr);

/// The revisions of `winner`, the rewrite that made the incumbent `module`
/// (RewriteFamily::rankRevisions on the incumbent's evidence: `features`
/// and `metrics` are the winner's), best first. Whether they apply is for
/// the caller to check on the kernel as it was before `winner`.
SmallVector<ProposedRewrite>
proposeRevisions(ModuleOp module, gpu::GPUFuncOp kernel,
                 DictionaryAttr features,
                 const llvm::StringMap<double> &metrics,
                 const KernelRewrite &winner, const GpuTarget *gpu = nullptr);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_KERNELREWRITES_H
