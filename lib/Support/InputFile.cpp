//===- InputFile.cpp - Files a user names ---------------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Support/InputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

/// What a file of type `type` is, in words.
static StringRef describe(sys::fs::file_type type) {
  switch (type) {
  case sys::fs::file_type::directory_file:
    return "a directory";
  case sys::fs::file_type::block_file:
  case sys::fs::file_type::character_file:
    return "a device";
  case sys::fs::file_type::fifo_file:
    return "a FIFO";
  case sys::fs::file_type::socket_file:
    return "a socket";
  default:
    return "not a regular file";
  }
}

Expected<std::unique_ptr<MemoryBuffer>>
autoprof::readInputFile(StringRef path, bool text, uint64_t maxBytes) {
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status))
    return createStringError(ec, "cannot read '%s': %s", path.str().c_str(),
                             ec.message().c_str());
  // The null device reads as an empty file (an empty module, say).
  bool isNull = false;
  if (status.type() == sys::fs::file_type::character_file &&
      !sys::fs::equivalent(path, "/dev/null", isNull) && isNull)
    return MemoryBuffer::getMemBuffer("", path);
  if (status.type() != sys::fs::file_type::regular_file)
    return createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "cannot read '%s': it is %s, not a regular file", path.str().c_str(),
        describe(status.type()).str().c_str());
  if (status.getSize() > maxBytes)
    return createStringError(
        std::make_error_code(std::errc::file_too_large),
        formatv("cannot read '{0}': it has {1} bytes, more than the {2} MiB "
                "an input may have",
                path, status.getSize(), maxBytes >> 20)
            .str());
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, text);
  if (!buffer)
    return createStringError(buffer.getError(), "cannot read '%s': %s",
                             path.str().c_str(),
                             buffer.getError().message().c_str());
  return std::move(*buffer);
}
