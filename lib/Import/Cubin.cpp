//===- Cubin.cpp - What a cubin says of one of its kernels ----------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/Cubin.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using llvm::StringRef;
using namespace mlir::autoprof;
namespace object = llvm::object;
namespace endian = llvm::support::endian;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
/// The entry attributes (`.nv.info.<entry>`) read here.
enum CubinAttribute : uint8_t {
  kMaxThreads = 0x05,
  kRequiredThreads = 0x10,
  kParamInfo = 0x17,
  kParamBytes = 0x19,
};
/// The record formats.
/// The bit of a function symbol's st_other that marks a kernel.
constexpr uint8_t kEntrySymbol = 0x10;
enum CubinRecordFormat : uint8_t {
  kNoValue = 0x01,
  kByteValue = 0x02,
  kHalfValue = 0x03,
  kSizedValue = 0x04,
};
} // namespace

/// The architecture ("sm_90", "sm_90a") that a cubin's ELF flags name. How
/// they name it depends on the ELF ABI version: 7 puts the number in bits
/// 0-7 and marks architecture-specific code with bit 11, 8 (CUDA 12.8 and
/// later) puts it in bits 8-15 and marks it with bit 3. (LLVM 22's own
/// decoder reads CUDA 13's sm_90 cubins as sm_90a: it tells the encodings
/// apart by the OS ABI byte, which it expects as 41 where the toolkit
/// writes 0x41.) CUDA 13's
/// ptxas sets no such mark for sm_90a or sm_100a: their cubins read as
/// sm_90 and sm_100, and the driver refuses one on another GPU when it
/// loads it.
static std::optional<std::string> getCubinChip(unsigned abiVersion,
                                               unsigned flags) {
  unsigned number;
  bool specific;
  if (abiVersion == llvm::ELF::ELFABIVERSION_CUDA_V1) {
    number = flags & llvm::ELF::EF_CUDA_SM;
    specific = flags & llvm::ELF::EF_CUDA_ACCELERATORS_V1;
  } else if (abiVersion == llvm::ELF::ELFABIVERSION_CUDA_V2) {
    number =
        (flags & llvm::ELF::EF_CUDA_SM_MASK) >> llvm::ELF::EF_CUDA_SM_OFFSET;
    specific = flags & llvm::ELF::EF_CUDA_ACCELERATORS;
  } else {
    return std::nullopt;
  }
  if (number < 20)
    return std::nullopt;
  return "sm_" + std::to_string(number) + (specific ? "a" : "");
}

/// Reads three u32 block sizes from a record's bytes.
static std::optional<std::array<unsigned, 3>> readSizes(StringRef bytes) {
  if (bytes.size() != 12)
    return std::nullopt;
  std::array<unsigned, 3> sizes;
  for (unsigned d = 0; d < 3; ++d)
    sizes[d] = endian::read32le(bytes.data() + 4 * d);
  return sizes;
}

/// Reads the records of `.nv.info.<entry>` into `result`.
static llvm::Error readEntryAttributes(StringRef info, StringRef entry,
                                       CubinEntry &result) {
  std::vector<std::optional<CubinParam>> params;
  std::optional<unsigned> paramBytes;
  auto cutShort = [&](size_t at) {
    return makeError(llvm::formatv("the attributes of entry '{0}' are cut "
                                   "short at byte {1} of their {2}",
                                   entry, at, info.size()));
  };
  size_t at = 0;
  while (at < info.size()) {
    if (info.size() - at < 2)
      return cutShort(at);
    uint8_t format = info[at], attribute = info[at + 1];
    StringRef value;
    switch (format) {
    case kNoValue:
    case kByteValue:
    case kHalfValue:
      if (info.size() - at < 4)
        return cutShort(at);
      value = info.substr(at + 2, 2);
      at += 4;
      break;
    case kSizedValue: {
      if (info.size() - at < 4)
        return cutShort(at);
      size_t size = endian::read16le(info.data() + at + 2);
      if (info.size() - at - 4 < size)
        return cutShort(at);
      value = info.substr(at + 4, size);
      at += 4 + size;
      break;
    }
    default:
      return makeError(llvm::formatv(
          "the attributes of entry '{0}' hold a record of unknown format "
          "{1:x2} at byte {2}",
          entry, unsigned(format), at));
    }
    switch (attribute) {
    case kParamInfo: {
      // u32 index, u16 ordinal, u16 offset, u32 flags (size in bits 18-31).
      if (format != kSizedValue || value.size() != 12)
        return makeError("a parameter record of entry '" + entry +
                         "' is not 12 bytes");
      unsigned ordinal = endian::read16le(value.data() + 4);
      CubinParam param{endian::read16le(value.data() + 6),
                       endian::read32le(value.data() + 8) >> 18};
      if (ordinal >= 4096)
        return makeError(llvm::formatv(
            "entry '{0}' records a parameter of ordinal {1}", entry, ordinal));
      if (params.size() <= ordinal)
        params.resize(ordinal + 1);
      if (params[ordinal])
        return makeError(llvm::formatv(
            "entry '{0}' records parameter {1} twice", entry, ordinal));
      params[ordinal] = param;
      break;
    }
    case kParamBytes:
      if (format != kHalfValue)
        return makeError("the parameter size record of entry '" + entry +
                         "' is not a 16-bit value");
      paramBytes = endian::read16le(value.data());
      break;
    case kMaxThreads:
    case kRequiredThreads: {
      std::optional<std::array<unsigned, 3>> sizes = readSizes(value);
      if (format != kSizedValue || !sizes)
        return makeError("a block size record of entry '" + entry +
                         "' is not three 32-bit sizes");
      (attribute == kMaxThreads ? result.maxThreads : result.requiredThreads) =
          sizes;
      break;
    }
    default:
      break;
    }
  }

  if (!paramBytes && !params.empty())
    return makeError("entry '" + entry +
                     "' records parameters but not their total size");
  result.paramBytes = paramBytes.value_or(0);
  for (auto [ordinal, param] : llvm::enumerate(params)) {
    if (!param)
      return makeError(
          llvm::formatv("entry '{0}' records no parameter {1} but a later one",
                        entry, ordinal));
    if (param->bytes == 0 ||
        uint64_t(param->offset) + param->bytes > result.paramBytes)
      return makeError(llvm::formatv(
          "parameter {0} of entry '{1}' ({2} bytes at offset {3}) lies "
          "outside the {4} bytes of parameters",
          ordinal, entry, param->bytes, param->offset, result.paramBytes));
    result.params.push_back(*param);
  }
  return llvm::Error::success();
}

