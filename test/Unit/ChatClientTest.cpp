//===- ChatClientTest.cpp - The chat client against a scripted server -----===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// Each test starts scripted_llm_server.py on a free loopback port with the
// responses it should play, talks to it through ChatClient, and checks both
// the client's result and the requests the server recorded. Backoffs and
// timeouts are short so that the suite runs in a few seconds.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/LLM/CodeBlock.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#ifndef AUTOPROF_TEST_SOURCE_DIR
#error "AUTOPROF_TEST_SOURCE_DIR must name test/Unit in the source tree"
#endif

using namespace autoprof::llm;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

constexpr const char *kKey = "sk-test-SECRET-0123456789";

std::string readFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

void writeFile(llvm::StringRef path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << path.str() << ": " << ec.message();
  os << text;
}

/// An OpenAI-style answer.
Value openAIAnswer(llvm::StringRef text,
                   llvm::StringRef finishReason = "stop") {
  return Object{
      {"id", "chatcmpl-1"},
      {"object", "chat.completion"},
      {"choices", Array{Object{{"index", 0},
                               {"message", Object{{"role", "assistant"},
                                                  {"content", text}}},
                               {"finish_reason", finishReason}}}},
      {"usage", Object{{"prompt_tokens", 11},
                       {"completion_tokens", 7},
                       {"total_tokens", 18}}}};
}

/// An Anthropic-style answer.
Value anthropicAnswer(llvm::StringRef text) {
  return Object{{"type", "message"},
                {"role", "assistant"},
                {"content", Array{Object{{"type", "text"}, {"text", text}}}},
                {"stop_reason", "end_turn"},
                {"usage", Object{{"input_tokens", 13}, {"output_tokens", 5}}}};
}

/// One scripted response.
Value reply(int status, Value body, Object headers = {}, double delay = 0) {
  return Object{{"status", status},
                {"body", std::move(body)},
                {"headers", std::move(headers)},
                {"delay_s", delay}};
}

Value errorBody(llvm::StringRef message) {
  return Object{{"error", Object{{"message", message}}}};
}

/// scripted_llm_server.py running in a child process.
class ScriptedServer {
public:
  /// Starts the server in `directory`; ok() says whether it listens.
  ScriptedServer(llvm::StringRef python, llvm::StringRef directory,
                 Array script)
      : directory(directory.str()) {
    std::string scriptPath = file("script.json");
    std::string portPath = file("port");
    std::string logPath = file("server.log");
    requestsPath = file("requests.jsonl");
    std::string text;
    llvm::raw_string_ostream(text) << Value(std::move(script));
    writeFile(scriptPath, text);
    writeFile(requestsPath, "");

    std::string server = AUTOPROF_TEST_SOURCE_DIR "/scripted_llm_server.py";
    llvm::SmallVector<llvm::StringRef> args = {
        python,   server,       "--script",   scriptPath,   "--port-file",
        portPath, "--requests", requestsPath, "--lifetime", "60"};
    std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                  llvm::StringRef(logPath),
                                                  llvm::StringRef(logPath)};
    std::string message;
    process = llvm::sys::ExecuteNoWait(python, args, std::nullopt, redirects, 0,
                                       &message);
    if (process.Pid == llvm::sys::ProcessInfo::InvalidPid) {
      failure = "cannot start " + server + ": " + message;
      return;
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      std::string portText = readFile(portPath);
      if (!portText.empty() &&
          !llvm::StringRef(portText).getAsInteger(10, port))
        return;
      llvm::sys::ProcessInfo status = llvm::sys::Wait(process, 0);
      if (status.Pid == process.Pid) {
        process.Pid = llvm::sys::ProcessInfo::InvalidPid;
        failure = "the server exited: " + readFile(logPath);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    failure = "the server did not report its port: " + readFile(logPath);
  }

  ~ScriptedServer() { stop(); }

  /// Kills the server (it started no children).
  void stop() {
    if (process.Pid == llvm::sys::ProcessInfo::InvalidPid)
      return;
    ::kill(process.Pid, SIGKILL);
    llvm::sys::Wait(process, std::nullopt);
    process.Pid = llvm::sys::ProcessInfo::InvalidPid;
  }

  /// Empty when the server listens, else why it does not.
  const std::string &getFailure() const { return failure; }

  unsigned getPort() const { return port; }

  std::string getBaseUrl() const {
    return "http://127.0.0.1:" + std::to_string(port) + "/v1";
  }

  /// The requests received so far, oldest first.
  std::vector<Object> getRequests() const {
    std::vector<Object> requests;
    llvm::SmallVector<llvm::StringRef> lines;
    std::string text = readFile(requestsPath);
    llvm::StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef line : lines) {
      llvm::Expected<Value> request = llvm::json::parse(line);
      if (!request) {
        ADD_FAILURE() << llvm::toString(request.takeError());
        continue;
      }
      requests.push_back(*request->getAsObject());
    }
    return requests;
  }

private:
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> path(directory);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

