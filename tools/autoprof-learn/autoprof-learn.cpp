//===- autoprof-learn.cpp - Learn a profiling tree from outcomes ----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/InitAll.h"
#include "autoprof/LLM/ChatClient.h"
#include "autoprof/Learn/Learner.h"
#include "autoprof/Profiling/MetricCatalog.h"
#include "autoprof/Transforms/ProfileSelection.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::learn;
namespace cl = llvm::cl;

static cl::OptionCategory learnCategory("autoprof-learn options");

static cl::opt<std::string> outcomesPath(
    cl::cat(learnCategory), "outcomes",
    cl::desc("Outcome table (JSON): per kernel, the speedup reached with "
             "each profiling configuration"));
static cl::opt<std::string> printTree(
    cl::cat(learnCategory), "print-tree", cl::value_desc("file"),
    cl::desc("Print the profiling tree of a file (the one --tree names when "
             "it holds several; the shipped starting tree for '-') as JSON, "
             "and exit"));
static cl::opt<std::string> printCatalog(
    cl::cat(learnCategory), "print-catalog", cl::value_desc("chip"),
    cl::desc("Print the metric catalog of a chip (sm_90) as JSON, the "
             "groups a tree can collect and every metric with its unit and "
             "meaning, and exit"));
static cl::opt<std::string>
    startPath(cl::cat(learnCategory), "start",
              cl::desc("Starting tree (default: one leaf with the "
                       "best fixed configuration on the training "
                       "kernels)"));
static cl::opt<std::string> treeName(cl::cat(learnCategory), "tree",
                                     cl::desc("Tree to start from when the "
                                              "starting file holds several"));
static cl::opt<std::string> outputPath(cl::cat(learnCategory), "o",
                                       cl::init("-"),
                                       cl::desc("Learned tree (MLIR)"));
static cl::opt<std::string>
    logPath(cl::cat(learnCategory), "log",
            cl::desc("Write every proposal, score and decision here "
                     "(JSON)"));
static cl::opt<std::string> wantedPath(
    cl::cat(learnCategory), "wanted",
    cl::desc("Write the configurations one step away from the learned "
             "tree's leaves that the table lacks here, each with the "
             "modules whose kernels reach its leaf (JSON, for "
             "scripts/measure-outcomes.py --configurations ... --extend)"));
static cl::opt<std::string> evaluationPath(
    cl::cat(learnCategory), "evaluation",
    cl::desc("Write the held-out comparison here (JSON: every configuration "
             "measured on every module, the best one on the training "
             "kernels, the learned tree and the per-kernel oracle, with the "
             "kernels each scored and the rows each reaches more than "
             "beyond the timing noise)"));
static cl::opt<uint64_t> seed(cl::cat(learnCategory), "seed", cl::init(1),
                              cl::desc("Seed of the split and bootstrap"));
static cl::opt<int64_t> searchBudget(
    cl::cat(learnCategory), "budget", cl::init(0),
    cl::desc("Learn from the outcomes of searches of this many candidates "
             "(the table records them per budget; default: the table's)"));
static cl::opt<double> lambda(cl::cat(learnCategory), "lambda", cl::init(0.01),
                              cl::desc("Weight of the profiling cost"));
static cl::opt<double> timingNoise(
    cl::cat(learnCategory), "timing-noise", cl::init(std::log(1.01)),
    cl::desc("A kernel's log speedup under an edit and before it that "
             "differ by no more than this reach the same (default "
             "log(1.01): the timing's 1%); an edit is accepted when the "
             "bootstrap lower bound of its mean gain is above zero and "
             "the training score as measured does not fall; the held-out "
             "comparison's verdicts on the noise use the same band"));
static cl::opt<double> heldOut(cl::cat(learnCategory), "held-out",
                               cl::init(0.3),
                               cl::desc("Fraction of programs held out"));
static cl::opt<unsigned> maxEdits(cl::cat(learnCategory), "max-edits",
                                  cl::init(8),
                                  cl::desc("Edits to accept at most"));
