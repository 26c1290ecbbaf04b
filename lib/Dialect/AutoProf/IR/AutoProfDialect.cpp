//===- AutoProfDialect.cpp - The profiling-tree dialect -------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Dialect/AutoProf/IR/AutoProf.h"

#include "autoprof/Analysis/FeatureSchema.h"
#include "autoprof/Profiling/MetricCatalog.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::autoprof;

#include "autoprof/Dialect/AutoProf/IR/AutoProfEnums.cpp.inc"

#include "autoprof/Dialect/AutoProf/IR/AutoProfOpsDialect.cpp.inc"

void AutoProfDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "autoprof/Dialect/AutoProf/IR/AutoProfOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Attributes on other ops
//===----------------------------------------------------------------------===//

std::optional<double> mlir::autoprof::getNumericValue(Attribute attr) {
  if (auto value = dyn_cast_or_null<FloatAttr>(attr))
    return value.getValueAsDouble();
  if (auto value = dyn_cast_or_null<IntegerAttr>(attr))
    return value.getValue().roundToDouble(
        !value.getType().isUnsignedInteger());
  return std::nullopt;
}

LogicalResult
AutoProfDialect::verifyOperationAttribute(Operation *op,
                                          NamedAttribute attribute) {
  if (attribute.getName() != MeasurementAttrHelper::getNameStr())
    return success();
  // What the passes that read a measurement take as numbers (a diagnosis,
  // the dynamic features, the optimizer's evidence) must be numbers they
  // can compare: a NaN or a string there would silently decide nothing.
  auto measurement = dyn_cast<DictionaryAttr>(attribute.getValue());
  if (!measurement)
    return op->emitError("autoprof.measurement must be a dictionary");
  for (NamedAttribute entry : measurement) {
    StringRef name = entry.getName().getValue();
    if (name.ends_with("_us")) {
      std::optional<double> value = getNumericValue(entry.getValue());
      if (!value || !std::isfinite(*value) || *value < 0)
        return op->emitError("autoprof.measurement's ")
               << name << " must be a finite, non-negative number of "
               << "microseconds";
    }
  }
  Attribute metrics = measurement.get("metrics");
  if (!metrics)
    return success();
  auto collected = dyn_cast<DictionaryAttr>(metrics);
  if (!collected)
    return op->emitError("autoprof.measurement's metrics must be a "
                         "dictionary of metric name to value");
  for (NamedAttribute entry : collected) {
    std::optional<double> value = getNumericValue(entry.getValue());
    if (!value || !std::isfinite(*value))
      return op->emitError("autoprof.measurement's metric '")
             << entry.getName().getValue()
             << "' must be a finite number (a metric that was not collected "
                "is left out, never given a placeholder)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isTreeNode(Operation *op) { return isa<SplitOp, CollectOp>(op); }

/// Checks that `region` holds exactly one tree node; `what` names the region
/// in diagnostics.
static LogicalResult verifySingleNode(Operation *owner, Region &region,
                                      const Twine &what) {
  Block &block = region.front();
  if (block.empty())
    return owner->emitOpError()
           << what
           << " has no node: every evaluation path must end in an "
              "'autoprof.collect' leaf";
  for (Operation &op : block)
    if (!isTreeNode(&op))
      return op.emitOpError("is not a profiling-tree node; ")
             << what << " may only hold 'autoprof.split' or 'autoprof.collect'";
  if (!llvm::hasSingleElement(block))
    return owner->emitOpError() << what << " must hold exactly one node, found "
                                << block.getOperations().size();
  return success();
}

static Operation *getSingleNode(Region &region) {
  if (region.empty() || !llvm::hasSingleElement(region.front()))
    return nullptr;
  Operation *op = &region.front().front();
  return isTreeNode(op) ? op : nullptr;
}

/// Formats a threshold or range bound the way people write it (4, 0.25, inf).
static std::string formatNumber(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return text;
}

/// The shortest decimal spelling of `value` that reads back as the same
/// double, in a form the parser takes (a whole number, or a float literal
/// with a '.'): 132, 0.25, 721420288, 1.5e+20.
static std::string formatExactNumber(double value) {
  std::string text;
  for (int digits = 6; digits <= 17; ++digits) {
    text.clear();
    llvm::raw_string_ostream(text) << llvm::format("%.*g", digits, value);
    if (std::strtod(text.c_str(), nullptr) == value)
      break;
  }
  // MLIR's float literals need a '.' before an exponent.
  size_t exponent = text.find('e');
  if (exponent != std::string::npos && text.find('.') == std::string::npos)
    text.insert(exponent, ".0");
  return text;
}

StringRef mlir::autoprof::getComparisonSpelling(Comparison comparison) {
  switch (comparison) {
  case Comparison::lt:
    return "<";
  case Comparison::le:
    return "<=";
  case Comparison::gt:
    return ">";
  case Comparison::ge:
    return ">=";
  }
  llvm_unreachable("unknown comparison");
}

//===----------------------------------------------------------------------===//
// TreeOp
//===----------------------------------------------------------------------===//

Operation *TreeOp::getRoot() { return getSingleNode(getBody()); }

LogicalResult TreeOp::verify() {
  if (!MetricCatalog::forChip(getChip())) {
    std::string chips;
    llvm::raw_string_ostream os(chips);
    llvm::interleaveComma(MetricCatalog::supportedChips(), os);
    return emitOpError("has no metric catalog for chip '")
           << getChip() << "'; supported chips: " << chips;
  }
  return success();
}

/// The largest node id: 2^53 - 1, the largest whole number every JSON reader
/// keeps exactly.
static constexpr int64_t kMaxNodeId = (int64_t(1) << 53) - 1;

LogicalResult TreeOp::verifyRegions() {
  if (failed(verifySingleNode(*this, getBody(), "tree body")))
    return failure();
  // Node ids name nodes in evaluation paths, learner edits and reports, so
  // they must be unique within the tree.
  llvm::DenseMap<int64_t, Operation *> seen;
  WalkResult result = getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    std::optional<int64_t> id;
    if (auto split = dyn_cast<SplitOp>(op))
      id = split.getIdAttr().getInt();
    else if (auto leaf = dyn_cast<CollectOp>(op))
      id = leaf.getIdAttr().getInt();
    if (!id)
      return WalkResult::advance();
    // Ids are counted up from small numbers: the learner numbers new nodes
    // after the largest, and reports read them as JSON numbers.
    if (*id < 0 || *id > kMaxNodeId) {
      op->emitOpError("has node id ")
          << *id << "; a node id is a whole number from 0 to " << kMaxNodeId;
      return WalkResult::interrupt();
    }
    auto [it, inserted] = seen.try_emplace(*id, op);
    if (inserted)
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitOpError("reuses node id ")
                              << *id << " of tree @" << getSymName();
    diag.attachNote(it->second->getLoc()) << "first use of the id is here";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// SplitOp
//===----------------------------------------------------------------------===//

Operation *SplitOp::getChild(Branch branch) {
  return getSingleNode(branch == Branch::then_branch ? getThenRegion()
                                                     : getElseRegion());
}

bool SplitOp::holds(double value) {
  double threshold = getThreshold().convertToDouble();
  switch (getComparison()) {
  case Comparison::lt:
    return value < threshold;
  case Comparison::le:
    return value <= threshold;
  case Comparison::gt:
    return value > threshold;
  case Comparison::ge:
    return value >= threshold;
  }
  llvm_unreachable("unknown comparison");
}

LogicalResult SplitOp::verify() {
  const FeatureInfo *feature = lookupFeature(getFeature());
  if (!feature) {
    InFlightDiagnostic diag = emitOpError("tests unknown feature '")
                              << getFeature() << "'";
    std::string hint = suggestFeature(getFeature());
    if (!hint.empty())
      diag << " (did you mean '" << hint << "'?)";
    return diag;
  }
  double threshold = getThreshold().convertToDouble();
  if (!std::isfinite(threshold))
    return emitOpError("threshold must be a finite number, got ")
           << formatNumber(threshold);
  // A threshold outside the feature's range makes one branch unreachable,
  // which is always a mistake in a hand-written or learned tree.
  double lo = feature->minValue, hi = feature->maxValue;
  bool thenReachable = false, elseReachable = false;
  switch (getComparison()) {
  case Comparison::lt:
    thenReachable = lo < threshold;
    elseReachable = hi >= threshold;
    break;
  case Comparison::le:
    thenReachable = lo <= threshold;
    elseReachable = hi > threshold;
    break;
  case Comparison::gt:
    thenReachable = hi > threshold;
    elseReachable = lo <= threshold;
    break;
  case Comparison::ge:
    thenReachable = hi >= threshold;
    elseReachable = lo < threshold;
    break;
  }
  if (!thenReachable || !elseReachable)
    return emitOpError("threshold ")
           << formatNumber(threshold) << " is outside the range ["
           << formatNumber(lo) << ", " << formatNumber(hi) << "] of feature '"
           << getFeature() << "': the " << (thenReachable ? "else" : "then")
           << " branch can never be taken";
  if (failed(verifySingleNode(*this, getThenRegion(),
                              "then branch of split " + Twine(getId()))) ||
      failed(verifySingleNode(*this, getElseRegion(),
                              "else branch of split " + Twine(getId()))))
    return failure();
  return success();
}

// autoprof.split id(N) "feature" <cmp> <threshold> missing(then|else)
//     attr-dict-with-keyword <region> else <region>
ParseResult SplitOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  int64_t id = 0;
  std::string feature;
  if (parser.parseKeyword("id") || parser.parseLParen() ||
      parser.parseInteger(id) || parser.parseRParen())
    return failure();
  SMLoc featureLoc = parser.getCurrentLocation();
  if (parser.parseString(&feature))
    return parser.emitError(featureLoc, "expected a quoted feature name");

  SMLoc comparisonLoc = parser.getCurrentLocation();
  Comparison comparison;
  if (succeeded(parser.parseOptionalLess()))
    comparison = succeeded(parser.parseOptionalEqual()) ? Comparison::le
                                                        : Comparison::lt;
  else if (succeeded(parser.parseOptionalGreater()))
    comparison = succeeded(parser.parseOptionalEqual()) ? Comparison::ge
                                                        : Comparison::gt;
  else
    return parser.emitError(comparisonLoc,
                            "expected a comparison: '<', '<=', '>' or '>='");

  // Thresholds are doubles, but whole numbers read naturally for counts. A
  // hexadecimal literal is the double's bits, as MLIR spells a float it
  // cannot print exactly in a few digits (and as trees were once printed).
  double threshold = 0;
  bool negative = succeeded(parser.parseOptionalMinus());
  StringRef rest(parser.getCurrentLocation().getPointer());
  APInt integer;
  if (rest.starts_with_insensitive("0x")) {
    APFloat bits(0.0);
    if (parser.parseFloat(llvm::APFloat::IEEEdouble(), bits))
      return failure();
    threshold = bits.convertToDouble();
  } else if (OptionalParseResult parsedInteger =
                 parser.parseOptionalInteger(integer);
             parsedInteger.has_value()) {
    if (failed(*parsedInteger))
      return failure();
    threshold = integer.roundToDouble(/*isSigned=*/true);
  } else if (parser.parseFloat(threshold)) {
    return failure();
  }
  if (negative)
    threshold = -threshold;

  StringRef missingKeyword;
  SMLoc missingLoc;
  if (parser.parseKeyword("missing") || parser.parseLParen() ||
      (missingLoc = parser.getCurrentLocation(),
       parser.parseKeyword(&missingKeyword)) ||
      parser.parseRParen())
    return failure();
  std::optional<Branch> missing = symbolizeBranch(missingKeyword);
  if (!missing)
    return parser.emitError(missingLoc, "expected 'then' or 'else', got '")
           << missingKeyword << "'";

  result.addAttribute(getIdAttrName(result.name),
                      builder.getI64IntegerAttr(id));
  result.addAttribute(getFeatureAttrName(result.name),
                      builder.getStringAttr(feature));
  result.addAttribute(getComparisonAttrName(result.name),
                      ComparisonAttr::get(builder.getContext(), comparison));
  result.addAttribute(getThresholdAttrName(result.name),
                      builder.getF64FloatAttr(threshold));
  result.addAttribute(getMissingAttrName(result.name),
                      BranchAttr::get(builder.getContext(), *missing));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  Region *thenRegion = result.addRegion();
  Region *elseRegion = result.addRegion();
  if (parser.parseRegion(*thenRegion) || parser.parseKeyword("else") ||
      parser.parseRegion(*elseRegion))
    return failure();
  for (Region *region : {thenRegion, elseRegion})
    if (region->empty())
      region->emplaceBlock();
  return success();
}

void SplitOp::print(OpAsmPrinter &p) {
  p << " id(" << getId() << ") ";
  p.printString(getFeature());
  p << ' ' << getComparisonSpelling(getComparison()) << ' '
    << formatExactNumber(getThreshold().convertToDouble());
  p << " missing(" << stringifyBranch(getMissing()) << ")";
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getIdAttrName(), getFeatureAttrName(), getComparisonAttrName(),
       getThresholdAttrName(), getMissingAttrName()});
  p << ' ';
  p.printRegion(getThenRegion(), /*printEntryBlockArgs=*/false);
  p << " else ";
  p.printRegion(getElseRegion(), /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// CollectOp
//===----------------------------------------------------------------------===//

ArrayRef<StringRef> CollectOp::getKnownSummaries() {
  static const StringRef summaries[] = {"roofline", "occupancy", "stalls"};
  return summaries;
}

/// Checks a list of group or metric names against the catalog.
static LogicalResult
verifyCatalogNames(CollectOp op, ArrayAttr names, StringRef kind,
                   const MetricCatalog &catalog,
                   llvm::function_ref<bool(StringRef)> isKnown) {
  llvm::StringSet<> seen;
  for (Attribute attr : names) {
    StringRef name = cast<StringAttr>(attr).getValue();
    if (!isKnown(name)) {
      InFlightDiagnostic diag = op.emitOpError("names unknown ")
                                << kind << " '" << name << "'";
      std::string hint = catalog.suggest(name);
      if (!hint.empty())
        diag << " (did you mean '" << hint << "'?)";
      return diag;
    }
    if (!seen.insert(name).second)
      return op.emitOpError() << kind << " '" << name << "' is listed twice";
  }
  return success();
}

LogicalResult CollectOp::verify() {
  if (getGroups().empty() && getMetrics().empty())
    return emitOpError("collects nothing: a leaf must name at least one "
                       "metric group or metric");
  if (std::optional<StringRef> summary = getSummary())
    if (!llvm::is_contained(getKnownSummaries(), *summary)) {
      std::string known;
      llvm::raw_string_ostream os(known);
      llvm::interleaveComma(getKnownSummaries(), os);
      return emitOpError("requests unknown summary '")
             << *summary << "'; known summaries: " << known;
    }
  if (std::optional<int64_t> passes = getCostPasses(); passes && *passes < 0)
    return emitOpError("cost_passes must not be negative");
  if (std::optional<APFloat> seconds = getCostSeconds()) {
    double value = seconds->convertToDouble();
    if (!std::isfinite(value) || value < 0)
      return emitOpError("cost_seconds must be a finite non-negative number");
  }

  auto tree = (*this)->getParentOfType<TreeOp>();
  if (!tree)
    return emitOpError("must be nested in an 'autoprof.tree'");
  const MetricCatalog *catalog = MetricCatalog::forChip(tree.getChip());
  // An unknown chip is diagnosed once, on the tree.
  if (!catalog)
    return success();
  if (failed(verifyCatalogNames(
          *this, getGroups(), "metric group", *catalog,
          [&](StringRef name) { return catalog->lookupGroup(name); })) ||
      failed(verifyCatalogNames(
          *this, getMetrics(), "metric", *catalog,
          [&](StringRef name) { return catalog->lookupMetric(name); })))
    return failure();
  return success();
}

#define GET_OP_CLASSES
#include "autoprof/Dialect/AutoProf/IR/AutoProfOps.cpp.inc"
