//===- PtxRewrite.h - Rewrites of kernels known only as PTX -----*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A kernel imported from a kernel spec (ImportedKernel.h) has no MLIR body
// for the rewrite families of RewriteFamily.h to transform. What can change
// is what its PTX entry asks of ptxas and the driver, and, where the spec
// says the kernel computes the same result with any block size, its launch:
// the families here do that, on the PTX text and the job's launch. They
// are ranked from the same evidence as the MLIR families (the profile's
// metrics, the bottleneck facts, the features the PTX gives) and searched,
// verified and timed by the optimizer like any candidate
// (docs/optimizer.md, "Imported kernels").
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_PTXREWRITE_H
#define AUTOPROF_OPTIMIZER_PTXREWRITE_H

#include "autoprof/Import/ImportedKernel.h"
#include "autoprof/Optimizer/RewriteFamily.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::autoprof {

/// A variant of an imported kernel: its PTX and its launch.
struct PtxVariant {
  /// Empty for the variants of a cubin, which run the cubin with their
  /// launch (ImportedKernel::getJobKernel).
  std::string ptx;
  ::autoprof::runtime::JobLaunch launch;
  /// The NVRTC options its PTX was compiled with (a CUDA source's; empty
  /// for a kernel known only as PTX).
  std::vector<std::string> compileOptions;
  /// The entry directives the families added (".maxnreg 64"), which the
  /// PTX gets again when it is compiled anew.
  std::vector<std::string> directives;
  /// A family changed `compileOptions`: the PTX must be compiled anew from
  /// the CUDA source (and given `directives`) before the variant runs.
  bool recompile = false;
};

/// One family of PTX-level rewrites.
class PtxRewriteFamily {
public:
  /// The built-in family `family` (RewriteFamilies.td), which declares the
  /// imported form.
  explicit PtxRewriteFamily(BuiltinRewriteFamily family);
  virtual ~PtxRewriteFamily();

  /// What the family declares about itself.
  const RewriteFamilyDecl &getDecl() const { return decl; }
  /// The name that selects the family ("max-registers").
  StringRef getName() const { return decl.name; }
  /// One line on what it does to an imported kernel and what its parameter
  /// means.
  StringRef getSummary() const {
    return decl.importedSummary.empty() ? decl.summary : decl.importedSummary;
  }
  /// The parameters worth trying given `evidence`, each with its score.
  virtual void rank(const RewriteEvidence &evidence,
                    SmallVectorImpl<RankedParameter> &ranked) const = 0;
  /// Rewrites `variant` of `kernel` with `parameter`, or says why it does
  /// not apply (`variant` is then unchanged).
  virtual std::optional<std::string> apply(const ImportedKernel &kernel,
                                           int64_t parameter,
                                           PtxVariant &variant) const = 0;

private:
  const RewriteFamilyDecl &decl;
};

/// The PTX-level families, in registry order (which breaks ties between
/// equal scores).
ArrayRef<std::unique_ptr<PtxRewriteFamily>> getPtxRewriteFamilies();

/// One ranked rewrite of an imported kernel.
struct PtxProposal {
  const PtxRewriteFamily *family;
  int64_t parameter;
  double score;
  /// "family=parameter".
  std::string label() const;
};

/// Every family's ranked parameters for `evidence`, best first.
SmallVector<PtxProposal> proposePtxRewrites(const RewriteEvidence &evidence);

/// Why `keyword` (".maxnreg") cannot be added to the declaration of
/// `entry` in `ptx`: the entry is missing, or declares it already; nothing
/// when it can.
std::optional<std::string> checkNoEntryDirective(StringRef ptx, StringRef entry,
                                                 StringRef keyword);

/// Adds `directive` (".maxnreg 64") to the declaration of `entry` in `ptx`,
/// between its parameter list and its body. Fails, saying why, when the
/// entry is missing or already declares a directive of the same name.
std::optional<std::string> addEntryDirective(std::string &ptx, StringRef entry,
                                             StringRef directive);

/// addEntryDirective on `variant`'s PTX, remembering the directive in
/// `variant.directives` when it is added; a variant without PTX (a cubin's)
/// takes none.
std::optional<std::string> addVariantDirective(PtxVariant &variant,
                                               StringRef entry,
                                               StringRef directive);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_PTXREWRITE_H