/// Who proposes edits.
enum class EditProposer { Builtin, Model, Both };
static cl::opt<EditProposer> proposer(
    cl::cat(learnCategory), "proposer", cl::init(EditProposer::Builtin),
    cl::desc("Who proposes edits"),
    cl::values(clEnumValN(EditProposer::Builtin, "builtin",
                          "the enumerator of REWRITE and SPLIT edits"),
               clEnumValN(EditProposer::Model, "llm",
                          "a chat model proposes a whole tree each round"),
               clEnumValN(EditProposer::Both, "both",
                          "both, competing each round")));
static cl::opt<std::string>
    endpoint(cl::cat(learnCategory), "endpoint",
             cl::desc("LLM base URL (default: $OPENAI_BASE_URL / "
                      "$ANTHROPIC_BASE_URL, then "
                      "http://localhost:8000/v1)"));
static cl::opt<std::string> modelName(cl::cat(learnCategory), "model",
                                      cl::desc("LLM model name (default: "
                                               "$OPENAI_MODEL)"));
static cl::opt<std::string>
    apiStyle(cl::cat(learnCategory), "api-style", cl::init("openai"),
             cl::desc("LLM API: openai (chat completions) or anthropic"));
static cl::opt<std::string>
    cacheDir(cl::cat(learnCategory), "cache-dir",
             cl::desc("Cache LLM answers in this directory"));
static cl::opt<bool> replayOnly(cl::cat(learnCategory), "replay-only",
                                cl::desc("Answer LLM requests only from the "
                                         "cache (no network)"));
static cl::opt<CostUnit> costUnit(
    cl::cat(learnCategory), "cost", cl::init(CostUnit::ReplayPasses),
    cl::desc("Profiling cost the score charges"),
    cl::values(clEnumValN(CostUnit::ReplayPasses, "passes", "replay passes"),
               clEnumValN(CostUnit::Seconds, "seconds", "profiling seconds")));

/// A node of a profiling tree (a split or a leaf) and everything below it.
static llvm::json::Value treeNodeToJSON(Operation *node) {
  auto child = [](Region &region) -> llvm::json::Value {
    for (Operation &op : region.front())
      if (isa<SplitOp, CollectOp>(op))
        return treeNodeToJSON(&op);
    return nullptr;
  };
  if (auto split = dyn_cast<SplitOp>(node))
    return llvm::json::Object{
        {"kind", "split"},
        {"id", static_cast<int64_t>(split.getId())},
        {"feature", split.getFeature()},
        {"comparison", stringifyComparison(split.getComparison())},
        {"threshold", split.getThreshold().convertToDouble()},
        {"missing", stringifyBranch(split.getMissing())},
        {"then", child(split.getThenRegion())},
        {"else", child(split.getElseRegion())}};
  auto collect = cast<CollectOp>(node);
  auto strings = [](ArrayAttr array) {
    llvm::json::Array result;
    for (Attribute attr : array)
      result.push_back(cast<StringAttr>(attr).getValue());
    return result;
  };
  llvm::json::Object leaf{{"kind", "collect"},
                          {"id", static_cast<int64_t>(collect.getId())},
                          {"groups", strings(collect.getGroups())},
                          {"metrics", strings(collect.getMetrics())}};
  if (std::optional<StringRef> summary = collect.getSummary())
    leaf["summary"] = *summary;
  return leaf;
}

/// Prints the tree of `file` as JSON to stdout.
static int printProfilingTree(MLIRContext &context, StringRef file) {
  FailureOr<LoadedTree> loaded = loadProfilingTree(
      &context, file == "-" ? "" : file, treeName, UnknownLoc::get(&context));
  if (failed(loaded))
    return 1;
  TreeOp tree = loaded->tree;
  llvm::json::Value root = nullptr;
  for (Operation &op : tree.getBody().front())
    if (isa<SplitOp, CollectOp>(op))
      root = treeNodeToJSON(&op);
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                             {"name", tree.getSymName()},
                                             {"chip", tree.getChip()},
                                             {"root", std::move(root)}}))
               << "\n";
  return 0;
}