llvm::Expected<CubinEntry> mlir::autoprof::readCubinEntry(StringRef cubin,
                                                          StringRef entry) {
  // A fatbin (nvcc -fatbin, or the default output of nvcc --device-link)
  // wraps cubins and PTX: say so rather than "not an ELF".
  if (cubin.size() >= 4 && endian::read32le(cubin.data()) == 0xba55ed50u)
    return makeError("the file is a fatbin, not a cubin: give one of its "
                     "cubins (nvcc -cubin -arch=sm_XX)");
  if (!cubin.starts_with("\x7f"
                         "ELF"))
    return makeError("the file is not a cubin (no ELF header)");
  // ELFFile checks every table against the file's bounds before handing
  // it out (a symbol table claiming more entries than the file holds is an
  // error, not a long walk).
  using ELF = object::ELF64LEFile;
  llvm::Expected<ELF> file = ELF::create(cubin);
  if (!file)
    return makeError("the file is not a 64-bit little-endian ELF: " +
                     llvm::toString(file.takeError()));
  const ELF::Elf_Ehdr &header = file->getHeader();
  if (header.e_ident[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64 ||
      header.e_ident[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB)
    return makeError("the file is not a 64-bit little-endian ELF");
  if (header.e_machine != llvm::ELF::EM_CUDA)
    return makeError(llvm::formatv("the ELF file is for machine {0}, not a "
                                   "CUDA GPU",
                                   unsigned(header.e_machine)));

  CubinEntry result;
  unsigned abiVersion = header.e_ident[llvm::ELF::EI_ABIVERSION];
  std::optional<std::string> chip = getCubinChip(abiVersion, header.e_flags);
  if (!chip)
    return makeError(llvm::formatv("the cubin's architecture (ELF ABI "
                                   "version {0}, flags {1:x}) is not one "
                                   "AutoProf reads",
                                   abiVersion, unsigned(header.e_flags)));
  result.chip = std::move(*chip);

  llvm::Expected<ELF::Elf_Shdr_Range> sections = file->sections();
  if (!sections)
    return makeError("cannot read the cubin's sections: " +
                     llvm::toString(sections.takeError()));

  // The entry: a function symbol marked as a kernel.
  bool isKernel = false, isFunction = false;
  for (const ELF::Elf_Shdr &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    llvm::Expected<ELF::Elf_Sym_Range> symbols = file->symbols(&section);
    if (!symbols)
      return makeError("cannot read the cubin's symbols: " +
                       llvm::toString(symbols.takeError()));
    llvm::Expected<StringRef> names =
        file->getStringTableForSymtab(section, *sections);
    if (!names)
      return makeError("cannot read the cubin's symbol names: " +
                       llvm::toString(names.takeError()));
    for (const ELF::Elf_Sym &symbol : *symbols) {
      llvm::Expected<StringRef> name = symbol.getName(*names);
      if (!name)
        return makeError("cannot read the cubin's symbol names: " +
                         llvm::toString(name.takeError()));
      if (*name != entry || symbol.getType() != llvm::ELF::STT_FUNC)
        continue;
      isFunction = true;
      isKernel |= (symbol.st_other & kEntrySymbol) != 0;
    }
  }
  if (!isFunction)
    return makeError("the cubin has no entry '" + entry + "'");
  if (!isKernel)
    return makeError("'" + entry +
                     "' is a device function of the cubin, not a kernel");

  std::string infoName = (".nv.info." + entry).str();
  llvm::Expected<StringRef> sectionNames =
      file->getSectionStringTable(*sections);
  if (!sectionNames)
    return makeError("cannot read the cubin's section names: " +
                     llvm::toString(sectionNames.takeError()));
  for (const ELF::Elf_Shdr &section : *sections) {
    llvm::Expected<StringRef> name =
        file->getSectionName(section, *sectionNames);
    if (!name)
      return makeError("cannot read the cubin's section names: " +
                       llvm::toString(name.takeError()));
    if (*name != infoName)
      continue;
    llvm::Expected<llvm::ArrayRef<uint8_t>> contents =
        file->getSectionContents(section);
    if (!contents)
      return makeError("cannot read section " + infoName + ": " +
                       llvm::toString(contents.takeError()));
    if (llvm::Error error =
            readEntryAttributes(llvm::toStringRef(*contents), entry, result))
      return std::move(error);
    return result;
  }
  return makeError("the cubin has no attributes for entry '" + entry +
                   "' (section " + infoName + ")");
}
