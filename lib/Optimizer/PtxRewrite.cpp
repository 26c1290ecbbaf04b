//===- PtxRewrite.cpp - Rewrites of kernels known only as PTX -------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/PtxRewrite.h"

#include "PtxFamilies/PtxFamilies.h"

#include "autoprof/Diagnosis/BottleneckFacts.h"
#include "autoprof/Import/ImportedKernel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::autoprof;

PtxRewriteFamily::PtxRewriteFamily(BuiltinRewriteFamily family)
    : decl(getBuiltinRewriteFamilyDecl(family)) {
  assert(decl.rewritesImported && "the family declares no imported form");
}

PtxRewriteFamily::~PtxRewriteFamily() = default;

ArrayRef<std::unique_ptr<PtxRewriteFamily>>
mlir::autoprof::getPtxRewriteFamilies() {
  static const std::vector<std::unique_ptr<PtxRewriteFamily>> families = [] {
    std::vector<std::unique_ptr<PtxRewriteFamily>> list;
    // Those RewriteFamilies.td declares for imported kernels, in its order.
#define AUTOPROF_PTX_REWRITE_FAMILY(Name)                                      \
  list.push_back(ptx_rewrites::create##Name##Family());
#define GET_PTX_REWRITE_FAMILIES
#include "autoprof/Optimizer/RewriteFamilies.h.inc"
    return list;
  }();
  return families;
}

std::string PtxProposal::label() const {
  return family->getName().str() + "=" + std::to_string(parameter);
}

SmallVector<PtxProposal>
mlir::autoprof::proposePtxRewrites(const RewriteEvidence &evidence) {
  SmallVector<PtxProposal> proposals;
  for (const std::unique_ptr<PtxRewriteFamily> &family :
       getPtxRewriteFamilies()) {
    SmallVector<RankedParameter> ranked;
    family->rank(evidence, ranked);
    for (const RankedParameter &entry : ranked)
      proposals.push_back({family.get(), entry.parameter, entry.score});
  }
  llvm::stable_sort(proposals, [](const PtxProposal &a, const PtxProposal &b) {
    return a.score > b.score;
  });
  return proposals;
}

/// Where the declaration of `entry` in `ptx` has its directives: the text
/// between its parameter list and its body, and the offset of the body's
/// brace; or why it cannot be found.
static std::optional<std::string> locateDirectives(StringRef ptx,
                                                   StringRef entry,
                                                   StringRef &declared,
                                                   size_t &body) {
  std::optional<PtxEntryLocation> location = locatePtxEntry(ptx, entry);
  if (!location)
    return "the PTX has no entry '" + entry.str() + "'";
  body = location->bodyOpen;
  if (body == StringRef::npos)
    return "the declaration of entry '" + entry.str() + "' is not closed";
  declared = ptx.slice(location->paramsClose + 1, body);
  return std::nullopt;
}

std::optional<std::string>
mlir::autoprof::checkNoEntryDirective(StringRef ptx, StringRef entry,
                                      StringRef keyword) {
  StringRef declared;
  size_t body;
  if (std::optional<std::string> why =
          locateDirectives(ptx, entry, declared, body))
    return why;
  // Directives are words separated by blanks, commas or line ends.
  SmallVector<StringRef> words;
  SplitString(declared, words, " \t\r\n,");
  for (StringRef word : words)
    if (word == keyword)
      return "entry '" + entry.str() + "' already declares " + keyword.str();
  return std::nullopt;
}

std::optional<std::string>
mlir::autoprof::addEntryDirective(std::string &ptx, StringRef entry,
                                  StringRef directive) {
  if (std::optional<std::string> why =
          checkNoEntryDirective(ptx, entry, directive.split(' ').first))
    return why;
  StringRef declared;
  size_t body;
  locateDirectives(ptx, entry, declared, body);
  ptx.insert(body, directive.str() + "\n");
  return std::nullopt;
}

std::optional<std::string>
mlir::autoprof::addVariantDirective(PtxVariant &variant, StringRef entry,
                                    StringRef directive) {
  // Only a cubin's variants have no PTX (ImportedKernel::getJobKernel).
  if (variant.ptx.empty())
    return "the kernel is known only as a cubin, whose machine code takes "
           "no " +
           directive.split(' ').first.str();
  if (std::optional<std::string> why =
          addEntryDirective(variant.ptx, entry, directive))
    return why;
  variant.directives.push_back(directive.str());
  return std::nullopt;
}