/// The metric catalog of `chip`, or null after an error naming the chips
/// that have one (`purpose` says what needed it, or is empty).
static const MetricCatalog *findCatalog(StringRef chip, StringRef purpose) {
  const MetricCatalog *catalog = MetricCatalog::forChip(chip);
  if (!catalog)
    llvm::errs() << "autoprof-learn: no metric catalog for chip '" << chip
                 << "'" << purpose << "; known: "
                 << llvm::join(MetricCatalog::supportedChips(), ", ") << "\n";
  return catalog;
}

/// Why `path` could not be written, or empty when it can: an existing file
/// must be writable (it is not touched here), a new one needs a writable
/// folder.
static std::string whyUnwritable(StringRef path) {
  namespace fs = llvm::sys::fs;
  if (fs::exists(path)) {
    if (fs::is_directory(path))
      return "it is a folder";
    return fs::can_write(path) ? "" : "it is not writable";
  }
  SmallString<256> folder(path);
  fs::make_absolute(folder);
  llvm::sys::path::remove_filename(folder);
  if (!fs::is_directory(folder))
    return ("no folder " + folder + " to write it in").str();
  return fs::can_write(folder)
             ? ""
             : ("the folder " + folder + " is not writable").str();
}

/// Prints the metric catalog of `chip` as JSON to stdout.
static int printMetricCatalog(StringRef chip) {
  const MetricCatalog *catalog = findCatalog(chip, "");
  if (!catalog)
    return 1;
  llvm::json::Array groups, metrics;
  for (const MetricGroupInfo &group : catalog->groups()) {
    llvm::json::Array members;
    for (StringRef name : group.metricNames)
      members.push_back(name);
    groups.push_back(llvm::json::Object{{"name", group.name},
                                        {"description", group.description},
                                        {"metrics", std::move(members)}});
  }
  for (const MetricInfo &metric : catalog->metrics())
    metrics.push_back(llvm::json::Object{
        {"name", metric.name},
        {"unit", metric.unit},
        {"meaning", metric.meaning},
        {"source", metric.source == MetricSource::Cupti ? "cupti" : "driver"}});
  llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                             {"chip", chip},
                                             {"groups", std::move(groups)},
                                             {"metrics", std::move(metrics)}}))
               << "\n";
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(learnCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "autoprof-learn: learn a profiling tree from "
                              "optimization outcomes\n");
  if (!printCatalog.empty())
    return printMetricCatalog(printCatalog);
  if (outcomesPath.empty() && printTree.empty()) {
    llvm::errs() << "autoprof-learn: --outcomes=<file> is required (or "
                    "--print-catalog=<chip>, --print-tree=<file>)\n";
    return 1;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  if (!printTree.empty())
    return printProfilingTree(context, printTree);

  if (!(heldOut > 0 && heldOut < 1)) {
    llvm::errs() << "autoprof-learn: --held-out must be between 0 and 1, got "
                 << heldOut << "\n";
    return 1;
  }
  for (const cl::opt<double> *weight : {&lambda, &timingNoise}) {
    double value = *weight;
    if (!(value >= 0) || !std::isfinite(value)) {
      llvm::errs() << "autoprof-learn: --" << weight->ArgStr
                   << " must be a finite number, not negative, got " << value
                   << "\n";
      return 1;
    }
  }
  llvm::Expected<OutcomeTable> table = loadOutcomeTable(outcomesPath);
  if (!table) {
    llvm::errs() << "autoprof-learn: " << llvm::toString(table.takeError())
                 << "\n";
    return 1;
  }
  if (searchBudget != 0) {
    if (searchBudget < 0) {
      llvm::errs() << "autoprof-learn: --budget must be positive\n";
      return 1;
    }
    if (llvm::Error error = selectBudget(*table, searchBudget)) {
      llvm::errs() << "autoprof-learn: " << llvm::toString(std::move(error))
                   << "\n";
      return 1;
    }
  }
  // The learned tree names the configurations' groups and metrics; the
  // dialect's verifier would refuse the tree for names its chip's catalog
  // (sm_90's) does not know.
  const MetricCatalog *catalog = findCatalog("sm_90", "");
  if (!catalog)
    return 1;
  if (llvm::Error error = checkConfigurations(*table, *catalog)) {
    llvm::errs() << "autoprof-learn: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  LearnOptions options;
  options.seed = seed;
  options.lambda = lambda;
  options.timingNoise = timingNoise;
  options.heldOutFraction = heldOut;
  options.maxEdits = maxEdits;
  options.cost = costUnit;

  std::optional<::autoprof::llm::ChatClient> client;
  options.builtinEdits = proposer != EditProposer::Model;
  if (proposer != EditProposer::Builtin) {
    std::optional<::autoprof::llm::ApiStyle> style =
        ::autoprof::llm::parseApiStyle(apiStyle);
    if (!style) {
      llvm::errs() << "autoprof-learn: api-style must be 'openai' or "
                      "'anthropic', got '"
                   << apiStyle << "'\n";
      return 1;
    }
    ::autoprof::llm::ChatOptions chat;
    chat.style = *style;
    chat.baseUrl = endpoint;
    chat.model = modelName;
    chat.cacheDirectory = cacheDir;
    chat.replayOnly = replayOnly;
    client.emplace(::autoprof::llm::ChatOptions::fromEnvironment(chat));
    options.model = &*client;
  }

  OwningOpRef<ModuleOp> startModule;
  TreeOp start;
  if (!startPath.empty()) {
    FailureOr<LoadedTree> loaded = loadProfilingTree(
        &context, startPath, treeName, UnknownLoc::get(&context));
    if (failed(loaded))
      return 1;
    startModule = std::move(loaded->module);
    start = loaded->tree;
  } else {
    DataSplit split = splitByProgram(*table, seed, heldOut);
    const ProfileConfiguration *best =
        bestFixedConfiguration(*table, split.train, options,
                               /*collectableOnly=*/true,
                               /*everyModuleOnly=*/true);
    if (!best) {
      llvm::errs() << "autoprof-learn: no configuration a leaf can collect "
                      "was measured on any training kernel; give a starting "
                      "tree\n";
      return 1;
    }
    startModule = buildSingleLeafTree(&context, "learned", "sm_90", *best);
    start = *startModule->getOps<TreeOp>().begin();
  }

  // Every output is checked before learning, which can take long (a model
  // asked round after round): a path that cannot be written fails first,
  // and a file that is there stays as it was until its new content is
  // written (a learning that fails leaves it alone).
  bool unwritable = false;
  for (StringRef path : {StringRef(outputPath), StringRef(wantedPath),
                         StringRef(evaluationPath), StringRef(logPath)}) {
    if (path.empty() || path == "-")
      continue;
    std::string reason = whyUnwritable(path);
    if (!reason.empty()) {
      llvm::errs() << "autoprof-learn: cannot write '" << path
                   << "': " << reason << "\n";
      unwritable = true;
    }
  }
  // --wanted lists configurations by the groups of the tree's chip.
  const MetricCatalog *wantedCatalog =
      wantedPath.empty()
          ? nullptr
          : findCatalog(start.getChip(), " (--wanted needs its groups)");
  if (unwritable || (!wantedPath.empty() && !wantedCatalog))
    return 1;

  std::string error;
  FailureOr<LearnResult> result = learnTree(start, *table, options, error);
  if (failed(result)) {
    llvm::errs() << "autoprof-learn: " << error << "\n";
    return 1;
  }
  // Every edit was verified when it was tried; the tree written is checked
  // once more as a whole, with the verifier's words on stderr.
  if (failed(verify(*result->module))) {
    llvm::errs() << "autoprof-learn: the learned tree does not verify\n";
    return 1;
  }
  // With the model as the only proposer, a learning in which it never gave
  // a tree to evaluate (it could not be reached, or every answer was
  // refused) learned nothing: it fails rather than write the starting tree.
  unsigned modelAnswers = 0;
  std::string lastModelFailure;
  for (const llvm::json::Value &round : result->log) {
    const llvm::json::Object *entry = round.getAsObject();
    if (!entry)
      continue;
    if (const llvm::json::Array *proposals = entry->getArray("proposals"))
      for (const llvm::json::Value &proposal : *proposals)
        if (const llvm::json::Object *object = proposal.getAsObject()) {
          std::optional<StringRef> edit = object->getString("edit");
          if (!edit || !edit->starts_with("model proposal"))
            continue;
          if (std::optional<StringRef> rejected = object->getString("rejected");
              rejected && *edit == "model proposal")
            lastModelFailure = rejected->str();
          else
            ++modelAnswers;
        }
    // A model that could not be asked, or answered with a tree that was
    // refused, is said here, not in the log alone.
    if (const llvm::json::Array *proposals = entry->getArray("proposals"))
      for (const llvm::json::Value &proposal : *proposals)
        if (const llvm::json::Object *object = proposal.getAsObject())
          if (std::optional<StringRef> rejected = object->getString("rejected");
              rejected && object->getString("edit") == "model proposal")
            llvm::errs() << "round " << *entry->getInteger("round")
                         << ": the model's proposal failed: " << *rejected
                         << "\n";
    if (std::optional<StringRef> decision = entry->getString("decision"))
      llvm::errs() << "round " << *entry->getInteger("round") << ": "
                   << *decision << "\n";
  }
  if (proposer == EditProposer::Model && modelAnswers == 0) {
    llvm::errs() << "autoprof-learn: the model proposed no tree that could "
                    "be evaluated in any round"
                 << (lastModelFailure.empty() ? ""
                                              : " (the last failure: " +
                                                    lastModelFailure + ")")
                 << "; nothing was learned, no tree written\n";
    return 1;
  }
  llvm::errs() << llvm::formatv(
      "{0} training and {1} held-out kernels; training score {2:F4}\n",
      result->split.train.size(), result->split.heldOut.size(),
      result->train.score);
  for (const std::string &note : result->heldOut.excluded)
    llvm::errs() << "excluded: " << note << "\n";
  llvm::errs() << summarizeHeldOut(*result, *table, options);

  std::string openError;
  auto open = [&](StringRef path) -> std::unique_ptr<llvm::ToolOutputFile> {
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(path, &openError);
    if (!file)
      llvm::errs() << "autoprof-learn: " << openError << "\n";
    return file;
  };
  std::unique_ptr<llvm::ToolOutputFile> output = open(outputPath);
  if (!output)
    return 1;
  result->tree.print(output->os());
  output->os() << "\n";
  output->keep();

  if (!wantedPath.empty()) {
    std::unique_ptr<llvm::ToolOutputFile> wantedFile = open(wantedPath);
    if (!wantedFile)
      return 1;
    std::vector<std::string> groups;
    for (const MetricGroupInfo &group : wantedCatalog->groups())
      groups.push_back(group.name.str());
    std::vector<ProfileConfiguration> wanted =
        wantedConfigurations(result->tree, *table, groups);
    llvm::json::Array list;
    for (const ProfileConfiguration &configuration : wanted)
      list.push_back(toJSON(configuration));
    wantedFile->os() << llvm::formatv("{0:2}",
                                      llvm::json::Value(std::move(list)))
                     << "\n";
    wantedFile->keep();
    llvm::errs() << wanted.size()
                 << " configurations one step from the learned tree's leaves "
                    "are not in the table; written to "
                 << wantedPath << "\n";
  }
  if (!evaluationPath.empty()) {
    std::unique_ptr<llvm::ToolOutputFile> evaluationFile = open(evaluationPath);
    if (!evaluationFile)
      return 1;
    evaluationFile->os() << llvm::formatv("{0:2}",
                                          llvm::json::Value(evaluationToJSON(
                                              *result, *table, options)))
                         << "\n";
    evaluationFile->keep();
  }
  if (!logPath.empty()) {
    std::unique_ptr<llvm::ToolOutputFile> logFile = open(logPath);
    if (!logFile)
      return 1;
    logFile->os() << llvm::formatv("{0:2}",
                                   llvm::json::Value(std::move(result->log)))
                  << "\n";
    logFile->keep();
  }
  return 0;
}
