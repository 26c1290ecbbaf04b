//===- table-fuzzer.cpp - Fuzzes reading and learning from outcome tables -===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for outcome tables, which `autoprof-learn --outcomes`
// reads from a file a table script or a user wrote: each input is parsed as
// a table, checked against the sm_90 catalog and, where it reads, taken
// through what the tool does with it: each recorded smaller budget selected,
// the seeded split by program, every configuration scored, the best fixed
// one chosen, a tree learned from a one-leaf start, the held-out comparison,
// the evaluation and the configurations the tree wants next. Nothing may
// crash, a learned tree must verify, and learning twice with the same seed
// must give the same tree.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"
#include "autoprof/Learn/Learner.h"
#include "autoprof/Learn/OutcomeTable.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <set>
#include <string>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::learn;

/// The tree's text, for comparing two learning runs.
static std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// Learns from a one-leaf tree of the best fixed configuration, as
/// `autoprof-learn` without `--start` does; checks what comes out.
static void learnFrom(const OutcomeTable &table, const MetricCatalog &catalog,
                      MLIRContext &context) {
  LearnOptions options;
  // Few draws and rounds: an input is a few kilobytes, and the bootstrap's
  // and the search's loops are what is fuzzed, not their length.
  options.bootstrapSamples = 20;
  options.maxEdits = 2;
  DataSplit split =
      splitByProgram(table, options.seed, options.heldOutFraction);
  std::vector<size_t> all(table.kernels.size());
  std::iota(all.begin(), all.end(), 0);
  for (const ProfileConfiguration &configuration : table.configurations)
    (void)scoreConfiguration(configuration, table, all, options);
  const ProfileConfiguration *best =
      bestFixedConfiguration(table, split.train, options,
                             /*collectableOnly=*/true,
                             /*everyModuleOnly=*/true);
  if (!best)
    return;
  OwningOpRef<ModuleOp> startModule =
      buildSingleLeafTree(&context, "learned", "sm_90", *best);
  if (failed(verify(*startModule))) {
    llvm::errs() << "the one-leaf tree of '" << best->name
                 << "' does not verify\n";
    std::abort();
  }
  TreeOp start = *startModule->getOps<TreeOp>().begin();
  std::string firstTree;
  for (int round = 0; round < 2; ++round) {
    std::string error;
    FailureOr<LearnResult> result = learnTree(start, table, options, error);
    if (failed(result))
      return;
    if (failed(verify(*result->module))) {
      llvm::errs() << "a learned tree does not verify\n";
      std::abort();
    }
    std::string tree = print(*result->module);
    if (round == 1) {
      if (tree != firstTree) {
        llvm::errs() << "two learning runs with one seed differ:\n"
                     << firstTree << "\n---\n"
                     << tree << "\n";
        std::abort();
      }
      break;
    }
    firstTree = std::move(tree);
    (void)compareHeldOut(*result, table, options);
    (void)evaluationToJSON(*result, table, options);
    (void)summarizeHeldOut(*result, table, options);
    std::vector<std::string> groups;
    for (const MetricGroupInfo &group : catalog.groups())
      groups.push_back(group.name.str());
    (void)wantedConfigurations(result->tree, table, groups);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *result = new DialectRegistry;
    result->insert<AutoProfDialect>();
    return result;
  }();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<OutcomeTable> table = parseOutcomeTable(text);
  if (!table) {
    llvm::consumeError(table.takeError());
    return 0;
  }
  const MetricCatalog *catalog = MetricCatalog::forChip("sm_90");
  if (llvm::Error error = checkConfigurations(*table, *catalog)) {
    llvm::consumeError(std::move(error));
    return 0;
  }
  MLIRContext context(*registry);
  context.loadAllAvailableDialects();
  // Diagnostics of trees that fail to build or verify are the learner's to
  // report; none is printed here.
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) {});
  learnFrom(*table, *catalog, context);
  // Each smaller budget the table records, as `--budget` selects it.
  std::set<int64_t> budgets;
  for (const KernelOutcomes &kernel : table->kernels)
    for (const auto &entry : kernel.speedupAt)
      budgets.insert(entry.first);
  budgets.insert(table->budget);
  for (int64_t budget : budgets) {
    OutcomeTable selected = *table;
    if (llvm::Error error = selectBudget(selected, budget)) {
      llvm::consumeError(std::move(error));
      continue;
    }
    learnFrom(selected, *catalog, context);
  }
  return 0;
}
