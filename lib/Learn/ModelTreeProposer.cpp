//===- ModelTreeProposer.cpp - A chat model proposes tree edits -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/ModelTreeProposer.h"

#include "autoprof/LLM/CodeBlock.h"
#include "autoprof/Support/Nesting.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <map>

using namespace mlir;
using namespace mlir::autoprof;
using namespace mlir::autoprof::learn;
namespace llm = ::autoprof::llm;

static constexpr llvm::StringLiteral kSystemPrompt =
    "You refine profiling trees for a GPU kernel optimizer. A profiling tree "
    "is MLIR in the autoprof dialect: autoprof.split tests one kernel feature "
    "against a threshold, autoprof.collect names the metric groups and "
    "metrics to collect for the kernels that reach it. The optimizer reaches "
    "a speedup on each kernel that depends on what was collected; collecting "
    "costs replay passes. Propose one tree whose leaves each collect exactly "
    "one of the listed configurations, so that the mean log speedup minus "
    "lambda times the mean cost is higher. Answer with one ```mlir block "
    "holding the whole autoprof.tree and nothing else in code blocks.";

std::string
mlir::autoprof::learn::buildTreePrompt(TreeOp tree, const OutcomeTable &table,
                                       ArrayRef<size_t> kernels,
                                       const LearnOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "Current tree:\n```mlir\n";
  tree.print(os);
  os << "\n```\n\nConfigurations (groups; metrics; replay passes, seconds):\n";
  for (const ProfileConfiguration &configuration : table.configurations) {
    if (configuration.groups.empty() && configuration.metrics.empty())
      continue;
    os << "- " << configuration.name << ": groups [";
    llvm::interleaveComma(configuration.groups, os,
                          [&](const std::string &g) { os << '"' << g << '"'; });
    os << "]; metrics [";
    llvm::interleaveComma(configuration.metrics, os,
                          [&](const std::string &m) { os << '"' << m << '"'; });
    os << llvm::formatv("]; {0} passes, {1:F3} s\n", configuration.costPasses,
                        configuration.costSeconds);
  }
  TreeScore score = scoreTree(tree, table, kernels, options);
  os << llvm::formatv("\nScore on {0} training kernels: {1:F4} (mean log "
                      "speedup {2:F4}, mean cost {3:F2}, lambda {4}).\n",
                      score.kernels.size(), score.score, score.meanLogSpeedup,
                      score.meanCost, options.lambda);
  // Per leaf: its kernels, their features and speedups.
  std::map<int64_t, std::vector<size_t>> atLeaf;
  for (size_t index : kernels)
    if (CollectOp leaf = evaluateOnKernel(tree, table.kernels[index]).leaf)
      atLeaf[leaf.getId()].push_back(index);
  for (auto &[id, reaching] : atLeaf) {
    os << "\nLeaf " << id << " (" << reaching.size() << " kernels):\n";
    for (size_t index : reaching) {
      const KernelOutcomes &kernel = table.kernels[index];
      os << "- " << kernel.name << ": features {";
      std::vector<std::string> names;
      for (const auto &entry : kernel.features)
        names.push_back(entry.getKey().str());
      llvm::sort(names);
      llvm::interleaveComma(names, os, [&](const std::string &name) {
        os << name << " = " << kernel.features.lookup(name);
      });
      os << "}; speedup {";
      bool first = true;
      for (const ProfileConfiguration &configuration : table.configurations)
        if (auto it = kernel.speedup.find(configuration.name);
            it != kernel.speedup.end()) {
          os << (first ? "" : ", ") << configuration.name << " = "
             << llvm::formatv("{0:F3}", it->second);
          first = false;
        }
      os << "}\n";
    }
  }
  return text;
}

/// The tree in `answer`, or why there is none.
static llvm::Expected<ModelProposal>
parseAnswer(StringRef answer, const OutcomeTable &table, MLIRContext *context) {
  llvm::Expected<llm::CodeBlock> block = llm::extractCodeBlock(answer);
  if (!block)
    return block.takeError();
  std::string diagnostics;
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diagnostic) {
    if (!diagnostics.empty())
      diagnostics += "; ";
    diagnostics += diagnostic.str();
    return success();
  });
  ModelProposal proposal;
  if (std::optional<std::string> why =
          ::autoprof::checkSourceNesting(block->code))
    return llvm::createStringError("the tree does not parse: " + *why);
  proposal.module = parseSourceString<ModuleOp>(block->code, context);
  if (!proposal.module)
    return llvm::createStringError("the tree does not parse: " + diagnostics);
  auto trees = proposal.module->getOps<TreeOp>();
  if (std::distance(trees.begin(), trees.end()) != 1)
    return llvm::createStringError(
        "the answer must hold exactly one autoprof.tree");
  proposal.tree = *trees.begin();
  if (failed(verify(*proposal.module)))
    return llvm::createStringError("the tree does not verify: " + diagnostics);
  std::string unknown;
  proposal.tree.walk([&](CollectOp leaf) {
    if (unknown.empty() && !getLeafConfiguration(leaf, table))
      unknown = "leaf " + std::to_string(leaf.getId()) +
                " collects something that is not one of the configurations";
  });
  if (!unknown.empty())
    return llvm::createStringError(unknown);
  return proposal;
}

llvm::Expected<ModelProposal> mlir::autoprof::learn::proposeTreeWithModel(
    const llm::ChatClient &client, TreeOp tree, const OutcomeTable &table,
    ArrayRef<size_t> kernels, const LearnOptions &options) {
  llm::ChatRequest request;
  request.system = kSystemPrompt.str();
  request.messages.push_back(
      {"user", buildTreePrompt(tree, table, kernels, options)});
  std::vector<std::string> rejections;
  for (int attempt = 0; attempt < 2; ++attempt) {
    llvm::Expected<llm::ChatResponse> response = client.complete(request);
    if (!response)
      return response.takeError();
    llvm::Expected<ModelProposal> proposal =
        parseAnswer(response->text, table, tree.getContext());
    if (proposal) {
      proposal->repaired = attempt > 0;
      proposal->rejections = std::move(rejections);
      return proposal;
    }
    rejections.push_back(llvm::toString(proposal.takeError()));
    const std::string &reason = rejections.back();
    if (attempt == 1)
      return llvm::createStringError("the model's tree was rejected twice "
                                     "(first: " +
                                     rejections.front() + "; last: " + reason +
                                     ")");
    request.messages.push_back({"assistant", response->text});
    request.messages.push_back(
        {"user", "That answer was rejected: " + reason +
                     ". Answer again with one ```mlir block holding a valid "
                     "autoprof.tree over the listed configurations."});
  }
  return llvm::createStringError("no tree");
}
