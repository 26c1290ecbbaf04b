//===- ChatJsonTest.cpp - Chat requests and answers as JSON ---------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatJson.h"

#include "gtest/gtest.h"

using namespace autoprof::llm;

namespace {

std::string errorOf(llvm::StringRef json) {
  llvm::Expected<ChatRequest> request = parseChatRequest(json);
  if (request)
    return "";
  return llvm::toString(request.takeError());
}

TEST(ChatJsonTest, ParsesAConversation) {
  llvm::Expected<ChatRequest> request = parseChatRequest(
      R"({"system": "be brief", "messages": [
          {"role": "user", "content": "a"},
          {"role": "assistant", "content": "b"},
          {"role": "user", "content": "c"}]})");
  ASSERT_TRUE(static_cast<bool>(request)) << llvm::toString(
      request.takeError());
  EXPECT_EQ(request->system, "be brief");
  ASSERT_EQ(request->messages.size(), 3u);
  EXPECT_EQ(request->messages[1].role, "assistant");
  EXPECT_EQ(request->messages[2].content, "c");
}

TEST(ChatJsonTest, NamesWhatIsWrong) {
  EXPECT_NE(errorOf("{").find("not JSON"), std::string::npos);
  EXPECT_NE(errorOf("[]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(errorOf(R"({"messages": []})").find("'messages' is missing"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"system": 1, "messages": [{"role": "user",
            "content": "a"}]})")
                .find("'system' is not a string"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"messages": [{"role": "tool", "content": "a"}]})")
                .find("messages[0].role"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"messages": [{"role": "user", "content": 3}]})")
                .find("messages[0].content is not a string"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"messages": [{"role": "user", "content": "a"},
            {"role": "assistant", "content": "b"}]})")
                .find("the last message is not the user's"),
            std::string::npos);
}

TEST(ChatJsonTest, AnswerAsJSON) {
  ChatResponse response;
  response.text = "```python\npass\n```";
  response.promptTokens = 12;
  response.completionTokens = 3;
  response.fromCache = true;
  response.warnings = {"replaced a corrupted cache entry"};
  llvm::json::Object object = toJSON(response);
  EXPECT_EQ(object.getString("text"), response.text);
  EXPECT_EQ(object.getInteger("prompt_tokens"), 12);
  EXPECT_EQ(object.getInteger("completion_tokens"), 3);
  EXPECT_EQ(object.getBoolean("from_cache"), true);
  EXPECT_EQ(object.getBoolean("truncated"), false);
  ASSERT_NE(object.getArray("warnings"), nullptr);
  EXPECT_EQ(object.getArray("warnings")->size(), 1u);
}

TEST(ChatJsonTest, RefusesDeepNestingWithADiagnostic) {
  std::string json = "{\"messages\":" + std::string(100000, '[') +
                     std::string(100000, ']') + "}";
  EXPECT_EQ(errorOf(json), "chat request: not JSON: arrays and objects "
                           "nested more than 256 levels deep");
}

} // namespace
