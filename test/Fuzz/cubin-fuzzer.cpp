//===- cubin-fuzzer.cpp - Fuzzes reading a cubin's entry ------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for the cubins a kernel spec names and the `bin`
// objects of imported binaries, which nothing but AutoProf's own reader
// checks before a job carries them to the driver: each input is a file
// whose kernel is `saxpy`, `scale` or `add_kernel` (the seeds are the
// cubins of the test inputs).
// Nothing may crash, and what is read must be consistent: the parameters
// lie within their total size, and the architecture is an `sm_` one.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/Cubin.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::autoprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef cubin(reinterpret_cast<const char *>(data), size);
  for (llvm::StringRef entry : {"saxpy", "scale", "add_kernel"}) {
    llvm::Expected<CubinEntry> read = readCubinEntry(cubin, entry);
    if (!read) {
      llvm::consumeError(read.takeError());
      continue;
    }
    if (!llvm::StringRef(read->chip).starts_with("sm_")) {
      llvm::errs() << "the architecture read is '" << read->chip << "'\n";
      abort();
    }
    for (const CubinParam &param : read->params) {
      if (param.bytes == 0 ||
          uint64_t(param.offset) + param.bytes > read->paramBytes) {
        llvm::errs() << "a parameter of " << param.bytes << " bytes at "
                     << param.offset << " lies outside the " << read->paramBytes
                     << " bytes of parameters\n";
        abort();
      }
    }
  }
  return 0;
}
