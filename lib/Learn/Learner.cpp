//===- Learner.cpp - Learn a profiling tree from optimization outcomes ----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/Learner.h"

#include "autoprof/Dialect/AutoProf/IR/TreeEvaluation.h"
#include "autoprof/Learn/ModelTreeProposer.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::learn;
using llvm::json::Array;
using llvm::json::Object;

DataSplit mlir::autoprof::learn::splitByProgram(const OutcomeTable &table,
                                                uint64_t seed,
                                                double heldOutFraction) {
  std::set<std::string> programSet;
  for (const KernelOutcomes &kernel : table.kernels)
    programSet.insert(kernel.program);
  std::vector<std::string> programs(programSet.begin(), programSet.end());
  // Fisher-Yates on mt19937_64's raw outputs, which the C++ standard fixes
  // (std::shuffle's use of them is the library's choice): the same seed
  // splits alike with any standard library.
  std::mt19937_64 random(seed);
  for (size_t i = programs.size(); i > 1; --i)
    std::swap(programs[i - 1], programs[random() % i]);
  size_t heldOut = static_cast<size_t>(
      std::lround(heldOutFraction * static_cast<double>(programs.size())));
  if (programs.size() >= 2)
    heldOut = std::clamp<size_t>(heldOut, 1, programs.size() - 1);
  std::set<std::string> held(programs.begin(), programs.begin() + heldOut);
  DataSplit split;
  for (auto [index, kernel] : llvm::enumerate(table.kernels))
    (held.count(kernel.program) ? split.heldOut : split.train).push_back(index);
  return split;
}

static double costOf(const ProfileConfiguration &configuration,
                     const LearnOptions &options) {
  return options.cost == CostUnit::ReplayPasses ? configuration.costPasses
                                                : configuration.costSeconds;
}

/// What one kernel adds to a score: its log speedup minus the weighted cost.
static double contributionOf(double speedup,
                             const ProfileConfiguration &configuration,
                             const LearnOptions &options) {
  return std::log(speedup) - options.lambda * costOf(configuration, options);
}

/// Adds one kernel's outcome under `configuration` to `score`.
static void addOutcome(TreeScore &score, size_t index,
                       const ProfileConfiguration &configuration,
                       const OutcomeTable &table, const LearnOptions &options) {
  const KernelOutcomes &kernel = table.kernels[index];
  auto it = kernel.speedup.find(configuration.name);
  if (it == kernel.speedup.end()) {
    score.excluded.push_back(kernel.name + ": no outcome measured for '" +
                             configuration.name + "'");
    return;
  }
  score.kernels.push_back(index);
  score.configurations.push_back(configuration.name);
  score.logSpeedups.push_back(std::log(it->second));
  score.costs.push_back(costOf(configuration, options));
  score.meanLogSpeedup += std::log(it->second);
  score.meanCost += costOf(configuration, options);
}

static void finish(TreeScore &score, const LearnOptions &options) {
  if (score.kernels.empty())
    return;
  double n = static_cast<double>(score.kernels.size());
  score.meanLogSpeedup /= n;
  score.meanCost /= n;
  score.score = score.meanLogSpeedup - options.lambda * score.meanCost;
}

TreeEvaluation
mlir::autoprof::learn::evaluateOnKernel(TreeOp tree,
                                        const KernelOutcomes &kernel) {
  return evaluateTree(tree, [&](StringRef name) -> std::optional<double> {
    auto it = kernel.features.find(name);
    if (it == kernel.features.end())
      return std::nullopt;
    return it->second;
  });
}

/// The leaf `tree` reaches for `kernel`.
static CollectOp route(TreeOp tree, const KernelOutcomes &kernel) {
  return evaluateOnKernel(tree, kernel).leaf;
}

static std::vector<std::string> toStrings(ArrayAttr names) {
  std::vector<std::string> strings;
  for (Attribute name : names)
    strings.push_back(cast<StringAttr>(name).getValue().str());
  return strings;
}

TreeScore mlir::autoprof::learn::scoreTree(TreeOp tree,
                                           const OutcomeTable &table,
                                           ArrayRef<size_t> kernels,
                                           const LearnOptions &options) {
  TreeScore score;
  for (size_t index : kernels) {
    CollectOp leaf = route(tree, table.kernels[index]);
    const ProfileConfiguration *configuration =
        leaf ? getLeafConfiguration(leaf, table) : nullptr;
    if (!configuration) {
      score.excluded.push_back(
          table.kernels[index].name + ": leaf " +
          std::to_string(leaf ? leaf.getId() : 0) +
          " collects a configuration the outcome table does not have");
      continue;
    }
    addOutcome(score, index, *configuration, table, options);
  }
  finish(score, options);
  return score;
}

