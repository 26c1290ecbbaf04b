//===- OutcomeTable.cpp - Optimization outcomes per profiling config ------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/OutcomeTable.h"
#include "autoprof/Support/InputFile.h"
#include "autoprof/Support/Json.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

using namespace mlir::autoprof::learn;
using llvm::json::Path;

const ProfileConfiguration *OutcomeTable::lookup(llvm::StringRef name) const {
  for (const ProfileConfiguration &configuration : configurations)
    if (configuration.name == name)
      return &configuration;
  return nullptr;
}

static std::vector<std::string> sorted(llvm::ArrayRef<std::string> names) {
  std::vector<std::string> copy(names.begin(), names.end());
  llvm::sort(copy);
  copy.erase(std::unique(copy.begin(), copy.end()), copy.end());
  return copy;
}

const ProfileConfiguration *
OutcomeTable::find(llvm::ArrayRef<std::string> groups,
                   llvm::ArrayRef<std::string> metrics) const {
  std::vector<std::string> wantGroups = sorted(groups),
                           wantMetrics = sorted(metrics);
  for (const ProfileConfiguration &configuration : configurations)
    if (sorted(configuration.groups) == wantGroups &&
        sorted(configuration.metrics) == wantMetrics)
      return &configuration;
  return nullptr;
}

namespace mlir::autoprof::learn {

llvm::json::Value toJSON(const ProfileConfiguration &configuration) {
  llvm::json::Object object{{"name", configuration.name},
                            {"groups", configuration.groups},
                            {"metrics", configuration.metrics}};
  if (!configuration.modules.empty())
    object["modules"] = configuration.modules;
  return object;
}

/// A profiling cost is finite and not negative; replay passes also fit the
/// whole number a tree's leaf records them as.
static bool isCost(double cost) { return cost >= 0 && cost < 0x1p53; }
static constexpr llvm::StringLiteral kCostReason =
    "a profiling cost is a number from 0 to 2^53";

/// Reads a budget written as a JSON key: a positive whole number in decimal
/// without sign or leading zeros, so that one budget has one spelling.
static bool parseBudgetKey(llvm::StringRef key, int64_t &budget) {
  return !key.getAsInteger(10, budget) && budget >= 1 &&
         key == std::to_string(budget);
}
static constexpr llvm::StringLiteral kBudgetReason =
    "a budget is a positive whole number, written without sign or leading "
    "zeros";

static bool fromJSON(const llvm::json::Value &value,
                     ProfileConfiguration &configuration, Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  if (!mapper || !mapper.map("name", configuration.name) ||
      !mapper.mapOptional("groups", configuration.groups) ||
      !mapper.mapOptional("metrics", configuration.metrics) ||
      !mapper.mapOptional("cost_passes", configuration.costPasses) ||
      !mapper.mapOptional("cost_seconds", configuration.costSeconds) ||
      !mapper.mapOptional("modules", configuration.modules))
    return false;
  if (configuration.name.empty()) {
    path.field("name").report("a configuration needs a name");
    return false;
  }
  if (configuration.modules.empty() && value.getAsObject()->get("modules")) {
    path.field("modules").report(
        "a configuration measured on every module names no modules");
    return false;
  }
  if (!isCost(configuration.costPasses) || !isCost(configuration.costSeconds)) {
    path.report(kCostReason);
    return false;
  }
  if (const llvm::json::Object *at =
          value.getAsObject()->getObject("costs_at")) {
    for (const auto &[key, cost] : *at) {
      // A Path refers to its parent: each one is kept while it is used.
      Path costsAt = path.field("costs_at");
      Path field = costsAt.field(key);
      int64_t budget = 0;
      if (!parseBudgetKey(key, budget)) {
        field.report(kBudgetReason);
        return false;
      }
      double passes = 0, seconds = 0;
      llvm::json::ObjectMapper costs(cost, field);
      if (!costs || !costs.map("passes", passes) ||
          !costs.map("seconds", seconds))
        return false;
      if (!isCost(passes) || !isCost(seconds)) {
        field.report(kCostReason);
        return false;
      }
      configuration.costsAt[budget] = {passes, seconds};
    }
  }
  return true;
}

static bool fromJSON(const llvm::json::Value &value, KernelOutcomes &kernel,
                     Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  if (!mapper || !mapper.map("name", kernel.name) ||
      !mapper.map("program", kernel.program) ||
      !mapper.mapOptional("module", kernel.module))
    return false;
  if (kernel.program.empty()) {
    path.field("program").report(
        "a kernel needs a program (the split keeps a program's kernels on "
        "one side)");
    return false;
  }
  if (kernel.module.empty())
    kernel.module = llvm::StringRef(kernel.name).split('/').first.str();
  const llvm::json::Object *object = value.getAsObject();
  auto readNumbers = [&](llvm::StringRef field,
                         llvm::StringMap<double> &into) -> bool {
    const llvm::json::Object *numbers = object->getObject(field);
    if (!numbers) {
      path.field(field).report("expected an object of numbers");
      return false;
    }
    for (const auto &[key, number] : *numbers) {
      std::optional<double> parsed = number.getAsNumber();
      if (!parsed) {
        path.field(field).field(key).report("expected a number");
        return false;
      }
      into[key.str()] = *parsed;
    }
    return true;
  };
  if (!readNumbers("features", kernel.features) ||
      !readNumbers("speedup", kernel.speedup))
    return false;
  // Features are compared with split thresholds and written into trees.
  for (const auto &feature : kernel.features)
    if (!std::isfinite(feature.getValue())) {
      path.field("features")
          .field(feature.getKey())
          .report("a feature is a finite number");
      return false;
    }
  if (const llvm::json::Object *at = object->getObject("speedup_at")) {
    for (const auto &entry : *at) {
      int64_t budget = 0;
      if (!parseBudgetKey(entry.first, budget)) {
        path.field("speedup_at").field(entry.first).report(kBudgetReason);
        return false;
      }
      if (!entry.second.getAsObject()) {
        path.field("speedup_at")
            .field(entry.first)
            .report("expected an object of numbers");
        return false;
      }
      for (const auto &[name, number] : *entry.second.getAsObject()) {
        std::optional<double> parsed = number.getAsNumber();
        if (!parsed) {
          path.field("speedup_at")
              .field(entry.first)
              .field(name)
              .report("expected a number");
          return false;
        }
        kernel.speedupAt[budget][name.str()] = *parsed;
      }
    }
  }
  return true;
}

} // namespace mlir::autoprof::learn

