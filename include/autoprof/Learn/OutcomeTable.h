//===- OutcomeTable.h - Optimization outcomes per profiling config -*- C++ -*-//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// What the tree learner scores trees on: for each training kernel, its
// static features and, per profiling configuration (a set of metric groups
// and metrics), the verified speedup the optimizer reached with that
// configuration within a fixed search budget; per configuration, what
// collecting it costs. A measurement that failed is absent, never zero.
//
// JSON form:
//   {"provenance": "...", "budget": 3,
//    "configurations": [{"name": "none", "groups": [], "metrics": [],
//                        "cost_passes": 0, "cost_seconds": 0.0}, ...],
//    "kernels": [{"name": "matmul.blocks/matmul_kernel", "program": "matmul",
//                 "features": {"grid_blocks": 4096, ...},
//                 "speedup": {"none": 1.9, "SpeedOfLight": 2.3, ...}}, ...]}
// A kernel may also carry "speedup_at" and "costs_at" (the outcomes of
// smaller budgets), "costs" (per configuration, what its own profiles
// cost, {"passes": 12, "seconds": 0.9}; a configuration's cost is their
// median), "paths" (per configuration, the candidates its search tried,
// [{"rewrite": "coalesce=32", "accepted": true}, ...]) and
// "speedup_measured" / "speedup_at_measured" (each run's own timing, where
// "speedup" is the median over the configurations that kept one variant:
// scripts/measure-outcomes.py), which the learner does not read: the
// Python package reports them. The table's
// "tools" lists the commits of the tools that measured it
// (scripts/measure-outcomes.py keeps one optimizer per table); the learner
// does not read it either.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_OUTCOMETABLE_H
#define AUTOPROF_LEARN_OUTCOMETABLE_H

#include "autoprof/Profiling/MetricCatalog.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::autoprof::learn {

/// A profiling configuration: what a leaf collects, and what that costs.
struct ProfileConfiguration {
  std::string name;
  std::vector<std::string> groups, metrics;
  double costPasses = 0, costSeconds = 0;
  /// The median costs (passes, seconds) of a search of each smaller budget
  /// ("costs_at"; a winner's re-profile counts only while budget remains).
  std::map<int64_t, std::pair<double, double>> costsAt;
  /// The modules it is measured on when not every one ("modules"; empty:
  /// every module): a configuration one step from a leaf is wanted only on
  /// the modules whose kernels reach that leaf (wantedConfigurations).
  std::vector<std::string> modules;
};

/// What `configuration` collects and on which modules, as a configurations
/// file lists it for measurement (`name`, `groups`, `metrics`, and `modules`
/// when not every module); its measured costs are left out. A table parses
/// it back into the same configuration.
llvm::json::Value toJSON(const ProfileConfiguration &configuration);

/// One kernel's features and outcomes.
struct KernelOutcomes {
  std::string name;
  /// The program the kernel belongs to: variants of one program never
  /// straddle the train/held-out split.
  std::string program;
  /// The module (file stem) it came from: "module", else its name up to
  /// the '/'.
  std::string module;
  llvm::StringMap<double> features;
  /// Verified speedup per configuration name (absent: not measured).
  llvm::StringMap<double> speedup;
  /// Whether an outcome was measured with `configuration` (all that the
  /// learner reads of a held-out kernel while it learns).
  bool isMeasured(llvm::StringRef configuration) const {
    return speedup.contains(configuration);
  }
  /// The speedups a search of each smaller budget reached ("speedup_at":
  /// the first candidates of the table's search).
  std::map<int64_t, llvm::StringMap<double>> speedupAt;
};

/// The outcomes of a corpus.
struct OutcomeTable {
  std::string provenance;
  int64_t budget = 0;
  std::vector<ProfileConfiguration> configurations;
  std::vector<KernelOutcomes> kernels;

  /// The configuration named `name`, or null.
  const ProfileConfiguration *lookup(llvm::StringRef name) const;
  /// The configuration that collects exactly these groups and metrics (in
  /// any order), or null.
  const ProfileConfiguration *find(llvm::ArrayRef<std::string> groups,
                                   llvm::ArrayRef<std::string> metrics) const;
};

/// Parses a table from JSON text; errors name the offending JSON path.
llvm::Expected<OutcomeTable> parseOutcomeTable(llvm::StringRef text);

/// Reads and parses the table in `path`.
llvm::Expected<OutcomeTable> loadOutcomeTable(llvm::StringRef path);

/// Makes the outcomes and costs of a search of `budget` candidates the
/// table's (`speedup`, each configuration's cost, `budget`), from what it
/// records per budget. Fails, naming the budgets it has, when it records
/// none for `budget`.
llvm::Error selectBudget(OutcomeTable &table, int64_t budget);

/// An error naming the first configuration of `table` that names a group or
/// metric `catalog` does not know, or names one twice (a tree learned from
/// it would not verify), or success.
llvm::Error checkConfigurations(const OutcomeTable &table,
                                const MetricCatalog &catalog);

} // namespace mlir::autoprof::learn

#endif // AUTOPROF_LEARN_OUTCOMETABLE_H
