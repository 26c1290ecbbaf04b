//===- RewriteFamilyEmitter.cpp - Rewrite family backends -----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Reads the RewriteFamily records of include/autoprof/Optimizer/
// RewriteFamilies.td, in the order they are defined, checks them and emits
// either the C++ table of their declarations or their reference page. The
// phrase that states a parameter domain ("4, 8, 16 or 32", "a power of two
// from 2 to 256") is made here once, for the page and for the messages that
// refuse a parameter.
//
//===----------------------------------------------------------------------===//

#include "RewriteFamilyEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

#include <string>
#include <vector>

using namespace llvm;

namespace {

/// One parameter domain, read and checked.
struct Domain {
  /// The C++ enumerator of ParameterDomain::Kind.
  StringRef kind;
  StringRef noun;
  std::vector<int64_t> values;
  int64_t low = 0, high = 0, step = 1;
  StringRef unit;
  /// The phrase after "must be" ("4, 8, 16 or 32").
  std::string phrase;
};

/// One family, read and checked.
struct Family {
  const Record *record;
  StringRef name;
  StringRef summary;
  StringRef importedSummary;
  Domain parameter;
  std::vector<StringRef> facts;
  bool mlir = false;
  bool ptx = false;
};

/// "a, b, c or d".
std::string joinWithOr(ArrayRef<int64_t> values) {
  std::string text;
  for (auto [i, value] : llvm::enumerate(values)) {
    if (i > 0)
      text += i + 1 == values.size() ? " or " : ", ";
    text += std::to_string(value);
  }
  return text;
}

/// Reads the domain `def`, or fails with an error at `family`.
bool readDomain(const Record *family, const Record *def, Domain &domain) {
  domain.noun = def->getValueAsString("noun");
  if (domain.noun.empty()) {
    PrintError(family, "the parameter domain has no noun");
    return false;
  }
  if (def->isSubClassOf("Values")) {
    domain.kind = "Values";
    domain.values = def->getValueAsListOfInts("values");
    if (domain.values.empty() || !llvm::is_sorted(domain.values) ||
        std::adjacent_find(domain.values.begin(), domain.values.end()) !=
            domain.values.end()) {
      PrintError(family, "the values of a parameter must be distinct and "
                         "given in increasing order");
      return false;
    }
    domain.phrase = joinWithOr(domain.values);
    return true;
  }
  if (def->isSubClassOf("Range")) {
    domain.kind = "Range";
    domain.low = def->getValueAsInt("low");
    domain.high = def->getValueAsInt("high");
    domain.step = def->getValueAsInt("step");
    domain.unit = def->getValueAsString("unit");
    if (domain.step < 1 || domain.low > domain.high ||
        domain.low % domain.step != 0) {
      PrintError(family, "a range needs low <= high and a positive step "
                         "that divides low");
      return false;
    }
    if (domain.step > 1)
      domain.phrase = "a multiple of " + std::to_string(domain.step) + " ";
    domain.phrase += "in [" + std::to_string(domain.low) + ", " +
                     std::to_string(domain.high) + "]";
    if (!domain.unit.empty())
      domain.phrase += " " + domain.unit.str();
    return true;
  }
  if (def->isSubClassOf("PowersOfTwo")) {
    domain.kind = "PowersOfTwo";
    domain.low = def->getValueAsInt("low");
    domain.high = def->getValueAsInt("high");
    if (domain.low < 1 || domain.low > domain.high ||
        !isPowerOf2_64(domain.low) || !isPowerOf2_64(domain.high)) {
      PrintError(family, "powers of two need powers of two as bounds, low "
                         "<= high");
      return false;
    }
    domain.phrase = "a power of two from " + std::to_string(domain.low) +
                    " to " + std::to_string(domain.high);
    return true;
  }
  if (def->isSubClassOf("TargetLimited")) {
    domain.kind = "TargetLimited";
    domain.phrase = def->getValueAsString("limits").str();
    return true;
  }
  PrintError(family, "unknown parameter domain '" + def->getName() + "'");
  return false;
}

/// Reads every RewriteFamily record in definition order, or fails with an
/// error at the first that is not well formed.
bool readFamilies(const RecordKeeper &records, std::vector<Family> &families) {
  std::vector<const Record *> defs(
      records.getAllDerivedDefinitions("RewriteFamily"));
  llvm::sort(defs, LessRecordByID());
  StringSet<> names;
  for (const Record *def : defs) {
    Family family;
    family.record = def;
    family.name = def->getValueAsString("name");
    if (family.name.empty() || !names.insert(family.name).second) {
      PrintError(def, "a family needs a name no other family has");
      return false;
    }
    for (StringRef field : {"summary", "parameter"})
      if (def->isValueUnset(field)) {
        PrintError(def, "family '" + family.name + "' sets no " + field);
        return false;
      }
    family.summary = def->getValueAsString("summary");
    family.importedSummary = def->getValueAsString("importedSummary");
    if (!readDomain(def, def->getValueAsDef("parameter"), family.parameter))
      return false;
    StringSet<> facts;
    for (const Record *factDef : def->getValueAsListOfDefs("facts")) {
      StringRef fact = factDef->getValueAsString("name");
      family.facts.push_back(fact);
      if (!facts.insert(fact).second) {
        PrintError(def, "family '" + family.name + "' names the fact '" + fact +
                            "' twice");
        return false;
      }
    }
    for (const Record *form : def->getValueAsListOfDefs("forms")) {
      StringRef cppName = form->getValueAsString("cppName");
      family.mlir |= cppName == "Mlir";
      family.ptx |= cppName == "Ptx";
    }
    if (!family.mlir && !family.ptx) {
      PrintError(def, "family '" + family.name + "' rewrites no kernel form");
      return false;
    }
    if (!family.importedSummary.empty() && !family.ptx) {
      PrintError(def, "family '" + family.name +
                          "' has an imported summary but no imported form");
      return false;
    }
    families.push_back(std::move(family));
  }
  if (families.empty()) {
    PrintError("no RewriteFamily is defined");
    return false;
  }
  return true;
}

/// `text` as a C++ string literal.
std::string quote(StringRef text) {
  std::string literal = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      literal += '\\';
    literal += c;
  }
  return literal + "\"";
}

