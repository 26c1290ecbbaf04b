//===- ChatClient.cpp - Chat completions over HTTP with a cache -----------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/Support/InputFile.h"
#include "autoprof/Support/Json.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>

using namespace autoprof::llm;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

/// Identifies the layout of cache entries; part of every cache key, so that
/// a new layout never reads an old entry.
static constexpr llvm::StringLiteral kCacheFormat = "autoprof-llm-cache-1";

static constexpr llvm::StringLiteral kOpenAIDefaultBaseUrl =
    "http://localhost:8000/v1";
static constexpr llvm::StringLiteral kAnthropicDefaultBaseUrl =
    "https://api.anthropic.com/v1";
static constexpr llvm::StringLiteral kAnthropicVersion = "2023-06-01";

/// How much of a server's answer an error message quotes.
static constexpr size_t kQuoteLimit = 300;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

llvm::StringRef autoprof::llm::getApiStyleName(ApiStyle style) {
  switch (style) {
  case ApiStyle::OpenAI:
    return "openai";
  case ApiStyle::Anthropic:
    return "anthropic";
  }
  return "openai";
}

std::optional<ApiStyle> autoprof::llm::parseApiStyle(llvm::StringRef name) {
  if (name.equals_insensitive("openai"))
    return ApiStyle::OpenAI;
  if (name.equals_insensitive("anthropic"))
    return ApiStyle::Anthropic;
  return std::nullopt;
}

/// Sets `field` from environment variable `variable` unless it is set.
static void fillFromEnvironment(std::string &field, const char *variable) {
  if (!field.empty())
    return;
  if (std::optional<std::string> value = llvm::sys::Process::GetEnv(variable))
    field = *value;
}

ChatOptions ChatOptions::fromEnvironment(ChatOptions options) {
  if (options.style == ApiStyle::Anthropic) {
    bool hadBaseUrl = !options.baseUrl.empty();
    fillFromEnvironment(options.baseUrl, "ANTHROPIC_BASE_URL");
    // ANTHROPIC_BASE_URL is the server root (the Anthropic SDKs append
    // /v1/messages), while our base URL includes the version.
    llvm::StringRef root = llvm::StringRef(options.baseUrl).rtrim('/');
    if (!hadBaseUrl && !root.empty() && !root.ends_with("/v1"))
      options.baseUrl = (root + "/v1").str();
    fillFromEnvironment(options.model, "ANTHROPIC_MODEL");
    fillFromEnvironment(options.apiKey, "ANTHROPIC_API_KEY");
    if (options.baseUrl.empty())
      options.baseUrl = kAnthropicDefaultBaseUrl.str();
    return options;
  }
  fillFromEnvironment(options.baseUrl, "OPENAI_BASE_URL");
  fillFromEnvironment(options.model, "OPENAI_MODEL");
  fillFromEnvironment(options.apiKey, "OPENAI_API_KEY");
  if (options.baseUrl.empty())
    options.baseUrl = kOpenAIDefaultBaseUrl.str();
  return options;
}

ChatOptions ChatOptions::fromEnvironment() {
  return fromEnvironment(ChatOptions());
}

//===----------------------------------------------------------------------===//
// Requests and answers
//===----------------------------------------------------------------------===//

/// The base URL without trailing slashes, so that "…/v1" and "…/v1/" name
/// the same endpoint and the same cache entries.
static llvm::StringRef normalizedBaseUrl(const ChatOptions &options) {
  return llvm::StringRef(options.baseUrl).rtrim('/');
}

static std::string endpointOf(const ChatOptions &options) {
  return (normalizedBaseUrl(options) + (options.style == ApiStyle::Anthropic
                                            ? "/messages"
                                            : "/chat/completions"))
      .str();
}

static Array messagesToJSON(const std::vector<ChatMessage> &messages) {
  Array array;
  for (const ChatMessage &message : messages)
    array.push_back(
        Object{{"role", message.role}, {"content", message.content}});
  return array;
}

/// The body of the HTTP request.
static Value requestBody(const ChatOptions &options,
                         const ChatRequest &request) {
  Object body{{"model", options.model},
              {"temperature", options.temperature},
              {"max_tokens", static_cast<int64_t>(options.maxTokens)}};
  if (options.style == ApiStyle::Anthropic) {
    // The Messages API takes the system prompt beside the conversation.
    if (!request.system.empty())
      body["system"] = request.system;
    body["messages"] = messagesToJSON(request.messages);
    return body;
  }
  Array messages;
  if (!request.system.empty())
    messages.push_back(Object{{"role", "system"}, {"content", request.system}});
  for (Value &message : messagesToJSON(request.messages))
    messages.push_back(std::move(message));
  body["messages"] = std::move(messages);
  return body;
}