TreeScore mlir::autoprof::learn::scoreConfiguration(
    const ProfileConfiguration &configuration, const OutcomeTable &table,
    ArrayRef<size_t> kernels, const LearnOptions &options) {
  TreeScore score;
  for (size_t index : kernels)
    addOutcome(score, index, configuration, table, options);
  finish(score, options);
  return score;
}

/// Whether a leaf can collect `configuration`.
static bool isCollectable(const ProfileConfiguration &configuration) {
  return !configuration.groups.empty() || !configuration.metrics.empty();
}

const ProfileConfiguration *mlir::autoprof::learn::bestFixedConfiguration(
    const OutcomeTable &table, ArrayRef<size_t> kernels,
    const LearnOptions &options, bool collectableOnly, bool everyModuleOnly,
    ArrayRef<size_t> mustCover) {
  // The configurations measured on the most of `kernels` compete, by their
  // mean score there: a configuration is not preferred for the kernels
  // whose runs failed under it.
  const ProfileConfiguration *best = nullptr;
  size_t bestCoverage = 0;
  double bestMean = 0;
  for (const ProfileConfiguration &configuration : table.configurations) {
    if ((collectableOnly && !isCollectable(configuration)) ||
        (everyModuleOnly && !configuration.modules.empty()))
      continue;
    if (!llvm::all_of(mustCover, [&](size_t index) {
          return table.kernels[index].isMeasured(configuration.name);
        }))
      continue;
    TreeScore score =
        scoreConfiguration(configuration, table, kernels, options);
    size_t coverage = score.kernels.size();
    if (coverage == 0)
      continue;
    if (!best || coverage > bestCoverage ||
        (coverage == bestCoverage && score.score > bestMean)) {
      best = &configuration;
      bestCoverage = coverage;
      bestMean = score.score;
    }
  }
  return best;
}

/// Thresholds at the quartiles of the distinct `values`: each halfway
/// between the distinct value at 25%, 50% or 75% of their sorted list and
/// the next (docs/profiling-tree.md).
static std::vector<double> quantileThresholds(std::vector<double> values) {
  llvm::sort(values);
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::vector<double> thresholds;
  if (values.size() < 2)
    return thresholds;
  for (double q : {0.25, 0.5, 0.75}) {
    size_t i = std::min(values.size() - 2,
                        static_cast<size_t>(q * (values.size() - 1)));
    double midpoint = (values[i] + values[i + 1]) / 2;
    if (thresholds.empty() || thresholds.back() != midpoint)
      thresholds.push_back(midpoint);
  }
  return thresholds;
}