  std::string directory;
  std::string requestsPath;
  llvm::sys::ProcessInfo process;
  unsigned port = 0;
  std::string failure;
};

class ChatClientTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("python3");
    if (!found)
      GTEST_SKIP() << "python3 is needed for the scripted LLM server";
    python = *found;
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("autoprof-llm-test", directory));
    // A proxy from the environment must not intercept loopback requests.
    ::setenv("no_proxy", "127.0.0.1,localhost", 1);
    ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
  }

  void TearDown() override {
    server.reset();
    if (!directory.empty()) {
      // Undo a test that made a directory read-only.
      llvm::sys::fs::setPermissions(path("cache"), llvm::sys::fs::all_all);
      llvm::sys::fs::remove_directories(directory);
    }
  }

  /// Starts a server playing `script`; fails the test if it does not listen.
  ScriptedServer &serve(std::vector<Value> replies) {
    server.reset();
    Array script;
    for (Value &entry : replies)
      script.push_back(std::move(entry));
    server =
        std::make_unique<ScriptedServer>(python, directory, std::move(script));
    EXPECT_EQ(server->getFailure(), "");
    return *server;
  }

  /// Options for the running server with short timeouts and backoffs.
  ChatOptions optionsFor(ApiStyle style = ApiStyle::OpenAI) const {
    ChatOptions options;
    options.style = style;
    options.baseUrl = server ? server->getBaseUrl() : "";
    options.model = "test-model";
    options.apiKey = kKey;
    options.connectTimeoutSeconds = 2;
    options.totalTimeoutSeconds = 5;
    options.maxRetries = 2;
    options.initialBackoffSeconds = 0.05;
    options.temperature = 0.5;
    options.maxTokens = 256;
    return options;
  }

  std::string path(llvm::StringRef name) const {
    llvm::SmallString<128> result(directory);
    llvm::sys::path::append(result, name);
    return std::string(result);
  }

  static ChatRequest request(llvm::StringRef user = "Make it faster.") {
    ChatRequest request;
    request.system = "You optimize GPU kernels.";
    request.messages.push_back({"user", user.str()});
    return request;
  }

  /// The error of `result`, which must be one.
  static std::string errorOf(llvm::Expected<ChatResponse> result) {
    EXPECT_FALSE(static_cast<bool>(result)) << "expected an error";
    return result ? "" : llvm::toString(result.takeError());
  }

  std::string python;
  llvm::SmallString<128> directory;
  std::unique_ptr<ScriptedServer> server;
};

#define ASSERT_OK(result)                                                      \
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError())

TEST_F(ChatClientTest, OpenAIStyle) {
  serve({reply(200, openAIAnswer("```mlir\nfunc.func @f()\n```"))});
  llvm::Expected<ChatResponse> response =
      ChatClient(optionsFor()).complete(request());
  ASSERT_OK(response);
  EXPECT_EQ(response->text, "```mlir\nfunc.func @f()\n```");
  EXPECT_EQ(response->promptTokens, 11);
  EXPECT_EQ(response->completionTokens, 7);
  EXPECT_EQ(response->attempts, 1u);
  EXPECT_FALSE(response->fromCache);
  EXPECT_FALSE(response->truncated);

  std::vector<Object> requests = server->getRequests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].getString("path"), "/v1/chat/completions");
  const Object *headers = requests[0].getObject("headers");
  ASSERT_TRUE(headers);
  EXPECT_EQ(headers->getString("authorization"), std::string("Bearer ") + kKey);
  EXPECT_EQ(headers->getString("content-type"), "application/json");
  llvm::Expected<Value> body =
      llvm::json::parse(*requests[0].getString("body"));
  ASSERT_OK(body);
  EXPECT_EQ(
      *body,
      Value(Object{
          {"model", "test-model"},
          {"temperature", 0.5},
          {"max_tokens", 256},
          {"messages",
           Array{Object{{"role", "system"},
                        {"content", "You optimize GPU kernels."}},
                 Object{{"role", "user"}, {"content", "Make it faster."}}}}}));
}

