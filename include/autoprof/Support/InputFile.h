//===- InputFile.h - Files a user names ------------------------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The files a user names on a command line or in a spec (kernel specs and
// their sources, profiling trees, outcome tables, reference modules, cached
// answers) are read whole. A path to something that is not a regular file
// would hang or exhaust memory: /dev/zero never ends, a FIFO blocks until
// someone writes to it. readInputFile refuses those, and files larger than
// any AutoProf input, before it opens them.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SUPPORT_INPUTFILE_H
#define AUTOPROF_SUPPORT_INPUTFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

namespace autoprof {

/// The largest file readInputFile reads by default (256 MiB).
constexpr uint64_t kMaxInputFileBytes = uint64_t(256) << 20;

/// The contents of the file at `path`, or an error that names it: it does
/// not exist or cannot be read, it is not a regular file (a directory, a
/// device, a FIFO, a socket), or it is larger than `maxBytes`. Symbolic
/// links are followed; the null device reads as an empty file. `text` reads it as text (see
/// llvm::MemoryBuffer::getFile).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, bool text = true,
              uint64_t maxBytes = kMaxInputFileBytes);

} // namespace autoprof

#endif // AUTOPROF_SUPPORT_INPUTFILE_H