std::vector<TreeEdit> mlir::autoprof::learn::enumerateEdits(
    TreeOp tree, const OutcomeTable &table, ArrayRef<size_t> kernels,
    const LearnOptions &options, ArrayRef<size_t> heldOut) {
  // The training kernels each node sees.
  std::map<int64_t, std::vector<size_t>> atLeaf;
  for (size_t index : kernels)
    if (CollectOp leaf = route(tree, table.kernels[index]))
      atLeaf[leaf.getId()].push_back(index);
  // The held-out kernels each leaf sees that have an outcome under its
  // configuration: a split must leave them one.
  std::map<int64_t, std::vector<size_t>> heldAtLeaf;
  for (size_t index : heldOut)
    if (CollectOp leaf = route(tree, table.kernels[index]))
      if (const ProfileConfiguration *current =
              getLeafConfiguration(leaf, table);
          current && table.kernels[index].isMeasured(current->name))
        heldAtLeaf[leaf.getId()].push_back(index);

  std::vector<TreeEdit> edits;
  for (auto &[id, reaching] : atLeaf) {
    auto leaf = cast<CollectOp>(findTreeNode(tree, id));
    const ProfileConfiguration *current = getLeafConfiguration(leaf, table);
    // REWRITE: every other configuration a leaf can collect (a leaf that
    // collects nothing is not a valid tree node).
    for (const ProfileConfiguration &configuration : table.configurations) {
      if (&configuration == current || !isCollectable(configuration))
        continue;
      TreeEdit edit;
      edit.kind = TreeEditKind::RewriteLeaf;
      edit.node = id;
      edit.configuration = configuration.name;
      edits.push_back(edit);
    }
    // SPLIT: a feature at a quantile of its values among these kernels,
    // each side collecting what is best for its kernels.
    std::set<std::string> features;
    for (size_t index : reaching)
      for (const auto &entry : table.kernels[index].features)
        features.insert(entry.getKey().str());
    for (const std::string &feature : features) {
      std::vector<double> values;
      for (size_t index : reaching)
        if (auto it = table.kernels[index].features.find(feature);
            it != table.kernels[index].features.end())
          values.push_back(it->second);
      for (double threshold : quantileThresholds(values)) {
        // The split's sides, as the tree would route kernels (a missing
        // feature goes to the else side).
        auto side = [&](ArrayRef<size_t> indices, std::vector<size_t> &below,
                        std::vector<size_t> &rest) {
          for (size_t index : indices) {
            auto it = table.kernels[index].features.find(feature);
            bool holds = it != table.kernels[index].features.end() &&
                         it->second < threshold;
            (holds ? below : rest).push_back(index);
          }
        };
        std::vector<size_t> below, rest, heldBelow, heldRest;
        side(reaching, below, rest);
        side(heldAtLeaf[id], heldBelow, heldRest);
        const ProfileConfiguration *thenBest = bestFixedConfiguration(
            table, below, options, /*collectableOnly=*/true,
            /*everyModuleOnly=*/false, heldBelow);
        const ProfileConfiguration *elseBest = bestFixedConfiguration(
            table, rest, options, /*collectableOnly=*/true,
            /*everyModuleOnly=*/false, heldRest);
        if (below.empty() || rest.empty() || !thenBest || !elseBest ||
            thenBest == elseBest)
          continue;
        TreeEdit edit;
        edit.kind = TreeEditKind::SplitLeaf;
        edit.node = id;
        edit.feature = feature;
        edit.comparison = Comparison::lt;
        edit.threshold = threshold;
        edit.thenConfiguration = thenBest->name;
        edit.elseConfiguration = elseBest->name;
        edits.push_back(edit);
      }
    }
  }
  // REWRITE a split's threshold: the quantiles of its feature among the
  // kernels that reach it.
  // Each kernel is evaluated once; its decisions give every split on its
  // path a value.
  std::map<int64_t, std::vector<double>> valuesAt;
  for (size_t index : kernels)
    for (const TreeDecision &decision :
         evaluateOnKernel(tree, table.kernels[index]).decisions)
      if (decision.value)
        valuesAt[SplitOp(decision.split).getId()].push_back(*decision.value);
  tree.walk([&](SplitOp split) {
    std::vector<double> values = valuesAt[split.getId()];
    for (double threshold : quantileThresholds(values)) {
      if (threshold == split.getThreshold().convertToDouble())
        continue;
      TreeEdit edit;
      edit.kind = TreeEditKind::RewriteSplit;
      edit.node = split.getId();
      edit.feature = split.getFeature().str();
      edit.comparison = split.getComparison();
      edit.threshold = threshold;
      edits.push_back(edit);
    }
  });
  return edits;
}