/// Everything that determines the answer, and nothing secret.
static Value canonicalRequest(const ChatOptions &options,
                              const ChatRequest &request) {
  return Object{{"format", kCacheFormat},
                {"api", getApiStyleName(options.style)},
                {"base_url", normalizedBaseUrl(options)},
                {"model", options.model},
                {"system", request.system},
                {"messages", messagesToJSON(request.messages)},
                {"temperature", options.temperature},
                {"max_tokens", static_cast<int64_t>(options.maxTokens)}};
}

/// The start of `text`, for error messages.
static std::string quote(llvm::StringRef text) {
  text = text.trim();
  if (text.size() <= kQuoteLimit)
    return text.str();
  return (text.take_front(kQuoteLimit) + "...").str();
}

/// The error message in a server's JSON answer, in the shapes used by
/// OpenAI ({"error": {"message"}}), Anthropic ({"type": "error", "error":
/// {"message"}}), vLLM ({"message"}) and FastAPI ({"detail"}); empty when
/// there is none.
static std::string serverMessage(const Value &answer) {
  const Object *object = answer.getAsObject();
  if (!object)
    return "";
  if (const Object *error = object->getObject("error"))
    if (std::optional<llvm::StringRef> message = error->getString("message"))
      return message->str();
  for (llvm::StringRef field : {"error", "message", "detail"})
    if (std::optional<llvm::StringRef> message = object->getString(field))
      return message->str();
  return "";
}

/// What the server said about a failure: its error message when the body is
/// JSON that has one, else the start of the body.
static std::string describeBody(llvm::StringRef body) {
  if (llvm::Expected<Value> answer = ::autoprof::parseJson(body)) {
    std::string message = serverMessage(*answer);
    if (!message.empty())
      return quote(message);
  } else {
    llvm::consumeError(answer.takeError());
  }
  return quote(body);
}

namespace {
/// The part of an answer that is cached.
struct Answer {
  std::string text;
  int64_t promptTokens = 0;
  int64_t completionTokens = 0;
  bool truncated = false;
};
} // namespace

/// Reads the answer of a 2xx response, or says what is missing.
static llvm::Expected<Answer> parseAnswer(ApiStyle style,
                                          llvm::StringRef body) {
  llvm::Expected<Value> parsed = ::autoprof::parseJson(body);
  if (!parsed)
    return makeError("the answer is not valid JSON (" +
                     llvm::toString(parsed.takeError()) + "): " + quote(body));
  const Object *object = parsed->getAsObject();
  auto missing = [&](llvm::StringRef what) {
    std::string message = serverMessage(*parsed);
    return makeError("the answer has no " + what +
                     (message.empty()
                          ? "; it begins: " + quote(body)
                          : "; the server says: " + quote(message)));
  };
  if (!object)
    return missing("JSON object");

  Answer answer;
  if (style == ApiStyle::Anthropic) {
    // Content is a list of blocks; thinking or tool blocks may precede the
    // text, so every text block is taken.
    const Array *content = object->getArray("content");
    bool found = false;
    for (size_t i = 0, e = content ? content->size() : 0; i != e; ++i) {
      const Object *blockObject = (*content)[i].getAsObject();
      if (!blockObject || blockObject->getString("type") != "text")
        continue;
      if (std::optional<llvm::StringRef> text =
              blockObject->getString("text")) {
        answer.text += *text;
        found = true;
      }
    }
    if (!found)
      return missing("text in content[]");
    answer.truncated = object->getString("stop_reason") == "max_tokens";
    if (const Object *usage = object->getObject("usage")) {
      answer.promptTokens = usage->getInteger("input_tokens").value_or(0);
      answer.completionTokens = usage->getInteger("output_tokens").value_or(0);
    }
    return answer;
  }

  const Array *choices = object->getArray("choices");
  const Object *choice =
      choices && !choices->empty() ? choices->front().getAsObject() : nullptr;
  const Object *message = choice ? choice->getObject("message") : nullptr;
  std::optional<llvm::StringRef> text =
      message ? message->getString("content") : std::nullopt;
  if (!text)
    return missing("choices[0].message.content");
  answer.text = text->str();
  answer.truncated = choice->getString("finish_reason") == "length";
  if (const Object *usage = object->getObject("usage")) {
    answer.promptTokens = usage->getInteger("prompt_tokens").value_or(0);
    answer.completionTokens =
        usage->getInteger("completion_tokens").value_or(0);
  }
  return answer;
}

