//===- CandidateStatus.h - What happened to a candidate ---------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The closed vocabulary of a candidate's outcome, shared by the proposers,
// the searches and the report (whose "status" field spells it).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZER_CANDIDATESTATUS_H
#define AUTOPROF_OPTIMIZER_CANDIDATESTATUS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"

namespace mlir::autoprof {

/// What happened to one candidate.
enum class CandidateStatus {
  /// Verified against the original and timed.
  Verified,
  /// Unusable: it failed verification, faulted, lowers the precision, or
  /// its proposer could not make a kernel of it.
  Rejected,
  /// It could not be run (the worker failed, it does not lower).
  Error,
  /// Not evaluated: its preconditions no longer held.
  Skipped,
};

/// "verified", "rejected", "error" or "skipped", as the report spells it.
inline llvm::StringRef getCandidateStatusName(CandidateStatus status) {
  switch (status) {
  case CandidateStatus::Verified:
    return "verified";
  case CandidateStatus::Rejected:
    return "rejected";
  case CandidateStatus::Error:
    return "error";
  case CandidateStatus::Skipped:
    return "skipped";
  }
  llvm_unreachable("unknown candidate status");
}

} // namespace mlir::autoprof

#endif // AUTOPROF_OPTIMIZER_CANDIDATESTATUS_H