std::vector<ProfileConfiguration> mlir::autoprof::learn::wantedConfigurations(
    TreeOp tree, const OutcomeTable &table, ArrayRef<std::string> groups) {
  // The modules whose kernels reach each leaf: a configuration one step from
  // a leaf can only change what those kernels collect.
  std::map<int64_t, std::set<std::string>> leafModules;
  std::set<std::string> allModules;
  for (const KernelOutcomes &kernel : table.kernels) {
    allModules.insert(kernel.module);
    if (CollectOp leaf = evaluateOnKernel(tree, kernel).leaf)
      leafModules[leaf.getId()].insert(kernel.module);
  }
  std::vector<ProfileConfiguration> wanted;
  auto same = [](const std::vector<std::string> &a,
                 const std::vector<std::string> &b) {
    return std::set<std::string>(a.begin(), a.end()) ==
           std::set<std::string>(b.begin(), b.end());
  };
  // Wants the configuration of these groups and metrics on `modules`, but
  // for those the table measured it on (under the table's name where it
  // has it on some); one already wanted from another leaf is wanted on the
  // modules of both.
  auto want = [&](std::string name, std::vector<std::string> g,
                  std::vector<std::string> m, std::set<std::string> modules) {
    if ((g.empty() && m.empty()) || modules.empty())
      return;
    if (const ProfileConfiguration *found = table.find(g, m)) {
      if (found->modules.empty())
        return;
      for (const std::string &module : found->modules)
        modules.erase(module);
      if (modules.empty())
        return;
      name = found->name;
    }
    for (ProfileConfiguration &known : wanted)
      if (same(known.groups, g) && same(known.metrics, m)) {
        modules.insert(known.modules.begin(), known.modules.end());
        known.modules.assign(modules.begin(), modules.end());
        return;
      }
    ProfileConfiguration configuration;
    configuration.name = std::move(name);
    configuration.groups = std::move(g);
    configuration.metrics = std::move(m);
    configuration.modules.assign(modules.begin(), modules.end());
    wanted.push_back(std::move(configuration));
  };
  tree.walk([&](CollectOp leaf) {
    std::set<std::string> modules = leafModules[leaf.getId()];
    std::vector<std::string> leafGroups = toStrings(leaf.getGroups());
    std::vector<std::string> leafMetrics = toStrings(leaf.getMetrics());
    const ProfileConfiguration *current = getLeafConfiguration(leaf, table);
    std::string base =
        current ? current->name : "leaf" + std::to_string(leaf.getId());
    if (!current)
      want(base, leafGroups, leafMetrics, modules);
    for (const std::string &group : groups) {
      if (llvm::is_contained(leafGroups, group))
        continue;
      std::vector<std::string> more = leafGroups;
      more.push_back(group);
      want(base + "+" + group, std::move(more), leafMetrics, modules);
    }
    for (const std::string &group : leafGroups) {
      std::vector<std::string> fewer;
      for (const std::string &other : leafGroups)
        if (other != group)
          fewer.push_back(other);
      want(base + "-" + group, std::move(fewer), leafMetrics, modules);
    }
  });
  // Wanted on every module: no list.
  for (ProfileConfiguration &configuration : wanted)
    if (std::set<std::string>(configuration.modules.begin(),
                              configuration.modules.end()) == allModules)
      configuration.modules.clear();
  return wanted;
}

/// The per-kernel score differences `after - before`, by kernel, on the
/// kernels both scored: with `withinNoiseAsSame`, a log speedup that moved
/// by no more than the timing noise band (LearnOptions::timingNoise) counts
/// as unchanged; the weighted cost difference always counts.
static std::map<size_t, double> differences(const TreeScore &before,
                                            const TreeScore &after,
                                            const LearnOptions &options,
                                            bool withinNoiseAsSame = true) {
  std::map<size_t, std::pair<double, double>> old;
  for (size_t i = 0; i < before.kernels.size(); ++i)
    old[before.kernels[i]] = {before.logSpeedups[i], before.costs[i]};
  std::map<size_t, double> result;
  for (size_t i = 0; i < after.kernels.size(); ++i) {
    auto it = old.find(after.kernels[i]);
    if (it == old.end())
      continue;
    double outcome = after.logSpeedups[i] - it->second.first;
    if (withinNoiseAsSame && std::abs(outcome) <= options.timingNoise)
      outcome = 0;
    result[after.kernels[i]] =
        outcome - options.lambda * (after.costs[i] - it->second.second);
  }
  return result;
}

/// The mean of `differences`' values (0 for none).
static double meanOf(const std::map<size_t, double> &differences) {
  double sum = 0;
  for (const auto &entry : differences)
    sum += entry.second;
  return differences.empty() ? 0
                             : sum / static_cast<double>(differences.size());
}

bool mlir::autoprof::learn::reachesMoreBeyondNoise(
    const TreeScore &better, const TreeScore &worse, const OutcomeTable &table,
    const LearnOptions &options) {
  LearnOptions outcomesOnly = options;
  outcomesOnly.lambda = 0;
  std::map<size_t, double> banded = differences(worse, better, outcomesOnly);
  // As measured, the mean must not fall either: a loss within the band on
  // every kernel is not made up by taking each loss for none.
  if (banded.empty() || meanOf(differences(worse, better, outcomesOnly,
                                           /*withinNoiseAsSame=*/false)) < 0)
    return false;
  std::mt19937_64 random(options.seed);
  return bootstrapMeanQuantile(banded, table, options.bootstrapSamples,
                               1 - options.confidence, random) > 0;
}

