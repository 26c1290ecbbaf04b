//===- ImportedSearch.h - Optimizing kernels known only as PTX --*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The search of a kernel imported from a kernel spec (ImportedKernel.h):
// its baseline is profiled with the metrics the tree selects from the
// features its PTX gives, the PTX-level rewrites (PtxRewrite.h) are ranked
// from that evidence, and each one that applies to the incumbent variant is
// verified against the original kernel on the worker's generated inputs,
// timed, and kept when it is faster beyond the noise and an interleaved
// re-timing confirms it, as the search of a gpu.func does (SearchDriver.h).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_IMPORTEDSEARCH_H
#define AUTOPROF_OPTIMIZER_IMPORTEDSEARCH_H

#include "autoprof/Optimizer/PtxRewrite.h"
#include "autoprof/Optimizer/SearchDriver.h"

namespace mlir::autoprof {

/// What the search of an imported kernel found.
struct ImportedSearchResult {
  /// Its report entry ("binary::entry").
  KernelSearchResult report;
  /// The fastest verified variant (the original when nothing won).
  PtxVariant winner;
};

/// Searches `kernel` with at most `options.budget` candidates. Fails, with
/// an error at the binary, when its baseline cannot be measured.
FailureOr<ImportedSearchResult>
searchImportedKernel(const ImportedKernel &kernel, const SearchOptions &options,
                     TreeOp tree);

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_IMPORTEDSEARCH_H
