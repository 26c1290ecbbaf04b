//===- ChatJson.h - Chat requests and answers as JSON -----------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The JSON form of a chat request and of its answer, for callers outside
// C++ (the Python package asks a model through autoprof-chat, so that every
// request goes through the one client with its retries, cache and key
// handling):
//
//   request: {"system": "...", "messages": [{"role": "user",
//             "content": "..."}, ...]}
//   answer:  {"text": "...", "prompt_tokens": N, "completion_tokens": N,
//             "truncated": false, "latency_seconds": S, "attempts": N,
//             "from_cache": false, "warnings": ["..."]}
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LLM_CHATJSON_H
#define AUTOPROF_LLM_CHATJSON_H

#include "autoprof/LLM/ChatClient.h"

#include "llvm/Support/JSON.h"

namespace autoprof::llm {

/// Parses a request; fails naming the field that is missing or malformed
/// (a role other than "user" or "assistant", no messages, a last message
/// that is not the user's).
llvm::Expected<ChatRequest> parseChatRequest(llvm::StringRef json);

/// The answer as JSON.
llvm::json::Object toJSON(const ChatResponse &response);

} // namespace autoprof::llm

#endif // AUTOPROF_LLM_CHATJSON_H
