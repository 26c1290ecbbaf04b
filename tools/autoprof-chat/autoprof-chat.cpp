//===- autoprof-chat.cpp - One chat request through AutoProf's client -----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Sends one chat request (JSON, include/autoprof/LLM/ChatJson.h) to a model
// through the client the optimizer uses (retries, answer cache, the key
// from the environment, never printed) and prints the answer as JSON.
// The Python package's Triton rewriting asks its model through this tool.
//
//   autoprof-chat request.json --model=NAME [--endpoint=URL]
//       [--api-style=openai|anthropic] [--cache-dir=DIR] [--replay-only]
//       [--max-tokens=N] [--retries=N]
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/LLM/ChatJson.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory chatCategory("autoprof-chat options");
static cl::opt<std::string> requestPath(cl::Positional, cl::cat(chatCategory),
                                        cl::desc("<request.json or ->"),
                                        cl::init("-"));
static cl::opt<std::string>
    endpoint(cl::cat(chatCategory), "endpoint",
             cl::desc("LLM base URL (default: $OPENAI_BASE_URL / "
                      "$ANTHROPIC_BASE_URL, then http://localhost:8000/v1)"));
static cl::opt<std::string> modelName(cl::cat(chatCategory), "model",
                                      cl::desc("LLM model name (default: "
                                               "$OPENAI_MODEL)"));
static cl::opt<std::string>
    apiStyle(cl::cat(chatCategory), "api-style", cl::init("openai"),
             cl::desc("LLM API: openai (chat completions) or anthropic"));
static cl::opt<std::string> cacheDir(cl::cat(chatCategory), "cache-dir",
                                     cl::desc("Cache answers in this "
                                              "directory"));
static cl::opt<bool> replayOnly(cl::cat(chatCategory), "replay-only",
                                cl::desc("Answer only from the cache (no "
                                         "network)"));
static cl::opt<unsigned> maxTokens(cl::cat(chatCategory), "max-tokens",
                                   cl::init(4096),
                                   cl::desc("Upper bound on the answer's "
                                            "tokens"));

static cl::opt<unsigned> retries(cl::cat(chatCategory), "retries",
                                 cl::init(4),
                                 cl::desc("Attempts after the first for "
                                          "transient failures"));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(chatCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "Sends one chat request to a model and prints "
                              "the answer as JSON\n");
  std::optional<::autoprof::llm::ApiStyle> style =
      ::autoprof::llm::parseApiStyle(apiStyle);
  if (!style) {
    errs() << "autoprof-chat: api-style must be 'openai' or 'anthropic', got '"
           << apiStyle << "'\n";
    return 1;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFileOrSTDIN(requestPath);
  if (!buffer) {
    errs() << "autoprof-chat: cannot read " << requestPath << ": "
           << buffer.getError().message() << "\n";
    return 1;
  }
  Expected<::autoprof::llm::ChatRequest> request =
      ::autoprof::llm::parseChatRequest((*buffer)->getBuffer());
  if (!request) {
    errs() << "autoprof-chat: " << requestPath << ": "
           << toString(request.takeError()) << "\n";
    return 1;
  }
  ::autoprof::llm::ChatOptions options;
  options.style = *style;
  options.baseUrl = endpoint;
  options.model = modelName;
  options.cacheDirectory = cacheDir;
  options.replayOnly = replayOnly;
  options.maxTokens = maxTokens;
  options.maxRetries = retries;
  ::autoprof::llm::ChatClient client(
      ::autoprof::llm::ChatOptions::fromEnvironment(options));
  Expected<::autoprof::llm::ChatResponse> response = client.complete(*request);
  if (!response) {
    errs() << "autoprof-chat: " << toString(response.takeError()) << "\n";
    return 1;
  }
  outs() << formatv("{0:2}", json::Value(::autoprof::llm::toJSON(*response)))
         << "\n";
  return 0;
}