TEST_F(ChatClientTest, AnthropicStyle) {
  serve({reply(200, anthropicAnswer("done"))});
  llvm::Expected<ChatResponse> response =
      ChatClient(optionsFor(ApiStyle::Anthropic)).complete(request());
  ASSERT_OK(response);
  EXPECT_EQ(response->text, "done");
  EXPECT_EQ(response->promptTokens, 13);
  EXPECT_EQ(response->completionTokens, 5);

  std::vector<Object> requests = server->getRequests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].getString("path"), "/v1/messages");
  const Object *headers = requests[0].getObject("headers");
  ASSERT_TRUE(headers);
  EXPECT_EQ(headers->getString("x-api-key"), kKey);
  EXPECT_EQ(headers->getString("anthropic-version"), "2023-06-01");
  EXPECT_FALSE(headers->getString("authorization"));
  llvm::Expected<Value> body =
      llvm::json::parse(*requests[0].getString("body"));
  ASSERT_OK(body);
  EXPECT_EQ(*body,
            Value(Object{
                {"model", "test-model"},
                {"temperature", 0.5},
                {"max_tokens", 256},
                {"system", "You optimize GPU kernels."},
                {"messages", Array{Object{{"role", "user"},
                                          {"content", "Make it faster."}}}}}));
}

TEST_F(ChatClientTest, ReportsATruncatedAnswer) {
  serve({reply(200, openAIAnswer("```mlir\n", "length"))});
  llvm::Expected<ChatResponse> response =
      ChatClient(optionsFor()).complete(request());
  ASSERT_OK(response);
  EXPECT_TRUE(response->truncated);
}

TEST_F(ChatClientTest, HonorsRetryAfter) {
  serve({reply(429, errorBody("slow down"), Object{{"retry-after", "1"}}),
         reply(200, openAIAnswer("ok"))});
  llvm::Expected<ChatResponse> response =
      ChatClient(optionsFor()).complete(request());
  ASSERT_OK(response);
  EXPECT_EQ(response->text, "ok");
  EXPECT_EQ(response->attempts, 2u);
  // The backoff alone would have waited 0.05 s.
  EXPECT_GE(response->latencySeconds, 0.95);
  EXPECT_LT(response->latencySeconds, 4.0);
  EXPECT_EQ(server->getRequests().size(), 2u);
}

TEST_F(ChatClientTest, RetriesAServerError) {
  serve({reply(500, errorBody("hiccup")), reply(200, openAIAnswer("ok"))});
  llvm::Expected<ChatResponse> response =
      ChatClient(optionsFor()).complete(request());
  ASSERT_OK(response);
  EXPECT_EQ(response->text, "ok");
  EXPECT_EQ(response->attempts, 2u);
}

TEST_F(ChatClientTest, RetriesADroppedConnection) {
  serve({Object{{"drop", true}}, reply(200, openAIAnswer("ok"))});
  llvm::Expected<ChatResponse> response =
      ChatClient(optionsFor()).complete(request());
  ASSERT_OK(response);
  EXPECT_EQ(response->attempts, 2u);
}