//===----------------------------------------------------------------------===//
// HTTP
//===----------------------------------------------------------------------===//

/// Initializes libcurl once per process; curl_global_init is not
/// thread-safe, complete() is.
static CURLcode initializeCurl() {
  static std::once_flag once;
  static CURLcode result = CURLE_OK;
  std::call_once(once, [] { result = curl_global_init(CURL_GLOBAL_DEFAULT); });
  return result;
}

namespace {
/// What one HTTP attempt gave.
struct HttpResult {
  /// CURLE_OK when an HTTP answer arrived, whatever its status.
  CURLcode code = CURLE_OK;
  /// curl's detailed message when `code` is not CURLE_OK.
  std::string transportMessage;
  long status = 0;
  std::string body;
  /// Seconds the server asked to wait (`retry-after`); 0 when it did not.
  double retryAfterSeconds = 0;
};

/// Frees a header list.
struct HeaderList {
  curl_slist *list = nullptr;
  ~HeaderList() { curl_slist_free_all(list); }
  void append(const std::string &header) {
    list = curl_slist_append(list, header.c_str());
  }
};

struct CurlHandleDeleter {
  void operator()(CURL *handle) const { curl_easy_cleanup(handle); }
};
} // namespace

static size_t appendToString(char *data, size_t size, size_t count,
                             void *user) {
  static_cast<std::string *>(user)->append(data, size * count);
  return size * count;
}

/// POSTs `body` to `url` once. A fresh handle per attempt keeps concurrent
/// calls independent.
static HttpResult post(const ChatOptions &options, const std::string &url,
                       const std::string &body) {
  HttpResult result;
  std::unique_ptr<CURL, CurlHandleDeleter> curl(curl_easy_init());
  if (!curl) {
    result.code = CURLE_FAILED_INIT;
    result.transportMessage = "curl_easy_init failed";
    return result;
  }
  HeaderList headers;
  headers.append("Content-Type: application/json");
  headers.append("Accept: application/json");
  // No "Expect: 100-continue" round trip for large prompts.
  headers.append("Expect:");
  if (options.style == ApiStyle::Anthropic) {
    headers.append(("anthropic-version: " + kAnthropicVersion).str());
    if (!options.apiKey.empty())
      headers.append("x-api-key: " + options.apiKey);
  } else if (!options.apiKey.empty()) {
    headers.append("Authorization: Bearer " + options.apiKey);
  }

  char errorBuffer[CURL_ERROR_SIZE] = {0};
  auto millis = [](double seconds) {
    return static_cast<long>(std::max(1.0, std::ceil(seconds * 1000)));
  };
  CURL *handle = curl.get();
  curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
  curl_easy_setopt(handle, CURLOPT_POST, 1L);
  curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.list);
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, appendToString);
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, &result.body);
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, errorBuffer);
  // Timeouts by signal do not mix with threads.
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                   millis(options.connectTimeoutSeconds));
  curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS,
                   millis(options.totalTimeoutSeconds));
  curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(handle, CURLOPT_USERAGENT, "autoprof");

  result.code = curl_easy_perform(handle);
  if (result.code != CURLE_OK) {
    result.transportMessage =
        errorBuffer[0] ? errorBuffer : curl_easy_strerror(result.code);
    return result;
  }
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &result.status);
  // curl parses both forms of the header (seconds and HTTP date).
  curl_off_t retryAfter = 0;
  if (curl_easy_getinfo(handle, CURLINFO_RETRY_AFTER, &retryAfter) ==
          CURLE_OK &&
      retryAfter > 0)
    result.retryAfterSeconds = static_cast<double>(retryAfter);
  return result;
}

/// Transport failures that a later attempt may not meet.
static bool isTransientTransportError(CURLcode code) {
  switch (code) {
  case CURLE_COULDNT_CONNECT:
  case CURLE_OPERATION_TIMEDOUT:
  case CURLE_GOT_NOTHING:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_PARTIAL_FILE:
    return true;
  default:
    return false;
  }
}

static bool isTransientStatus(long status) {
  return status == 408 || status == 429 || (status >= 500 && status <= 599);
}

//===----------------------------------------------------------------------===//
// Cache
//===----------------------------------------------------------------------===//

static Value answerToJSON(const Answer &answer) {
  return Object{{"text", answer.text},
                {"prompt_tokens", answer.promptTokens},
                {"completion_tokens", answer.completionTokens},
                {"truncated", answer.truncated}};
}

