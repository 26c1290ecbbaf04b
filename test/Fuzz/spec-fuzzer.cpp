//===- spec-fuzzer.cpp - Fuzzes reading kernel specs ----------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for kernel specs, which users write by hand: each input
// is read as a JSON spec and as a YAML spec. Nothing may crash, and the YAML
// reader must give a JSON value that JSON writes and reads back unchanged
// (the spec checks run on that value).
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/KernelSpec.h"
#include "autoprof/Support/Json.h"
#include "autoprof/Support/Yaml.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::autoprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  for (llvm::StringRef path : {"/specs/k.json", "/specs/k.yaml"}) {
    llvm::Expected<KernelSpec> spec = parseKernelSpec(text, path);
    if (!spec)
      llvm::consumeError(spec.takeError());
  }
  llvm::Expected<llvm::json::Value> value = ::autoprof::parseYamlAsJson(text);
  if (!value) {
    llvm::consumeError(value.takeError());
    return 0;
  }
  std::string written;
  llvm::raw_string_ostream(written) << *value;
  llvm::Expected<llvm::json::Value> reread = ::autoprof::parseJson(written);
  if (!reread) {
    llvm::errs() << "the YAML's JSON value does not read back: "
                 << llvm::toString(reread.takeError()) << "\n"
                 << written << "\n";
    std::abort();
  }
  if (*reread != *value) {
    llvm::errs() << "the YAML's JSON value changes in a round trip:\n"
                 << written << "\n";
    std::abort();
  }
  return 0;
}
