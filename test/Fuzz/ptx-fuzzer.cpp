//===- ptx-fuzzer.cpp - Fuzzes reading and editing PTX text ---------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for what AutoProf does with PTX it did not write (a
// kernel spec's file, NVRTC's output for a model's CUDA answer): each input
// is a PTX module whose entry is `k`. Its entry is read, its body's
// instructions counted, and PTX directives added to the entry. Nothing may
// crash, and a directive that is added must leave an entry that reads as
// before: the same target, the same parameters, the same instruction counts.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/ImportedKernel.h"
#include "autoprof/Import/KernelSpec.h"
#include "autoprof/Import/PtxInstructions.h"
#include "autoprof/Optimizer/PtxRewrite.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::autoprof;

/// Whether two counts agree in every name and value.
static bool sameCounts(const PtxInstructionCounts &a,
                       const PtxInstructionCounts &b) {
  if (a.loops != b.loops || a.loopDepth != b.loopDepth ||
      a.maxVectorBits != b.maxVectorBits ||
      a.counts.size() != b.counts.size())
    return false;
  for (const auto &entry : a.counts)
    if (b.counts.lookup(entry.getKey()) != entry.getValue())
      return false;
  return true;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string ptx(reinterpret_cast<const char *>(data), size);
  // The counter reads any text: the whole input as a body, then the
  // entry's own.
  (void)countPtxInstructions(ptx);
  llvm::StringRef body = getPtxEntryBody(ptx, "k");
  PtxInstructionCounts counts = countPtxInstructions(body);

  llvm::Expected<PtxEntry> entry = readPtxEntry(ptx, "k");
  if (!entry) {
    llvm::consumeError(entry.takeError());
    return 0;
  }
  for (const char *directive : {".maxnreg 64", ".minnctapersm 2",
                                ".maxntid 256, 1, 1"}) {
    std::string edited = ptx;
    if (std::optional<std::string> why =
            addEntryDirective(edited, "k", directive))
      continue;
    llvm::Expected<PtxEntry> reread = readPtxEntry(edited, "k");
    if (!reread) {
      llvm::errs() << "the entry does not read after adding '" << directive
                   << "': " << llvm::toString(reread.takeError()) << "\n";
      abort();
    }
    if (reread->target != entry->target ||
        reread->paramTypes != entry->paramTypes) {
      llvm::errs() << "adding '" << directive
                   << "' changed the entry's target or parameters\n";
      abort();
    }
    if (!sameCounts(counts,
                    countPtxInstructions(getPtxEntryBody(edited, "k")))) {
      llvm::errs() << "adding '" << directive
                   << "' changed the instructions of the entry's body\n";
      abort();
    }
  }
  return 0;
}