/// The kernels `before` scored that `after` does not: an edit that leaves
/// them without a measured outcome cannot be compared on them.
static std::vector<size_t> unscoredAfter(const TreeScore &before,
                                         const TreeScore &after) {
  std::set<size_t> scored(after.kernels.begin(), after.kernels.end());
  std::vector<size_t> lost;
  for (size_t index : before.kernels)
    if (!scored.count(index))
      lost.push_back(index);
  return lost;
}

double mlir::autoprof::learn::bootstrapMeanQuantile(
    const std::map<size_t, double> &differences, const OutcomeTable &table,
    unsigned samples, double quantile, std::mt19937_64 &random) {
  if (differences.empty())
    return 0;
  std::map<std::string, std::pair<double, size_t>> byProgram;
  for (auto [index, difference] : differences) {
    auto &[sum, count] = byProgram[table.kernels[index].program];
    sum += difference;
    ++count;
  }
  std::vector<std::pair<double, size_t>> programs;
  for (const auto &entry : byProgram)
    programs.push_back(entry.second);
  std::vector<double> means;
  for (unsigned s = 0; s < samples; ++s) {
    double sum = 0;
    size_t count = 0;
    for (size_t i = 0; i < programs.size(); ++i) {
      const auto &program = programs[random() % programs.size()];
      sum += program.first;
      count += program.second;
    }
    means.push_back(sum / static_cast<double>(count));
  }
  llvm::sort(means);
  size_t at = static_cast<size_t>(quantile * (means.size() - 1));
  return means[at];
}

