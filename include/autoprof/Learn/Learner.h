//===- Learner.h - Learn a profiling tree from outcomes ---------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Tree learning over an outcome table: a seeded split of the kernels into
// training and held-out sets by program; the score of a tree on a set of
// kernels, mean log speedup minus lambda times the mean profiling cost of
// what the tree collects for them; a deterministic enumerator of REWRITE and
// SPLIT edits (thresholds at quantiles of a feature among a leaf's kernels,
// leaves set to the configuration that scores best on their kernels); and a
// greedy search that accepts the best edit only when a seeded bootstrap over
// the training kernels says the improvement is beyond the noise (more than
// the timing noise, at the given confidence). Every
// proposal, score and decision goes to a JSON log.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_LEARNER_H
#define AUTOPROF_LEARN_LEARNER_H

#include "autoprof/Dialect/AutoProf/IR/TreeEvaluation.h"
#include "autoprof/Learn/OutcomeTable.h"
#include "autoprof/Learn/TreeEdits.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <map>
#include <random>
#include <vector>

namespace autoprof::llm {
class ChatClient;
} // namespace autoprof::llm

namespace mlir::autoprof::learn {

/// Which profiling cost the score charges.
enum class CostUnit { ReplayPasses, Seconds };

/// Knobs of the search; the same options and table give the same tree.
struct LearnOptions {
  uint64_t seed = 1;
  /// Fraction of the programs held out (at least one program each side).
  double heldOutFraction = 0.3;
  /// Score = mean log speedup - lambda * mean cost.
  double lambda = 0.01;
  CostUnit cost = CostUnit::ReplayPasses;
  unsigned maxEdits = 8;
  unsigned bootstrapSamples = 1000;
  /// An edit is accepted when the bootstrap quantile 1 - confidence of its
  /// mean improvement over the training kernels (timing noise taken out,
  /// below) is above zero and the training score as measured does not fall.
  double confidence = 0.9;
  /// The timing noise band, in log speedup: log(1.01), the 1% within which
  /// the search itself takes two timings of one kernel for the same
  /// (lib/Optimizer/SearchDriver.cpp). A kernel whose log speedup under an
  /// edited tree differs from the current tree's by no more than this
  /// reaches the same under both; only its profiling cost, which is not
  /// measured noise, still differs. An outcome measured once per kernel and
  /// configuration moves by that much without any cause, and an edit that
  /// picks, among configurations that reach the same, the one whose timings
  /// came out a little ahead on the training kernels would learn the noise.
  /// The band is per kernel, not on the mean: an edit that makes a few
  /// kernels faster beyond it, and no other slower, is an improvement
  /// however many kernels it leaves alone, as long as the bootstrap over
  /// programs finds those kernels often enough (with 20 training programs
  /// of which 3 gain, a resample misses all three 4% of the time).
  double timingNoise = std::log(1.01);
  /// Whether the built-in enumerator proposes edits.
  bool builtinEdits = true;
  /// When set, a chat model also proposes a whole tree each round
  /// (ModelTreeProposer.h); it competes with the enumerated edits.
  const ::autoprof::llm::ChatClient *model = nullptr;
};

/// Indices into OutcomeTable::kernels.
struct DataSplit {
  std::vector<size_t> train, heldOut;
};

/// Splits the kernels by program, seeded; each side gets at least one
/// program when there are two.
DataSplit splitByProgram(const OutcomeTable &table, uint64_t seed,
                         double heldOutFraction);

/// Evaluates `tree` on the features `kernel` records in the table.
TreeEvaluation evaluateOnKernel(TreeOp tree, const KernelOutcomes &kernel);

/// A tree's score on a set of kernels.
struct TreeScore {
  double score = 0, meanLogSpeedup = 0, meanCost = 0;
  /// The scored kernels (indices into the table's).
  std::vector<size_t> kernels;
  /// Per scored kernel: the configuration it was scored with, the log of
  /// its speedup there and the cost charged for it.
  std::vector<std::string> configurations;
  std::vector<double> logSpeedups, costs;
  /// Kernels left out, each with the reason (a leaf outside the table, an
  /// outcome never measured).
  std::vector<std::string> excluded;
};

/// Scores `tree` on `kernels` of `table`.
TreeScore scoreTree(TreeOp tree, const OutcomeTable &table,
                    llvm::ArrayRef<size_t> kernels,
                    const LearnOptions &options);

/// Scores collecting one configuration for every kernel.
TreeScore scoreConfiguration(const ProfileConfiguration &configuration,
                             const OutcomeTable &table,
                             llvm::ArrayRef<size_t> kernels,
                             const LearnOptions &options);

/// The configuration that scores best when collected for every kernel of
/// `kernels`: among those measured on the most of them, the best mean score
/// there (earlier in the table on ties); null when none was measured on any.
/// With `collectableOnly`, only configurations a leaf can collect compete
/// (not "none", which collects nothing); with `everyModuleOnly`, only those
/// measured on every module (not one with `modules`, which a kernel outside
/// them would reach without an outcome: what a fixed configuration for the
/// whole corpus, or a starting tree's one leaf, must not be). Only
/// configurations with a measured outcome for every kernel of `mustCover`
/// compete; of those kernels, nothing but whether an outcome was measured is
/// read.
const ProfileConfiguration *bestFixedConfiguration(
    const OutcomeTable &table, llvm::ArrayRef<size_t> kernels,
    const LearnOptions &options, bool collectableOnly = true,
    bool everyModuleOnly = false, llvm::ArrayRef<size_t> mustCover = {});

/// The edits worth trying on `tree` given the training kernels, in a
/// deterministic order. A SPLIT gives each side the best configuration for
/// its training kernels among those measured for the kernels of `heldOut`
/// that would reach it and have an outcome under the leaf's configuration
/// now (whether one was measured is all that is read of them), so that the
/// edit leaves no held-out kernel without an outcome.
std::vector<TreeEdit> enumerateEdits(TreeOp tree, const OutcomeTable &table,
                                     llvm::ArrayRef<size_t> kernels,
                                     const LearnOptions &options,
                                     llvm::ArrayRef<size_t> heldOut = {});

/// Whether `better` reaches more than `worse` beyond the timing noise, on
/// the kernels both scored, costs aside: each kernel's difference of log
/// speedups, taken as none within `options.timingNoise`, has the 1 -
/// `options.confidence` quantile of its bootstrapped mean
/// (bootstrapMeanQuantile, `options.bootstrapSamples` draws from a
/// generator seeded with `options.seed`) above zero, and the mean of the
/// differences as measured is not below zero. The rule by which the learner
/// accepts an edit, without its cost term: what the held-out comparison
/// (evaluationToJSON, "beats") judges rows by.
bool reachesMoreBeyondNoise(const TreeScore &better, const TreeScore &worse,
                            const OutcomeTable &table,
                            const LearnOptions &options);

/// The `quantile` of the bootstrapped mean of `differences` (kernel index
/// into `table` -> score difference), resampling programs rather than
/// kernels: the variants of one program (its mappings) are near copies of
/// each other, and counting them as independent draws would make the
/// interval too narrow. Each resample draws as many programs as there are,
/// with replacement, and takes the mean over the kernels they bring. Draws
/// use mt19937_64's raw outputs, which the standard fixes, so the same seed
/// gives the same bound with any standard library. 0 when `differences` is
/// empty.
double bootstrapMeanQuantile(const std::map<size_t, double> &differences,
                             const OutcomeTable &table, unsigned samples,
                             double quantile, std::mt19937_64 &random);

/// A learned tree, in its own module, and how it was learned.
struct LearnResult {
  OwningOpRef<ModuleOp> module;
  TreeOp tree;
  DataSplit split;
  TreeScore train, heldOut;
  /// One entry per round: every proposal with its score, the decision.
  llvm::json::Array log;
};

/// Learns from `start` (copied; every leaf must collect a configuration of
/// the table) on the training kernels of `table`.
FailureOr<LearnResult> learnTree(TreeOp start, const OutcomeTable &table,
                                 const LearnOptions &options,
                                 std::string &error);

/// What a row of the held-out comparison scores.
enum class HeldOutKind {
  /// One configuration for every kernel.
  Fixed,
  /// The configuration that scores best on the training kernels ("none"
  /// included).
  BestFixed,
  /// The learned tree.
  Learned,
  /// Each kernel's best configuration.
  Oracle,
};

/// The name of `kind` in the evaluation's JSON: "fixed", "best-fixed",
/// "learned" or "oracle".
llvm::StringRef getHeldOutKindName(HeldOutKind kind);

/// One row of the held-out comparison.
struct HeldOutRow {
  HeldOutKind kind;
  /// The configuration of a fixed or best-fixed row.
  std::string configuration;
  TreeScore score;
};

/// The held-out kernels' scores under every fixed configuration (one
/// measured on every module: not one of a table's configurations with
/// `modules`), the best
/// fixed configuration on the training kernels, the learned tree and the
/// per-kernel oracle (each kernel's best score: log speedup - lambda x
/// cost), in that order; every row on the held-out kernels all rows scored,
/// the others noted among its exclusions.
std::vector<HeldOutRow> compareHeldOut(const LearnResult &result,
                                       const OutcomeTable &table,
                                       const LearnOptions &options);

/// The evaluation of a learning run as JSON (`autoprof-learn
/// --evaluation`): the options that decided it (the timing noise and the
/// confidence that judge "beats" among them), the search budget of the
/// outcomes and each configuration's cost at it, the training and held-out
/// kernels by name, the training score and compareHeldOut's rows, each
/// with its score, mean log speedup, mean cost, the kernels it scored,
/// those it left out with the reason and the rows it reaches more than
/// beyond the noise ("beats", their indices; reachesMoreBeyondNoise).
llvm::json::Object evaluationToJSON(const LearnResult &result,
                                    const OutcomeTable &table,
                                    const LearnOptions &options);

/// A Markdown table of the held-out kernels' scores: every fixed
/// configuration, the best fixed configuration on the training kernels, the
/// learned tree and the per-kernel oracle (the best configuration of each
/// kernel), with mean log speedup, mean cost and kernels scored.
std::string summarizeHeldOut(const LearnResult &result,
                             const OutcomeTable &table,
                             const LearnOptions &options);

/// The configurations one step away from what the leaves of `tree` collect
/// that `table` has not measured: a leaf's own configuration when the table
/// lacks it, each group of `groups` (the catalog's) added to a leaf's
/// configuration, and each of its groups taken away (unless nothing would be
/// left). Named after the leaf's configuration
/// ("MemoryWorkloadAnalysis+Occupancy", "all-sections-InstructionStats");
/// in leaf order, then group order, each once. Each is wanted only on the
/// modules whose kernels of `table` reach its leaf (`modules`, left empty
/// where that is every module; one wanted from several leaves, on all of
/// theirs), and a leaf no kernel reaches wants nothing: the kernels of
/// other leaves would not collect it. A configuration the table measured
/// on some modules only is wanted, under its name, on the leaf's others.
/// Measuring them (scripts/measure-outcomes.py --extend) lets the next
/// round of learning try them.
std::vector<ProfileConfiguration>
wantedConfigurations(TreeOp tree, const OutcomeTable &table,
                     llvm::ArrayRef<std::string> groups);

/// A tree with one leaf collecting `configuration`, in its own module.
OwningOpRef<ModuleOp>
buildSingleLeafTree(MLIRContext *context, StringRef name, StringRef chip,
                    const ProfileConfiguration &configuration);

} // namespace mlir::autoprof::learn

#endif // AUTOPROF_LEARN_LEARNER_H
