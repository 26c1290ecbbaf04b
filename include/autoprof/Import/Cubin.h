//===- Cubin.h - What a cubin says of one of its kernels --------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// A cubin is the ELF file ptxas writes (`nvcc -cubin`): machine code for one
// GPU architecture, which the driver loads as it is. It does not spell its
// kernels' parameter types, but it records what the driver needs to launch
// them, and that is enough to check a kernel spec against it: the ELF header
// names the architecture (in its flags), and
// the section `.nv.info.<entry>` holds the entry's attributes, among them
// one record per parameter (its ordinal, offset and size in bytes), the
// parameters' total size, and the block sizes the kernel was compiled for
// (`__launch_bounds__`, `.maxntid`, `.reqntid`).
//
// The attribute records are `u8 format, u8 attribute` followed, by format,
// by two unused bytes (0x01), a u8 and a pad byte (0x02), a u16 value
// (0x03), or a u16 size and that many bytes (0x04).
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_IMPORT_CUBIN_H
#define AUTOPROF_IMPORT_CUBIN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mlir::autoprof {

/// One parameter of a cubin's entry, as its attributes record it.
struct CubinParam {
  unsigned offset = 0;
  unsigned bytes = 0;
};

/// What a cubin says of one of its entries.
struct CubinEntry {
  /// The architecture the cubin holds code for ("sm_90", "sm_90a").
  std::string chip;
  /// The parameters, by ordinal.
  std::vector<CubinParam> params;
  /// The parameters' total size in bytes.
  unsigned paramBytes = 0;
  /// The block sizes the entry was compiled for, when it was: at most
  /// `maxThreads` threads (`.maxntid`, `__launch_bounds__`), exactly
  /// `requiredThreads` (`.reqntid`).
  std::optional<std::array<unsigned, 3>> maxThreads, requiredThreads;
};

/// Reads the architecture and entry `entry`'s attributes from the bytes of
/// `cubin`. Fails, saying why, on anything but a 64-bit little-endian CUDA
/// ELF (a fatbin among them), on an entry the cubin does not define as a
/// kernel, and on attributes that are cut short or contradict each other.
llvm::Expected<CubinEntry> readCubinEntry(llvm::StringRef cubin,
                                          llvm::StringRef entry);

} // namespace mlir::autoprof

#endif // AUTOPROF_IMPORT_CUBIN_H
