//===- ChatJson.cpp - Chat requests and answers as JSON -------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatJson.h"
#include "autoprof/Support/Json.h"

#include "llvm/Support/FormatVariadic.h"

using namespace autoprof::llm;

static llvm::Error requestError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "chat request: " + message);
}

llvm::Expected<ChatRequest>
autoprof::llm::parseChatRequest(llvm::StringRef json) {
  llvm::Expected<llvm::json::Value> parsed = ::autoprof::parseJson(json);
  if (!parsed)
    return requestError("not JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *object = parsed->getAsObject();
  if (!object)
    return requestError("not a JSON object");
  ChatRequest request;
  if (const llvm::json::Value *system = object->get("system")) {
    std::optional<llvm::StringRef> text = system->getAsString();
    if (!text)
      return requestError("'system' is not a string");
    request.system = text->str();
  }
  const llvm::json::Array *messages = object->getArray("messages");
  if (!messages || messages->empty())
    return requestError("'messages' is missing or empty");
  for (auto [index, value] : llvm::enumerate(*messages)) {
    const llvm::json::Object *message = value.getAsObject();
    std::optional<llvm::StringRef> role =
        message ? message->getString("role") : std::nullopt;
    std::optional<llvm::StringRef> content =
        message ? message->getString("content") : std::nullopt;
    if (!role || (*role != "user" && *role != "assistant"))
      return requestError(llvm::formatv("messages[{0}].role is not \"user\" "
                                        "or \"assistant\"",
                                        index));
    if (!content)
      return requestError(
          llvm::formatv("messages[{0}].content is not a string", index));
    request.messages.push_back({role->str(), content->str()});
  }
  if (request.messages.back().role != "user")
    return requestError("the last message is not the user's");
  return request;
}

llvm::json::Object autoprof::llm::toJSON(const ChatResponse &response) {
  llvm::json::Array warnings;
  for (const std::string &warning : response.warnings)
    warnings.push_back(warning);
  return llvm::json::Object{
      {"text", response.text},
      {"prompt_tokens", response.promptTokens},
      {"completion_tokens", response.completionTokens},
      {"truncated", response.truncated},
      {"latency_seconds", response.latencySeconds},
      {"attempts", static_cast<int64_t>(response.attempts)},
      {"from_cache", response.fromCache},
      {"warnings", std::move(warnings)},
  };
}