void emitList(raw_ostream &os, StringRef guard, StringRef macro,
              ArrayRef<Family> families, bool Family::*form) {
  os << "#ifdef " << guard << "\n#undef " << guard << "\n";
  for (const Family &family : families)
    if (family.*form)
      os << macro << "(" << family.record->getName() << ")\n";
  os << "#undef " << macro << "\n#endif // " << guard << "\n\n";
}

} // namespace

bool autoprof::tblgen::emitRewriteFamilyDefs(const RecordKeeper &records,
                                             raw_ostream &os) {
  std::vector<Family> families;
  if (!readFamilies(records, families))
    return true;
  emitSourceFileHeader("The built-in rewrite families", os, records);

  os << "#ifdef GET_REWRITE_FAMILY_ENUM\n#undef GET_REWRITE_FAMILY_ENUM\n"
     << "/// The built-in rewrite families, in registry order.\n"
     << "enum class BuiltinRewriteFamily : unsigned {\n";
  for (const Family &family : families)
    os << "  " << family.record->getName() << ",\n";
  os << "};\n#endif // GET_REWRITE_FAMILY_ENUM\n\n";

  os << "#ifdef GET_REWRITE_FAMILY_DECLS\n#undef GET_REWRITE_FAMILY_DECLS\n";
  for (const Family &family : families) {
    StringRef def = family.record->getName();
    if (!family.parameter.values.empty()) {
      os << "static const int64_t k" << def << "Values[] = {";
      llvm::interleaveComma(family.parameter.values, os);
      os << "};\n";
    }
    if (!family.facts.empty()) {
      os << "static const ::llvm::StringRef k" << def << "Facts[] = {";
      llvm::interleaveComma(family.facts, os,
                            [&](StringRef fact) { os << quote(fact); });
      os << "};\n";
    }
  }
  // The fact vocabulary the declarations draw on, in its order.
  std::vector<const Record *> factDefs(
      records.getAllDerivedDefinitions("BottleneckFact"));
  llvm::sort(factDefs, LessRecordByID());
  os << "static const ::llvm::StringRef kDeclaredFactNames[] = {";
  llvm::interleaveComma(factDefs, os, [&](const Record *fact) {
    os << quote(fact->getValueAsString("name"));
  });
  os << "};\n";
  os << "static const RewriteFamilyDecl kBuiltinRewriteFamilyDecls[] = {\n";
  for (const Family &family : families) {
    StringRef def = family.record->getName();
    const Domain &domain = family.parameter;
    os << "    {" << quote(family.name) << ",\n     " << quote(family.summary)
       << ",\n     " << quote(family.importedSummary) << ",\n     "
       << "{ParameterDomain::Kind::" << domain.kind << ", "
       << quote(domain.noun) << ", " << quote(domain.phrase) << ", ";
    if (domain.values.empty())
      os << "{}";
    else
      os << "k" << def << "Values";
    os << ", " << domain.low << ", " << domain.high << ", " << domain.step
       << "},\n     ";
    if (family.facts.empty())
      os << "{}";
    else
      os << "k" << def << "Facts";
    os << ", " << (family.mlir ? "true" : "false") << ", "
       << (family.ptx ? "true" : "false") << "},\n";
  }
  os << "};\n#endif // GET_REWRITE_FAMILY_DECLS\n\n";

  emitList(os, "GET_MLIR_REWRITE_FAMILIES", "AUTOPROF_MLIR_REWRITE_FAMILY",
           families, &Family::mlir);
  emitList(os, "GET_PTX_REWRITE_FAMILIES", "AUTOPROF_PTX_REWRITE_FAMILY",
           families, &Family::ptx);
  return false;
}