OwningOpRef<ModuleOp> mlir::autoprof::learn::buildSingleLeafTree(
    MLIRContext *context, StringRef name, StringRef chip,
    const ProfileConfiguration &configuration) {
  OpBuilder builder(context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToStart(module->getBody());
  auto tree =
      TreeOp::create(builder, loc, name, chip,
                     builder.getStringAttr("learned by autoprof-learn"));
  builder.setInsertionPointToStart(&tree.getBody().emplaceBlock());
  SmallVector<StringRef> groups(configuration.groups.begin(),
                                configuration.groups.end());
  SmallVector<StringRef> metrics(configuration.metrics.begin(),
                                 configuration.metrics.end());
  CollectOp::create(
      builder, loc, builder.getI64IntegerAttr(1),
      builder.getStrArrayAttr(groups), builder.getStrArrayAttr(metrics),
      StringAttr(),
      builder.getI64IntegerAttr(std::llround(configuration.costPasses)),
      builder.getF64FloatAttr(configuration.costSeconds),
      builder.getStringAttr("start: the best fixed configuration on the "
                            "training kernels"));
  return module;
}

FailureOr<LearnResult>
mlir::autoprof::learn::learnTree(TreeOp start, const OutcomeTable &table,
                                 const LearnOptions &options,
                                 std::string &error) {
  LearnResult result;
  result.split = splitByProgram(table, options.seed, options.heldOutFraction);
  if (result.split.train.empty()) {
    error = "the outcome table has no training kernels";
    return failure();
  }
  // Scores must be numbers: lambda times the largest cost a kernel can be
  // charged is finite.
  for (const ProfileConfiguration &configuration : table.configurations) {
    double charge = options.lambda * costOf(configuration, options);
    if (!(options.lambda >= 0) || !std::isfinite(charge)) {
      error = llvm::formatv("lambda {0:e} times the cost of '{1}' is not a "
                            "finite number",
                            options.lambda, configuration.name);
      return failure();
    }
  }
  OpBuilder builder(start.getContext());
  result.module = ModuleOp::create(start.getLoc());
  builder.setInsertionPointToStart(result.module->getBody());
  result.tree = cast<TreeOp>(builder.clone(*start.getOperation()));
  bool unknownLeaf = false;
  result.tree.walk([&](CollectOp leaf) {
    if (!getLeafConfiguration(leaf, table) && !unknownLeaf) {
      error = "leaf " + std::to_string(leaf.getId()) +
              " of the starting tree collects a configuration the outcome "
              "table does not have";
      unknownLeaf = true;
    }
  });
  if (unknownLeaf)
    return failure();

  std::mt19937_64 random(options.seed);
  IRRewriter rewriter(start.getContext());
  TreeScore current =
      scoreTree(result.tree, table, result.split.train, options);
  // The held-out kernels the current tree has a measured outcome for: an
  // edit must not leave one of them without (a configuration measured on
  // some modules only; wantedConfigurations). Only whether an outcome was
  // measured is read here, never what it is.
  TreeScore currentHeldOut =
      scoreTree(result.tree, table, result.split.heldOut, options);
  // Whether a round decided to stop (else the limit of edits stopped it).
  bool stopped = false;
  for (unsigned round = 0; round < options.maxEdits; ++round) {
    Array proposals;
    // The best proposal so far: what it is, its tree and its score.
    std::string bestName;
    OwningOpRef<ModuleOp> bestModule;
    TreeScore bestScore;
    double bestMean = 0;
    auto consider = [&](std::string name, OwningOpRef<ModuleOp> trial,
                        Object entry) {
      TreeOp trialTree = *trial->getOps<TreeOp>().begin();
      TreeScore score =
          scoreTree(trialTree, table, result.split.train, options);
      // A tree that sends a kernel the current one scores to a
      // configuration never measured for it would gain by dropping that
      // kernel from its mean: such a proposal is refused.
      // The same holds for the held-out kernels, of which only whether an
      // outcome was measured is read.
      std::vector<size_t> lost = unscoredAfter(current, score);
      StringRef which = "training";
      if (lost.empty()) {
        lost = unscoredAfter(
            currentHeldOut,
            scoreTree(trialTree, table, result.split.heldOut, options));
        which = "held-out";
      }
      if (!lost.empty()) {
        entry["rejected"] =
            std::to_string(lost.size()) + " " + which.str() + " kernel" +
            (lost.size() == 1 ? "" : "s") +
            " the current tree scores would have no measured outcome (" +
            table.kernels[lost.front()].name +
            (lost.size() == 1 ? "" : ", ...") +
            "): measure the configurations it collects for them first";
        proposals.push_back(std::move(entry));
        return;
      }
      double mean = meanOf(differences(current, score, options));
      // Zeroing what moved within the band is fair to an edit only where
      // the moves cancel out: one that is a little slower on every kernel
      // and saves a little profiling must not pass as a gain. The score as
      // measured must not fall.
      double measured = meanOf(differences(current, score, options, false));
      entry["train_score"] = score.score;
      entry["mean_improvement"] = mean;
      entry["measured_improvement"] = measured;
      proposals.push_back(std::move(entry));
      // Written so that a score that is not a number is no improvement.
      if (!(measured >= 0))
        return;
      if (!bestModule || mean > bestMean) {
        bestName = std::move(name);
        bestModule = std::move(trial);
        bestScore = std::move(score);
        bestMean = mean;
      }
    };
    if (options.builtinEdits) {
      for (const TreeEdit &edit :
           enumerateEdits(result.tree, table, result.split.train, options,
                          result.split.heldOut)) {
        // Each proposal is tried on a copy of the tree.
        OwningOpRef<ModuleOp> trial = result.module->clone();
        auto trialTree = *trial->getOps<TreeOp>().begin();
        std::string why;
        // A proposal that does not verify is logged with the verifier's
        // words.
        ScopedDiagnosticHandler capture(start.getContext(),
                                        [&](Diagnostic &diagnostic) {
                                          why = diagnostic.str();
                                          return success();
                                        });
        if (failed(applyTreeEdit(rewriter, trialTree, edit, table, why)) ||
            failed(verify(trialTree))) {
          proposals.push_back(
              Object{{"edit", edit.describe()},
                     {"rejected", why.empty() ? "does not verify" : why}});
          continue;
        }
        consider(edit.describe(), std::move(trial),
                 Object{{"edit", edit.describe()}});
      }
    }
    if (options.model) {
      llvm::Expected<ModelProposal> proposal = proposeTreeWithModel(
          *options.model, result.tree, table, result.split.train, options);
      if (!proposal) {
        proposals.push_back(
            Object{{"edit", "model proposal"},
                   {"rejected", llvm::toString(proposal.takeError())}});
      } else {
        std::string name =
            "model proposal (round " + std::to_string(round + 1) + ")";
        adoptProposedTree(rewriter, proposal->tree, result.tree, table, name);
        std::string text;
        llvm::raw_string_ostream os(text);
        proposal->tree.print(os);
        Array rejections;
        for (const std::string &reason : proposal->rejections)
          rejections.push_back(reason);
        consider(name, std::move(proposal->module),
                 Object{{"edit", name},
                        {"tree", text},
                        {"repaired", proposal->repaired},
                        {"rejected_answers", std::move(rejections)}});
      }
    }
    Object entry{{"round", round + 1},
                 {"train_score", current.score},
                 {"proposals", std::move(proposals)}};
    if (!bestModule || !(bestMean > 0)) {
      entry["decision"] = "stop: no edit improves the training score";
      result.log.push_back(std::move(entry));
      stopped = true;
      break;
    }
    double lower = bootstrapMeanQuantile(
        differences(current, bestScore, options), table,
        options.bootstrapSamples, 1 - options.confidence, random);
    entry["best"] = bestName;
    entry["bootstrap_lower_bound"] = lower;
    entry["timing_noise"] = options.timingNoise;
    if (!(lower > 0)) {
      entry["decision"] = "stop: the best edit is within the noise";
      result.log.push_back(std::move(entry));
      stopped = true;
      break;
    }
    result.module = std::move(bestModule);
    result.tree = *result.module->getOps<TreeOp>().begin();
    entry["decision"] = "accepted " + bestName;
    result.log.push_back(std::move(entry));
    current = std::move(bestScore);
    currentHeldOut =
        scoreTree(result.tree, table, result.split.heldOut, options);
  }
  // Stopped by the limit, not by a decision: said in the log too.
  if (!stopped)
    result.log.push_back(Object{
        {"round", options.maxEdits + 1},
        {"train_score", current.score},
        {"proposals", Array()},
        {"decision",
         llvm::formatv("stop: the limit of {0} edit{1} is reached",
                       options.maxEdits, options.maxEdits == 1 ? "" : "s")
             .str()}});
  result.train = current;
  result.heldOut = scoreTree(result.tree, table, result.split.heldOut, options);
  return result;
}

llvm::StringRef mlir::autoprof::learn::getHeldOutKindName(HeldOutKind kind) {
  switch (kind) {
  case HeldOutKind::Fixed:
    return "fixed";
  case HeldOutKind::BestFixed:
    return "best-fixed";
  case HeldOutKind::Learned:
    return "learned";
  case HeldOutKind::Oracle:
    return "oracle";
  }
  return "fixed";
}

std::vector<HeldOutRow>
mlir::autoprof::learn::compareHeldOut(const LearnResult &result,
                                      const OutcomeTable &table,
                                      const LearnOptions &options) {
  ArrayRef<size_t> heldOut = result.split.heldOut;
  std::vector<HeldOutRow> rows;
  // A configuration measured on some modules only (one step from a leaf,
  // wantedConfigurations) is no fixed configuration of the corpus: as a row
  // it would narrow the kernels every row is compared on to its modules.
  // The oracle still picks it where it was measured.
  for (const ProfileConfiguration &configuration : table.configurations)
    if (configuration.modules.empty())
      rows.push_back(
          {HeldOutKind::Fixed, configuration.name,
           scoreConfiguration(configuration, table, heldOut, options)});
  if (const ProfileConfiguration *best = bestFixedConfiguration(
          table, result.split.train, options, /*collectableOnly=*/false,
          /*everyModuleOnly=*/true))
    rows.push_back({HeldOutKind::BestFixed, best->name,
                    scoreConfiguration(*best, table, heldOut, options)});
  rows.push_back({HeldOutKind::Learned, "", result.heldOut});
  // The oracle picks each kernel's best measured configuration.
  TreeScore oracle;
  for (size_t index : heldOut) {
    const ProfileConfiguration *best = nullptr;
    double bestContribution = 0;
    for (const ProfileConfiguration &configuration : table.configurations) {
      auto it = table.kernels[index].speedup.find(configuration.name);
      if (it == table.kernels[index].speedup.end())
        continue;
      double contribution = contributionOf(it->second, configuration, options);
      if (!best || contribution > bestContribution) {
        best = &configuration;
        bestContribution = contribution;
      }
    }
    if (best)
      addOutcome(oracle, index, *best, table, options);
  }
  finish(oracle, options);
  rows.push_back({HeldOutKind::Oracle, "", std::move(oracle)});

  // Every row is compared on the kernels all rows scored: a mean over other
  // kernels (those a configuration's failed runs left out) would compare
  // different things.
  // A row that scored none of them (a configuration measured on no held-out
  // kernel) is shown with none rather than emptying every other row.
  std::set<size_t> common(heldOut.begin(), heldOut.end());
  for (const HeldOutRow &row : rows) {
    if (row.score.kernels.empty())
      continue;
    std::set<size_t> scored(row.score.kernels.begin(), row.score.kernels.end());
    for (auto it = common.begin(); it != common.end();)
      it = scored.count(*it) ? std::next(it) : common.erase(it);
  }
  for (HeldOutRow &row : rows) {
    TreeScore restricted;
    restricted.excluded = row.score.excluded;
    for (auto [index, configuration] :
         llvm::zip_equal(row.score.kernels, row.score.configurations)) {
      if (common.count(index))
        addOutcome(restricted, index, *table.lookup(configuration), table,
                   options);
      else
        restricted.excluded.push_back(
            table.kernels[index].name +
            ": left out of the comparison, another row has no outcome "
            "for it");
    }
    finish(restricted, options);
    row.score = std::move(restricted);
  }
  return rows;
}

llvm::json::Object
mlir::autoprof::learn::evaluationToJSON(const LearnResult &result,
                                        const OutcomeTable &table,
                                        const LearnOptions &options) {
  auto names = [&](ArrayRef<size_t> kernels) {
    llvm::json::Array list;
    for (size_t index : kernels)
      list.push_back(table.kernels[index].name);
    return list;
  };
  llvm::json::Array rows;
  std::vector<HeldOutRow> compared = compareHeldOut(result, table, options);
  for (const HeldOutRow &row : compared) {
    llvm::json::Array excluded;
    for (const std::string &note : row.score.excluded)
      excluded.push_back(note);
    // Which configuration each kernel was scored with (the learned tree's
    // leaves and the oracle's picks differ from kernel to kernel).
    llvm::json::Object collected;
    for (auto [index, configuration] :
         llvm::zip_equal(row.score.kernels, row.score.configurations))
      collected[table.kernels[index].name] = configuration;
    llvm::json::Object entry{{"kind", getHeldOutKindName(row.kind)},
                             {"score", row.score.score},
                             {"mean_log_speedup", row.score.meanLogSpeedup},
                             {"mean_cost", row.score.meanCost},
                             {"kernels", names(row.score.kernels)},
                             {"configurations", std::move(collected)},
                             {"excluded", std::move(excluded)}};
    if (!row.configuration.empty())
      entry["configuration"] = row.configuration;
    // The rows this one reaches more than beyond the noise, by index.
    llvm::json::Array beats;
    for (auto [index, other] : llvm::enumerate(compared))
      if (&other != &row &&
          reachesMoreBeyondNoise(row.score, other.score, table, options))
        beats.push_back(static_cast<int64_t>(index));
    entry["beats"] = std::move(beats);
    rows.push_back(std::move(entry));
  }
  // What each configuration cost in the scores above: the table's costs
  // at the budget learned from.
  llvm::json::Object costs;
  for (const ProfileConfiguration &configuration : table.configurations)
    costs[configuration.name] =
        llvm::json::Object{{"passes", configuration.costPasses},
                           {"seconds", configuration.costSeconds}};
  return llvm::json::Object{
      {"seed", static_cast<int64_t>(options.seed)},
      {"held_out_fraction", options.heldOutFraction},
      {"lambda", options.lambda},
      {"cost", options.cost == CostUnit::Seconds ? "seconds" : "passes"},
      {"timing_noise", options.timingNoise},
      {"confidence", options.confidence},
      {"budget", table.budget},
      {"costs", std::move(costs)},
      {"train_kernels", names(result.split.train)},
      {"held_out_kernels", names(result.split.heldOut)},
      {"train_score", result.train.score},
      {"rows", std::move(rows)}};
}

std::string
mlir::autoprof::learn::summarizeHeldOut(const LearnResult &result,
                                        const OutcomeTable &table,
                                        const LearnOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "| profiling | held-out score | mean log speedup | mean cost | "
        "kernels |\n| --- | --- | --- | --- | --- |\n";
  for (const HeldOutRow &row : compareHeldOut(result, table, options)) {
    std::string name;
    switch (row.kind) {
    case HeldOutKind::Fixed:
      name = row.configuration;
      break;
    case HeldOutKind::BestFixed:
      name = "best fixed on train (" + row.configuration + ")";
      break;
    case HeldOutKind::Learned:
      name = "learned tree";
      break;
    case HeldOutKind::Oracle:
      name = "per-kernel oracle";
      break;
    }
    os << llvm::formatv("| {0} | {1:F4} | {2:F4} | {3:F2} | {4} |\n", name,
                        row.score.score, row.score.meanLogSpeedup,
                        row.score.meanCost, row.score.kernels.size());
  }
  return text;
}
