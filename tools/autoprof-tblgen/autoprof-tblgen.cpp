//===- autoprof-tblgen.cpp - AutoProf's TableGen backends -----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Reads a TableGen file and runs the backend its option names:
// -gen-rewrite-family-defs or -gen-rewrite-family-doc
// (RewriteFamilyEmitter.cpp).
//
//===----------------------------------------------------------------------===//

#include "RewriteFamilyEmitter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

using namespace llvm;

namespace {

enum class Action { None, RewriteFamilyDefs, RewriteFamilyDoc };

cl::opt<Action> action(
    cl::desc("What to generate:"), cl::init(Action::None),
    cl::values(clEnumValN(Action::RewriteFamilyDefs, "gen-rewrite-family-defs",
                          "The rewrite families' declaration table (C++)"),
               clEnumValN(Action::RewriteFamilyDoc, "gen-rewrite-family-doc",
                          "The rewrite families' reference page (Markdown)")));

bool generate(raw_ostream &os, const RecordKeeper &records) {
  switch (action) {
  case Action::RewriteFamilyDefs:
    return autoprof::tblgen::emitRewriteFamilyDefs(records, os);
  case Action::RewriteFamilyDoc:
    return autoprof::tblgen::emitRewriteFamilyDoc(records, os);
  case Action::None:
    break;
  }
  errs() << "autoprof-tblgen: name what to generate (-gen-rewrite-family-defs "
            "or -gen-rewrite-family-doc)\n";
  return true;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "AutoProf's TableGen backends\n");
  return TableGenMain(argv[0], TableGenMainFn(&generate));
}
