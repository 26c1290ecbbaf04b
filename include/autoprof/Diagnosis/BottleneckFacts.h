//===- BottleneckFacts.h - Bottleneck facts from collected metrics -*- C++ -*-//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Turns the metrics collected for a kernel into facts about what limits it
// (DRAM-bound, uncoalesced loads, low occupancy, spills, ...). Each fact
// names the metrics it needs and its threshold; a fact whose metrics were not
// all collected is unknown, never false. The definitions and thresholds are
// documented in docs/diagnosis.md.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_DIAGNOSIS_BOTTLENECKFACTS_H
#define AUTOPROF_DIAGNOSIS_BOTTLENECKFACTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir::autoprof {

/// Whether a fact holds for a kernel.
enum class FactState { True, False, Unknown };

/// The name of `state`: "true", "false" or "unknown".
llvm::StringRef getFactStateName(FactState state);

/// A fact a profile can establish.
struct FactDefinition {
  /// Stable name, e.g. "dram-bound".
  llvm::StringRef name;
  /// One line for people and prompts.
  llvm::StringRef meaning;
  /// The metrics it needs (catalog names).
  std::vector<llvm::StringRef> metrics;
  /// The test, as the docs and remarks spell it.
  llvm::StringRef test;
};

/// Every fact the diagnosis knows, in a fixed order.
llvm::ArrayRef<FactDefinition> getFactDefinitions();

/// One fact for one kernel.
struct BottleneckFact {
  const FactDefinition *definition = nullptr;
  FactState state = FactState::Unknown;
  /// The values that decided it ("dram__throughput... = 83.0 >= 60"), or
  /// the metrics that were missing.
  std::string evidence;
};

/// Diagnoses a kernel from its collected metrics (`metrics` holds only the
/// collected ones). Returns one entry per definition, in their order.
std::vector<BottleneckFact> diagnose(const llvm::StringMap<double> &metrics);

} // namespace mlir::autoprof

#endif // AUTOPROF_DIAGNOSIS_BOTTLENECKFACTS_H