/// Reads a cache entry; a message saying what is wrong with it otherwise.
static llvm::Expected<Answer> readCacheEntry(llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      ::autoprof::readInputFile(path);
  if (!buffer)
    return makeError(llvm::toString(buffer.takeError()));
  llvm::Expected<Value> entry = ::autoprof::parseJson((*buffer)->getBuffer());
  if (!entry)
    return makeError("it is not valid JSON: " +
                     llvm::toString(entry.takeError()));
  const Object *object = entry->getAsObject();
  const Object *response = object ? object->getObject("response") : nullptr;
  std::optional<llvm::StringRef> text =
      response ? response->getString("text") : std::nullopt;
  if (!text)
    return makeError("it has no response.text");
  Answer answer;
  answer.text = text->str();
  answer.promptTokens = response->getInteger("prompt_tokens").value_or(0);
  answer.completionTokens =
      response->getInteger("completion_tokens").value_or(0);
  answer.truncated = response->getBoolean("truncated").value_or(false);
  return answer;
}

/// Writes `entry` to `path` through a temporary file in the same directory
/// and a rename, so that readers, other processes included, see either no
/// entry or a complete one.
static llvm::Error writeCacheEntry(llvm::StringRef path, const Value &entry) {
  llvm::SmallString<256> temporary;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + "-%%%%%%%%.tmp", fd, temporary))
    return makeError("cannot write the LLM cache entry " + path + ": " +
                     ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << entry << "\n";
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return makeError("cannot write the LLM cache entry " + path + ": " +
                       message);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return makeError("cannot write the LLM cache entry " + path + ": " +
                     ec.message());
  }
  return llvm::Error::success();
}

/// Creates the cache directory if needed and checks that entries can be
/// written there, before any tokens are paid for.
static llvm::Error prepareCacheDirectory(llvm::StringRef directory) {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    return makeError("cannot create the LLM cache directory " + directory +
                     ": " + ec.message());
  if (!llvm::sys::fs::is_directory(directory))
    return makeError("the LLM cache directory " + directory +
                     " is not a directory");
  if (std::error_code ec =
          llvm::sys::fs::access(directory, llvm::sys::fs::AccessMode::Write))
    return makeError("the LLM cache directory " + directory +
                     " is not writable: " + ec.message());
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// ChatClient
//===----------------------------------------------------------------------===//

ChatClient::ChatClient(ChatOptions options) : options(std::move(options)) {}

std::string ChatClient::getCacheKey(const ChatRequest &request) const {
  std::string canonical;
  llvm::raw_string_ostream os(canonical);
  // llvm::json prints object members sorted by key, so equal requests give
  // equal text.
  os << canonicalRequest(options, request);
  os.flush();
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(canonical)),
                     /*LowerCase=*/true);
}

using Clock = std::chrono::steady_clock;

/// Seconds since `start`.
static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

static ChatResponse makeResponse(Answer answer, Clock::time_point start) {
  ChatResponse response;
  response.text = std::move(answer.text);
  response.promptTokens = answer.promptTokens;
  response.completionTokens = answer.completionTokens;
  response.truncated = answer.truncated;
  response.latencySeconds = secondsSince(start);
  return response;
}

static std::string formatSeconds(double seconds) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", seconds);
  return text;
}

/// Asks the server, retrying transient failures.
static llvm::Expected<Answer> ask(const ChatOptions &options,
                                  const ChatRequest &request,
                                  unsigned &attempts) {
  std::string url = endpointOf(options);
  std::string body;
  llvm::raw_string_ostream os(body);
  os << requestBody(options, request);
  os.flush();

  if (initializeCurl() != CURLE_OK)
    return makeError("cannot initialize libcurl: " +
                     llvm::Twine(curl_easy_strerror(initializeCurl())));

  double backoff = options.initialBackoffSeconds;
  for (attempts = 1;; ++attempts) {
    HttpResult result = post(options, url, body);
    std::string failure;
    bool transient;
    if (result.code != CURLE_OK) {
      failure = result.code == CURLE_OPERATION_TIMEDOUT
                    ? "the request hit its timeout (connect timeout " +
                          formatSeconds(options.connectTimeoutSeconds) +
                          " s, total timeout " +
                          formatSeconds(options.totalTimeoutSeconds) +
                          " s): " + result.transportMessage
                    : std::string(curl_easy_strerror(result.code)) + " (" +
                          result.transportMessage + ")";
      transient = isTransientTransportError(result.code);
    } else if (result.status >= 200 && result.status <= 299) {
      llvm::Expected<Answer> answer = parseAnswer(options.style, result.body);
      if (!answer)
        return makeError("POST " + url + " answered HTTP " +
                         llvm::Twine(result.status) + " but " +
                         llvm::toString(answer.takeError()));
      return answer;
    } else {
      failure = "HTTP " + std::to_string(result.status);
      std::string said = describeBody(result.body);
      if (!said.empty())
        failure += ": " + said;
      transient = isTransientStatus(result.status);
    }

    if (!transient || options.maxRetries == 0)
      return makeError("POST " + url +
                       (result.code == CURLE_OK ? " answered " : " failed: ") +
                       failure);
    if (attempts > options.maxRetries)
      return makeError("POST " + url + " failed on all " +
                       llvm::Twine(attempts) + " attempts; the last " +
                       (result.code == CURLE_OK ? "answer was " : "error: ") +
                       failure);

    double delay =
        result.retryAfterSeconds > 0 ? result.retryAfterSeconds : backoff;
    delay = std::max(0.0, std::min(delay, options.maxRetryDelaySeconds));
    backoff *= 2;
    std::this_thread::sleep_for(std::chrono::duration<double>(delay));
  }
}