/// An error naming `what` (e.g. "kernel 'k' records outcomes") when it is
/// recorded for a budget above the table's: smaller budgets are the first
/// candidates of the table's searches.
static llvm::Error checkWithinBudget(const OutcomeTable &table, int64_t budget,
                                     const std::string &what) {
  if (table.budget > 0 && budget > table.budget)
    return llvm::createStringError(
        "outcome table: %s for budget %lld, above the table's budget %lld",
        what.c_str(), static_cast<long long>(budget),
        static_cast<long long>(table.budget));
  return llvm::Error::success();
}

llvm::Expected<OutcomeTable>
mlir::autoprof::learn::parseOutcomeTable(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> value = ::autoprof::parseJson(text);
  if (!value)
    return value.takeError();
  OutcomeTable table;
  llvm::json::Path::Root root("outcome table");
  llvm::json::ObjectMapper mapper(*value, root);
  if (!mapper || !mapper.mapOptional("provenance", table.provenance) ||
      !mapper.mapOptional("budget", table.budget) ||
      !mapper.map("configurations", table.configurations) ||
      !mapper.map("kernels", table.kernels))
    return root.getError();
  if (value->getAsObject()->get("budget") && table.budget < 1)
    return llvm::createStringError(
        "outcome table: the budget is the candidates a search tries, a "
        "positive whole number; got %lld",
        static_cast<long long>(table.budget));
  llvm::StringSet<> names;
  for (const ProfileConfiguration &configuration : table.configurations) {
    if (!names.insert(configuration.name).second)
      return llvm::createStringError(
          "outcome table: configuration '%s' is defined twice",
          configuration.name.c_str());
    // Two that collect the same would be one leaf, whose outcomes find()
    // (what the learner looks a leaf's configuration up by) would take from
    // the first of them only.
    const ProfileConfiguration *first =
        table.find(configuration.groups, configuration.metrics);
    if (first != &configuration)
      return llvm::createStringError(
          "outcome table: configurations '%s' and '%s' collect the same "
          "groups and metrics",
          first->name.c_str(), configuration.name.c_str());
    for (const auto &entry : configuration.costsAt)
      if (llvm::Error error = checkWithinBudget(
              table, entry.first,
              "configuration '" + configuration.name + "' records a cost"))
        return error;
  }
  llvm::StringSet<> kernels;
  for (const KernelOutcomes &kernel : table.kernels) {
    if (!kernels.insert(kernel.name).second)
      return llvm::createStringError("outcome table: kernel '%s' appears twice",
                                     kernel.name.c_str());
    std::vector<const llvm::StringMap<double> *> outcomes = {&kernel.speedup};
    for (const auto &entry : kernel.speedupAt) {
      if (llvm::Error error = checkWithinBudget(table, entry.first,
                                                "kernel '" + kernel.name +
                                                    "' records outcomes"))
        return error;
      outcomes.push_back(&entry.second);
    }
    for (const llvm::StringMap<double> *speedups : outcomes)
      for (const auto &entry : *speedups) {
        if (!names.contains(entry.getKey()))
          return llvm::createStringError(
              "outcome table: kernel '%s' has an outcome for the unknown "
              "configuration '%s'",
              kernel.name.c_str(), entry.getKey().str().c_str());
        if (!(entry.getValue() > 0) || !std::isfinite(entry.getValue()))
          return llvm::createStringError(
              "outcome table: kernel '%s' has speedup %g for '%s'; a speedup "
              "is positive (leave out what could not be measured)",
              kernel.name.c_str(), entry.getValue(),
              entry.getKey().str().c_str());
      }
  }
  if (table.configurations.empty())
    return llvm::createStringError("outcome table: no configurations");
  return table;
}

