//===- job-fuzzer.cpp - Fuzzes the evaluation-job JSON reader -------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for the documents the compiler and autoprof-worker
// exchange: each input is read both as an evaluation job and as an
// evaluation result. A document that reads must also survive a round trip:
// written back with toJSON, it must read again and give the same JSON values.
// The compiler writes what the worker reads, so a document one side produces
// and the other refuses or changes is a bug.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/Job.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace autoprof::runtime;

/// The JSON text of `document`, as the compiler and the worker write it.
template <typename T> static std::string writeDocument(const T &document) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << toJSON(document);
  return text;
}

/// Whether two JSON texts hold the same values; numbers compare by value.
static bool sameJSON(llvm::StringRef a, llvm::StringRef b) {
  llvm::Expected<llvm::json::Value> first = llvm::json::parse(a);
  llvm::Expected<llvm::json::Value> second = llvm::json::parse(b);
  if (!first || !second) {
    llvm::consumeError(first.takeError());
    llvm::consumeError(second.takeError());
    return false;
  }
  return *first == *second;
}

/// Reads `text` as a T; when it reads, checks that writing it back and
/// reading that again gives the same document, and aborts when not.
template <typename T>
static void checkRoundTrip(llvm::StringRef text, llvm::StringRef what) {
  llvm::Expected<T> document = parseDocument<T>(text, what);
  if (!document) {
    llvm::consumeError(document.takeError());
    return;
  }
  std::string written = writeDocument(*document);
  llvm::Expected<T> reread = parseDocument<T>(written, what);
  if (!reread) {
    llvm::errs() << what << " written by toJSON does not read back: "
                 << llvm::toString(reread.takeError()) << "\n"
                 << written << "\n";
    std::abort();
  }
  // Compared as JSON values, where numbers compare by value: llvm::json
  // writes -0.0 as "-0", which reads back as the integer 0.
  std::string rewritten = writeDocument(*reread);
  if (!sameJSON(written, rewritten)) {
    llvm::errs() << what << " changes in a round trip:\n"
                 << written << "\n"
                 << rewritten << "\n";
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  checkRoundTrip<EvaluationJob>(text, "job");
  checkRoundTrip<EvaluationResult>(text, "result");
  return 0;
}