/// Replaces every occurrence of `secret` in `text`.
static std::string redact(std::string text, llvm::StringRef secret) {
  if (secret.empty())
    return text;
  size_t position = 0;
  while ((position = text.find(secret.data(), position, secret.size())) !=
         std::string::npos) {
    text.replace(position, secret.size(), "<redacted>");
    position += llvm::StringRef("<redacted>").size();
  }
  return text;
}

/// complete() before the key is removed from its messages.
static llvm::Expected<ChatResponse>
completeUnredacted(const ChatOptions &options, const ChatRequest &request,
                   std::string cacheKey) {
  Clock::time_point start = Clock::now();
  if (options.baseUrl.empty())
    return makeError("no base URL for the LLM server: set one in the options "
                     "or in OPENAI_BASE_URL / ANTHROPIC_BASE_URL");
  llvm::StringRef baseUrl = options.baseUrl;
  if (!baseUrl.starts_with("http://") && !baseUrl.starts_with("https://"))
    return makeError("the LLM base URL '" + baseUrl +
                     "' does not start with http:// or https://");
  if (options.model.empty())
    return makeError("no model given for " + baseUrl +
                     ": set one in the options or in OPENAI_MODEL / "
                     "ANTHROPIC_MODEL");
  if (request.messages.empty())
    return makeError("the chat request has no messages");

  std::vector<std::string> warnings;
  llvm::SmallString<256> entryPath;
  if (!options.cacheDirectory.empty()) {
    entryPath = options.cacheDirectory;
    llvm::sys::path::append(entryPath, cacheKey + ".json");
    if (llvm::sys::fs::exists(entryPath)) {
      llvm::Expected<Answer> cached = readCacheEntry(entryPath);
      if (cached) {
        ChatResponse response = makeResponse(std::move(*cached), start);
        response.fromCache = true;
        return response;
      }
      warnings.push_back("the cached answer " + entryPath.str().str() +
                         " is unusable (" + llvm::toString(cached.takeError()) +
                         ")" +
                         (options.replayOnly ? ""
                                             : "; asking the server again and "
                                               "replacing it"));
    }
    if (options.replayOnly)
      return makeError("no cached answer for this request (replay-only); "
                       "looked for " +
                       entryPath +
                       (warnings.empty() ? "" : "; " + warnings.front()));
    if (llvm::Error error = prepareCacheDirectory(options.cacheDirectory))
      return std::move(error);
  } else if (options.replayOnly) {
    return makeError("no cached answer for this request (replay-only): no "
                     "cache directory is set");
  }

  unsigned attempts = 0;
  llvm::Expected<Answer> answer = ask(options, request, attempts);
  if (!answer)
    return answer.takeError();
  if (!entryPath.empty()) {
    Value entry = Object{{"format", kCacheFormat},
                         {"request", canonicalRequest(options, request)},
                         {"response", answerToJSON(*answer)}};
    if (llvm::Error error = writeCacheEntry(entryPath, entry))
      return std::move(error);
  }
  ChatResponse response = makeResponse(std::move(*answer), start);
  response.attempts = attempts;
  response.warnings = std::move(warnings);
  return response;
}

llvm::Expected<ChatResponse>
ChatClient::complete(const ChatRequest &request) const {
  // Servers may quote the key back (e.g. "invalid key sk-..."), so every
  // message leaving the client is scrubbed, whatever produced it.
  llvm::Expected<ChatResponse> response =
      completeUnredacted(options, request, getCacheKey(request));
  if (!response)
    return makeError(
        redact(llvm::toString(response.takeError()), options.apiKey));
  for (std::string &warning : response->warnings)
    warning = redact(std::move(warning), options.apiKey);
  return response;
}
