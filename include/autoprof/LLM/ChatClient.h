//===- ChatClient.h - Chat completions over HTTP with a cache ---*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Sends one chat request to a language model server and returns its answer.
// Two wire formats are spoken: OpenAI-compatible chat completions (vLLM,
// llama.cpp, Ollama, SGLang, hosted APIs) and the Anthropic Messages API.
// Transient failures (HTTP 408, 429, 5xx, refused connections, timeouts) are
// retried with exponential backoff, honoring `retry-after`. Answers are cached
// on disk by a hash of the request, and a replay-only mode answers from that
// cache alone, so that tests and recorded runs need no server.
//
// The API key goes into one request header and nowhere else: it is not part
// of the cache key, not stored in the cache, and removed from every error
// message, even one that quotes the server.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LLM_CHATCLIENT_H
#define AUTOPROF_LLM_CHATCLIENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace autoprof::llm {

/// The wire format of the server.
enum class ApiStyle {
  /// `POST {base}/chat/completions`, `Authorization: Bearer KEY`.
  OpenAI,
  /// `POST {base}/messages`, `x-api-key: KEY`, `anthropic-version`.
  Anthropic,
};

/// The name of `style` as written in options and the cache: "openai" or
/// "anthropic".
llvm::StringRef getApiStyleName(ApiStyle style);

/// Parses "openai" or "anthropic" (any case); std::nullopt otherwise.
std::optional<ApiStyle> parseApiStyle(llvm::StringRef name);

/// Where and how to ask. Empty strings mean "not set";
/// ChatOptions::fromEnvironment fills them.
struct ChatOptions {
  /// Server root including the API version, e.g. http://localhost:8000/v1;
  /// the endpoint path is appended to it.
  std::string baseUrl;
  /// Model name as the server knows it.
  std::string model;
  /// Wire format.
  ApiStyle style = ApiStyle::OpenAI;
  /// Secret sent in a request header only; empty sends no key (local
  /// servers).
  std::string apiKey;
  /// Seconds allowed to establish the connection.
  double connectTimeoutSeconds = 10;
  /// Seconds allowed for one attempt, connection to last byte.
  double totalTimeoutSeconds = 300;
  /// Attempts after the first one for transient failures.
  unsigned maxRetries = 4;
  /// Delay before the first retry; it doubles with each further retry.
  double initialBackoffSeconds = 1;
  /// Upper bound on any delay between attempts, including one the server
  /// asks for with `retry-after`.
  double maxRetryDelaySeconds = 60;
  /// Sampling temperature.
  double temperature = 0.2;
  /// Upper bound on the tokens of the answer.
  unsigned maxTokens = 4096;
  /// Directory of the answer cache; empty disables caching.
  std::string cacheDirectory;
  /// Answer from the cache only; a miss is an error and nothing is sent.
  bool replayOnly = false;

  /// Returns `options` with its unset base URL, model and key taken from the
  /// environment: OPENAI_BASE_URL, OPENAI_MODEL and OPENAI_API_KEY for the
  /// OpenAI style, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL and ANTHROPIC_API_KEY
  /// for the Anthropic style. ANTHROPIC_BASE_URL names the server root, as
  /// for the Anthropic SDKs, so /v1 is appended unless it ends with it. A
  /// base URL set nowhere becomes the local vLLM default
  /// (http://localhost:8000/v1) or https://api.anthropic.com/v1.
  static ChatOptions fromEnvironment(ChatOptions options);

  /// The default options of the OpenAI style completed from the environment.
  static ChatOptions fromEnvironment();
};

/// One turn of the conversation.
struct ChatMessage {
  /// "user" or "assistant".
  std::string role;
  /// The text of the turn.
  std::string content;
};

/// What to ask: a system prompt and the conversation so far.
struct ChatRequest {
  /// Instructions for the model; empty sends none.
  std::string system;
  /// The conversation, oldest first; normally ends with a user turn.
  std::vector<ChatMessage> messages;
};

/// The model's answer and what it cost.
struct ChatResponse {
  /// The text of the answer.
  std::string text;
  /// Tokens of the prompt and of the answer as the server counted them;
  /// 0 when the server did not say.
  int64_t promptTokens = 0;
  int64_t completionTokens = 0;
  /// The server stopped at the token limit, so the answer may be cut short.
  bool truncated = false;
  /// Seconds spent in ChatClient::complete, waiting between attempts
  /// included.
  double latencySeconds = 0;
  /// HTTP attempts made; 0 when the answer came from the cache.
  unsigned attempts = 0;
  /// The answer was read from the cache.
  bool fromCache = false;
  /// Problems that did not prevent an answer, one sentence each (e.g. a
  /// corrupted cache entry that was replaced).
  std::vector<std::string> warnings;
};

/// Sends chat requests as configured by its options. complete() may be
/// called from several threads at once.
class ChatClient {
public:
  /// A client for `options`, used as given (see ChatOptions::fromEnvironment).
  explicit ChatClient(ChatOptions options);

  /// Answers `request` from the cache or the server. Fails with a message
  /// naming the endpoint (never the key) when the options are incomplete, the
  /// server cannot be reached or keeps failing, refuses the request, or
  /// answers something other than the expected JSON; and when the cache
  /// cannot be written or, in replay-only mode, has no answer.
  llvm::Expected<ChatResponse> complete(const ChatRequest &request) const;

  /// The cache key of `request` under these options: the lowercase SHA-256
  /// of its canonical JSON (API style, base URL, model, system prompt,
  /// messages, temperature, max tokens; never the key). The entry is the
  /// file `<cacheDirectory>/<key>.json`.
  std::string getCacheKey(const ChatRequest &request) const;

  /// The options in use.
  const ChatOptions &getOptions() const { return options; }

private:
  ChatOptions options;
};

} // namespace autoprof::llm

#endif // AUTOPROF_LLM_CHATCLIENT_H