bool autoprof::tblgen::emitRewriteFamilyDoc(const RecordKeeper &records,
                                            raw_ostream &os) {
  std::vector<Family> families;
  if (!readFamilies(records, families))
    return true;
  os << "<!-- Generated from include/autoprof/Optimizer/RewriteFamilies.td; "
        "do not edit.\n"
        "     build/bin/autoprof-tblgen -gen-rewrite-family-doc -I include\n"
        "       include/autoprof/Optimizer/RewriteFamilies.td\n"
        "       -o docs/rewrite-families.md -->\n"
        "# Rewrite families\n\n"
        "Every built-in rewrite family, as\n"
        "`include/autoprof/Optimizer/RewriteFamilies.td` declares it.\n"
        "A rewrite is written `family=parameter`.\n"
        "The table is in registry order, which breaks ties between equal "
        "scores.\n"
        "`docs/optimizer.md` says when each family applies and how it is "
        "ranked.\n"
        "`docs/diagnosis.md` defines the facts.\n\n"
        "| Family | Kernels | Parameter | What it does | Facts it addresses "
        "|\n|---|---|---|---|---|\n";
  for (const Family &family : families) {
    os << "| `" << family.name << "` | ";
    if (family.mlir)
      os << "MLIR";
    if (family.mlir && family.ptx)
      os << ", ";
    if (family.ptx)
      os << "imported";
    os << " | ";
    // The parameter of a family without choices is just "1".
    if (family.parameter.noun != "the parameter")
      os << family.parameter.noun << ": ";
    os << family.parameter.phrase << " | " << family.summary;
    if (!family.importedSummary.empty())
      os << (family.mlir ? "; imported kernels: " : "")
         << family.importedSummary;
    os << " | ";
    if (family.facts.empty())
      os << "none";
    llvm::interleaveComma(family.facts, os,
                          [&](StringRef fact) { os << "`" << fact << "`"; });
    os << " |\n";
  }
  return false;
}