TEST_F(ChatClientTest, GivesUpAfterTheLastRetry) {
  serve({reply(500, errorBody("overloaded")),
         reply(503, errorBody("overloaded")),
         reply(500, errorBody("overloaded"))});
  std::string error = errorOf(ChatClient(optionsFor()).complete(request()));
  EXPECT_NE(error.find("POST " + server->getBaseUrl() + "/chat/completions"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("all 3 attempts"), std::string::npos) << error;
  EXPECT_NE(error.find("HTTP 500: overloaded"), std::string::npos) << error;
  EXPECT_EQ(server->getRequests().size(), 3u);
}

TEST_F(ChatClientTest, DoesNotRetryAClientErrorAndHidesTheKey) {
  // A server that quotes the key back must not get it into the message.
  serve({reply(401, errorBody(std::string("invalid api key ") + kKey))});
  std::string error = errorOf(ChatClient(optionsFor()).complete(request()));
  EXPECT_NE(error.find("answered HTTP 401: invalid api key <redacted>"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find(kKey), std::string::npos) << error;
  EXPECT_EQ(server->getRequests().size(), 1u);
}

TEST_F(ChatClientTest, TimesOutAStalledServer) {
  serve({reply(200, openAIAnswer("late"), {}, /*delay=*/5)});
  ChatOptions options = optionsFor();
  options.totalTimeoutSeconds = 0.5;
  options.maxRetries = 0;
  auto start = std::chrono::steady_clock::now();
  std::string error = errorOf(ChatClient(options).complete(request()));
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_NE(error.find("timeout"), std::string::npos) << error;
  EXPECT_NE(error.find("total timeout 0.5 s"), std::string::npos) << error;
  EXPECT_LT(seconds, 3.0);
}

TEST_F(ChatClientTest, RejectsMalformedJSON) {
  serve({reply(200, "this is not JSON")});
  std::string error = errorOf(ChatClient(optionsFor()).complete(request()));
  EXPECT_NE(error.find("answered HTTP 200 but the answer is not valid JSON"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("this is not JSON"), std::string::npos) << error;
}

TEST_F(ChatClientTest, RejectsAnAnswerWithoutTheFields) {
  serve({reply(200, Object{{"choices", Array{}}}),
         reply(200, Object{{"content", Array{}}})});
  std::string error = errorOf(ChatClient(optionsFor()).complete(request()));
  EXPECT_NE(error.find("the answer has no choices[0].message.content"),
            std::string::npos)
      << error;
  error =
      errorOf(ChatClient(optionsFor(ApiStyle::Anthropic)).complete(request()));
  EXPECT_NE(error.find("the answer has no text in content[]"),
            std::string::npos)
      << error;
}

TEST_F(ChatClientTest, ReportsAnUnreachableServer) {
  // The port of a server that has stopped is closed.
  serve({});
  std::string url = server->getBaseUrl();
  server->stop();
  ChatOptions options = optionsFor();
  options.maxRetries = 1;
  std::string error = errorOf(ChatClient(options).complete(request()));
  EXPECT_NE(error.find("POST " + url +
                       "/chat/completions failed on all 2 "
                       "attempts"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("Couldn't connect to server"), std::string::npos)
      << error;
}

TEST_F(ChatClientTest, AnswersWithoutOneCodeBlock) {
  serve({reply(200, openAIAnswer("The kernel is already optimal.")),
         reply(200, openAIAnswer("```mlir\na\n```\nor\n```cuda\nb\n```\n"))});
  ChatClient client(optionsFor());
  llvm::Expected<ChatResponse> prose = client.complete(request("first"));
  ASSERT_OK(prose);
  llvm::Expected<CodeBlock> block = extractCodeBlock(prose->text);
  ASSERT_FALSE(static_cast<bool>(block));
  EXPECT_EQ(llvm::toString(block.takeError()), "no code block in the answer");

  llvm::Expected<ChatResponse> two = client.complete(request("second"));
  ASSERT_OK(two);
  block = extractCodeBlock(two->text);
  ASSERT_FALSE(static_cast<bool>(block));
  EXPECT_EQ(llvm::toString(block.takeError()),
            "several code blocks in the answer (2); expected one");
}

TEST_F(ChatClientTest, CachesAnswers) {
  serve(
      {reply(200, openAIAnswer("first")), reply(200, openAIAnswer("second"))});
  ChatOptions options = optionsFor();
  options.cacheDirectory = path("cache/llm");
  ChatClient client(options);

  llvm::Expected<ChatResponse> fresh = client.complete(request());
  ASSERT_OK(fresh);
  EXPECT_FALSE(fresh->fromCache);
  llvm::Expected<ChatResponse> cached = client.complete(request());
  ASSERT_OK(cached);
  EXPECT_TRUE(cached->fromCache);
  EXPECT_EQ(cached->attempts, 0u);
  EXPECT_EQ(cached->text, "first");
  EXPECT_EQ(cached->promptTokens, 11);
  EXPECT_EQ(cached->completionTokens, 7);
  EXPECT_EQ(server->getRequests().size(), 1u);

  // The key is not part of the request's identity...
  ChatOptions otherKey = options;
  otherKey.apiKey = "another-key";
  EXPECT_EQ(ChatClient(otherKey).getCacheKey(request()),
            client.getCacheKey(request()));
  // ...but the temperature is.
  ChatOptions warmer = options;
  warmer.temperature = 0.9;
  llvm::Expected<ChatResponse> other = ChatClient(warmer).complete(request());
  ASSERT_OK(other);
  EXPECT_FALSE(other->fromCache);
  EXPECT_EQ(other->text, "second");
  EXPECT_EQ(server->getRequests().size(), 2u);

  // Two complete entries, no temporary files, and no key.
  std::error_code ec;
  unsigned entries = 0;
  for (llvm::sys::fs::directory_iterator it(options.cacheDirectory, ec), end;
       it != end && !ec; it.increment(ec)) {
    EXPECT_EQ(llvm::sys::path::extension(it->path()), ".json") << it->path();
    EXPECT_EQ(readFile(it->path()).find(kKey), std::string::npos);
    ++entries;
  }
  EXPECT_EQ(entries, 2u);
}

TEST_F(ChatClientTest, ReplacesACorruptedCacheEntry) {
  serve({reply(200, openAIAnswer("first")), reply(200, openAIAnswer("again"))});
  ChatOptions options = optionsFor();
  options.cacheDirectory = path("cache");
  ChatClient client(options);
  ASSERT_OK(client.complete(request()));

  std::string entry = path("cache/" + client.getCacheKey(request()) + ".json");
  writeFile(entry, "{\"response\": {\"text\": \"trunc");
  llvm::Expected<ChatResponse> response = client.complete(request());
  ASSERT_OK(response);
  EXPECT_FALSE(response->fromCache);
  EXPECT_EQ(response->text, "again");
  ASSERT_EQ(response->warnings.size(), 1u);
  EXPECT_NE(response->warnings[0].find("the cached answer " + entry +
                                       " is unusable (it is not valid JSON"),
            std::string::npos)
      << response->warnings[0];
  EXPECT_EQ(server->getRequests().size(), 2u);

  llvm::Expected<Value> rewritten = llvm::json::parse(readFile(entry));
  ASSERT_OK(rewritten);
  llvm::Expected<ChatResponse> cached = client.complete(request());
  ASSERT_OK(cached);
  EXPECT_TRUE(cached->fromCache);
  EXPECT_EQ(cached->text, "again");
}

TEST_F(ChatClientTest, RefusesACacheDirectoryItCannotCreate) {
  serve({reply(200, openAIAnswer("unused"))});
  writeFile(path("plain-file"), "");
  ChatOptions options = optionsFor();
  options.cacheDirectory = path("plain-file/cache");
  std::string error = errorOf(ChatClient(options).complete(request()));
  EXPECT_NE(error.find("cannot create the LLM cache directory " +
                       options.cacheDirectory),
            std::string::npos)
      << error;
  // Nothing is asked that could not be cached.
  EXPECT_EQ(server->getRequests().size(), 0u);
}

TEST_F(ChatClientTest, RefusesACacheDirectoryItCannotWrite) {
  serve({reply(200, openAIAnswer("unused"))});
  ASSERT_FALSE(llvm::sys::fs::create_directories(path("cache")));
  llvm::sys::fs::setPermissions(path("cache"), llvm::sys::fs::owner_read |
                                                   llvm::sys::fs::owner_exe);
  if (!llvm::sys::fs::access(path("cache"), llvm::sys::fs::AccessMode::Write))
    GTEST_SKIP() << "permissions do not restrict this user (root?)";
  ChatOptions options = optionsFor();
  options.cacheDirectory = path("cache");
  std::string error = errorOf(ChatClient(options).complete(request()));
  EXPECT_NE(error.find("the LLM cache directory " + options.cacheDirectory +
                       " is not writable"),
            std::string::npos)
      << error;
  EXPECT_EQ(server->getRequests().size(), 0u);
}

TEST_F(ChatClientTest, ReplaysOnlyFromTheCache) {
  serve({reply(200, openAIAnswer("recorded"))});
  ChatOptions options = optionsFor();
  options.cacheDirectory = path("cache");
  ASSERT_OK(ChatClient(options).complete(request()));

  options.replayOnly = true;
  ChatClient replay(options);
  llvm::Expected<ChatResponse> hit = replay.complete(request());
  ASSERT_OK(hit);
  EXPECT_TRUE(hit->fromCache);
  EXPECT_EQ(hit->text, "recorded");

  std::string error = errorOf(replay.complete(request("Something new.")));
  EXPECT_NE(error.find("no cached answer for this request (replay-only)"),
            std::string::npos)
      << error;
  EXPECT_EQ(server->getRequests().size(), 1u);
}

TEST_F(ChatClientTest, NeedsAModel) {
  serve({});
  ChatOptions options = optionsFor();
  options.model.clear();
  std::string error = errorOf(ChatClient(options).complete(request()));
  EXPECT_NE(error.find("no model given"), std::string::npos) << error;
  EXPECT_EQ(server->getRequests().size(), 0u);
}

/// Sets environment variables for one test and restores them after it.
class ScopedEnvironment {
public:
  ScopedEnvironment(
      std::initializer_list<std::pair<const char *, const char *>> variables) {
    for (auto [name, value] : variables) {
      const char *old = ::getenv(name);
      saved.push_back(
          {name, old ? std::optional<std::string>(old) : std::nullopt});
      if (value)
        ::setenv(name, value, 1);
      else
        ::unsetenv(name);
    }
  }
  ~ScopedEnvironment() {
    for (auto &[name, value] : saved) {
      if (value)
        ::setenv(name.c_str(), value->c_str(), 1);
      else
        ::unsetenv(name.c_str());
    }
  }

private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
};

TEST(ChatOptions, FillsUnsetFieldsFromTheEnvironment) {
  ScopedEnvironment environment({{"OPENAI_BASE_URL", "http://gpu:8080/v1"},
                                 {"OPENAI_MODEL", "qwen"},
                                 {"OPENAI_API_KEY", "k1"},
                                 {"ANTHROPIC_BASE_URL", "https://proxy.test"},
                                 {"ANTHROPIC_MODEL", "claude"},
                                 {"ANTHROPIC_API_KEY", "k2"}});
  ChatOptions openai = ChatOptions::fromEnvironment();
  EXPECT_EQ(openai.baseUrl, "http://gpu:8080/v1");
  EXPECT_EQ(openai.model, "qwen");
  EXPECT_EQ(openai.apiKey, "k1");

  ChatOptions explicitModel;
  explicitModel.model = "mine";
  EXPECT_EQ(ChatOptions::fromEnvironment(explicitModel).model, "mine");

  ChatOptions anthropic;
  anthropic.style = ApiStyle::Anthropic;
  anthropic = ChatOptions::fromEnvironment(anthropic);
  // The variable names the server root, as for the Anthropic SDKs.
  EXPECT_EQ(anthropic.baseUrl, "https://proxy.test/v1");
  EXPECT_EQ(anthropic.model, "claude");
  EXPECT_EQ(anthropic.apiKey, "k2");
}

TEST(ChatOptions, DefaultsToALocalServer) {
  ScopedEnvironment environment({{"OPENAI_BASE_URL", nullptr},
                                 {"OPENAI_MODEL", nullptr},
                                 {"OPENAI_API_KEY", nullptr},
                                 {"ANTHROPIC_BASE_URL", nullptr}});
  EXPECT_EQ(ChatOptions::fromEnvironment().baseUrl, "http://localhost:8000/v1");
  EXPECT_EQ(ChatOptions::fromEnvironment().apiKey, "");
  ChatOptions anthropic;
  anthropic.style = ApiStyle::Anthropic;
  EXPECT_EQ(ChatOptions::fromEnvironment(anthropic).baseUrl,
            "https://api.anthropic.com/v1");
  EXPECT_EQ(parseApiStyle("Anthropic"), ApiStyle::Anthropic);
  EXPECT_EQ(parseApiStyle("openai"), ApiStyle::OpenAI);
  EXPECT_EQ(parseApiStyle("bard"), std::nullopt);
}

} // namespace