llvm::Expected<OutcomeTable>
mlir::autoprof::learn::loadOutcomeTable(llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      ::autoprof::readInputFile(path);
  if (!buffer)
    return buffer.takeError();
  return parseOutcomeTable((*buffer)->getBuffer());
}

llvm::Error
mlir::autoprof::learn::checkConfigurations(const OutcomeTable &table,
                                           const MetricCatalog &catalog) {
  for (const ProfileConfiguration &configuration : table.configurations) {
    auto check = [&](const std::vector<std::string> &names,
                     bool groups) -> llvm::Error {
      llvm::StringSet<> seen;
      for (const std::string &name : names) {
        bool known = groups ? catalog.lookupGroup(name) != nullptr
                            : catalog.lookupMetric(name) != nullptr;
        if (!known) {
          std::string hint = catalog.suggest(name);
          return llvm::createStringError(
              "outcome table: configuration '%s' names an unknown %s '%s'%s",
              configuration.name.c_str(), groups ? "metric group" : "metric",
              name.c_str(),
              hint.empty() ? "" : (" (did you mean '" + hint + "'?)").c_str());
        }
        if (!seen.insert(name).second)
          return llvm::createStringError(
              "outcome table: configuration '%s' names the %s '%s' twice",
              configuration.name.c_str(), groups ? "group" : "metric",
              name.c_str());
      }
      return llvm::Error::success();
    };
    if (llvm::Error error = check(configuration.groups, true))
      return error;
    if (llvm::Error error = check(configuration.metrics, false))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error mlir::autoprof::learn::selectBudget(OutcomeTable &table,
                                                int64_t budget) {
  if (budget == table.budget)
    return llvm::Error::success();
  std::set<int64_t> recorded = {table.budget};
  for (const KernelOutcomes &kernel : table.kernels)
    for (const auto &entry : kernel.speedupAt)
      recorded.insert(entry.first);
  if (!recorded.count(budget)) {
    std::string known;
    for (int64_t b : recorded)
      known += (known.empty() ? "" : ", ") + std::to_string(b);
    return llvm::createStringError(
        "outcome table: no outcomes recorded for budget %lld (it has %s)",
        static_cast<long long>(budget), known.c_str());
  }
  for (KernelOutcomes &kernel : table.kernels) {
    auto it = kernel.speedupAt.find(budget);
    kernel.speedup =
        it == kernel.speedupAt.end() ? llvm::StringMap<double>() : it->second;
  }
  for (ProfileConfiguration &configuration : table.configurations) {
    auto it = configuration.costsAt.find(budget);
    bool measured = llvm::any_of(table.kernels, [&](const KernelOutcomes &k) {
      return k.speedup.contains(configuration.name);
    });
    if (it == configuration.costsAt.end() && !measured)
      continue;
    if (it == configuration.costsAt.end())
      return llvm::createStringError(
          "outcome table: configuration '%s' records no cost for budget %lld",
          configuration.name.c_str(), static_cast<long long>(budget));
    std::tie(configuration.costPasses, configuration.costSeconds) = it->second;
  }
  table.budget = budget;
  return llvm::Error::success();
}
