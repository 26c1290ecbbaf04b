//===- CubinTest.cpp - What a cubin says of one of its kernels ------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/Cubin.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace mlir::autoprof;

namespace {

/// A cubin of the test inputs (nvcc -cubin -arch=sm_90).
std::string readInput(llvm::StringRef name) {
  std::string path = std::string(AUTOPROF_TEST_SOURCE_DIR) +
                     "/../Transforms/Inputs/import/" + name.str();
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().str();
}

std::string errorOf(llvm::StringRef cubin, llvm::StringRef entry) {
  llvm::Expected<CubinEntry> read = readCubinEntry(cubin, entry);
  if (read)
    return "";
  return llvm::toString(read.takeError());
}

/// Where the parameter records of `entry` begin: the first record of
/// attribute 0x17 with 12 bytes (format 0x04).
size_t findParamRecord(const std::string &cubin) {
  return cubin.find(std::string("\x04\x17\x0c\x00", 4));
}

TEST(Cubin, ReadsTheEntrysParametersAndArchitecture) {
  std::string cubin = readInput("saxpy.cubin");
  ASSERT_FALSE(cubin.empty());
  llvm::Expected<CubinEntry> entry = readCubinEntry(cubin, "saxpy");
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  EXPECT_EQ(entry->chip, "sm_90");
  // saxpy(float a, const float *x, float *y, int n)
  ASSERT_EQ(entry->params.size(), 4u);
  unsigned offsets[] = {0, 8, 16, 24}, bytes[] = {4, 8, 8, 4};
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(entry->params[i].offset, offsets[i]) << i;
    EXPECT_EQ(entry->params[i].bytes, bytes[i]) << i;
  }
  EXPECT_EQ(entry->paramBytes, 28u);
  EXPECT_FALSE(entry->maxThreads.has_value());
  EXPECT_FALSE(entry->requiredThreads.has_value());
}

TEST(Cubin, ReadsTheBlockSizesTheEntryWasCompiledFor) {
  std::string cubin = readInput("bounded.cubin");
  llvm::Expected<CubinEntry> entry = readCubinEntry(cubin, "scale");
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  ASSERT_TRUE(entry->maxThreads.has_value());
  EXPECT_EQ((*entry->maxThreads)[0], 128u);
  EXPECT_EQ((*entry->maxThreads)[1], 1u);
  EXPECT_EQ(entry->params.size(), 3u);
}

// ptxas's cubin of an entry as Triton spells it: pointer parameters with an
// address space and alignment, and a required block size.
TEST(Cubin, ReadsTritonsEntryAsPtxasAssemblesIt) {
  llvm::Expected<CubinEntry> entry =
      readCubinEntry(readInput("triton-add.cubin"), "add_kernel");
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  // CUDA 13 writes the same ELF flags for sm_90a as for sm_90.
  EXPECT_EQ(entry->chip, "sm_90");
  ASSERT_EQ(entry->params.size(), 4u);
  unsigned bytes[] = {8, 8, 4, 8};
  for (unsigned i = 0; i < 4; ++i)
    EXPECT_EQ(entry->params[i].bytes, bytes[i]) << i;
  ASSERT_TRUE(entry->requiredThreads.has_value());
  EXPECT_EQ((*entry->requiredThreads)[0], 128u);
  EXPECT_EQ((*entry->requiredThreads)[1], 1u);
}

TEST(Cubin, ReadsTheOlderArchitectureEncoding) {
  llvm::Expected<CubinEntry> entry =
      readCubinEntry(readInput("saxpy-sm80.cubin"), "saxpy");
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  EXPECT_EQ(entry->chip, "sm_80");
  EXPECT_EQ(entry->params.size(), 4u);
}

TEST(Cubin, RefusesWhatIsNotACubinsKernel) {
  std::string cubin = readInput("saxpy.cubin");
  EXPECT_EQ(errorOf("", "saxpy"), "the file is not a cubin (no ELF header)");
  EXPECT_EQ(errorOf(std::string("\x50\xed\x55\xba\x01\x00", 6), "saxpy"),
            "the file is a fatbin, not a cubin: give one of its cubins "
            "(nvcc -cubin -arch=sm_XX)");
  EXPECT_EQ(errorOf(cubin, "saxp"), "the cubin has no entry 'saxp'");
  EXPECT_NE(errorOf(cubin.substr(0, 40), "saxpy")
                .find("the file is not a 64-bit little-endian ELF"),
            std::string::npos);
  EXPECT_NE(errorOf(cubin.substr(0, 1200), "saxpy")
                .find("cannot read the cubin's sections: section header "
                      "table goes past the end of the file"),
            std::string::npos);
  // A 32-bit ELF (byte 4).
  std::string elf32 = cubin;
  elf32[4] = 1;
  EXPECT_EQ(errorOf(elf32, "saxpy"),
            "the file is not a 64-bit little-endian ELF");
  // Another machine than a CUDA GPU (e_machine is at byte 18).
  std::string x86 = cubin;
  x86[18] = 62;
  x86[19] = 0;
  EXPECT_EQ(errorOf(x86, "saxpy"),
            "the ELF file is for machine 62, not a CUDA GPU");
  // An ELF ABI version this reader does not know (byte 8).
  std::string abi = cubin;
  abi[8] = 9;
  EXPECT_NE(errorOf(abi, "saxpy").find("(ELF ABI version 9"),
            std::string::npos);
}

// Attributes that are damaged are refused with what is wrong, never read
// past their section.
TEST(Cubin, RefusesDamagedAttributes) {
  std::string cubin = readInput("saxpy.cubin");
  size_t record = findParamRecord(cubin);
  ASSERT_NE(record, std::string::npos);

  std::string unknownFormat = cubin;
  unknownFormat[record] = 0x07;
  EXPECT_NE(errorOf(unknownFormat, "saxpy")
                .find("a record of unknown format "
                      "0x07"),
            std::string::npos);

  // A record claiming more bytes than its section holds.
  std::string tooLong = cubin;
  tooLong[record + 2] = char(0xff);
  tooLong[record + 3] = char(0x7f);
  EXPECT_NE(errorOf(tooLong, "saxpy").find("are cut short at byte"),
            std::string::npos);

  // A parameter record of another size.
  std::string shortRecord = cubin;
  shortRecord[record + 2] = 8;
  EXPECT_NE(errorOf(shortRecord, "saxpy"), "");

  // The first record's ordinal (bytes 8-9 of the record) made another
  // record's: one parameter twice.
  std::string twice = cubin;
  size_t second = cubin.find(std::string("\x04\x17\x0c\x00", 4), record + 1);
  ASSERT_NE(second, std::string::npos);
  twice[record + 8] = cubin[second + 8];
  EXPECT_NE(errorOf(twice, "saxpy").find("records parameter"),
            std::string::npos);

  // A parameter that lies beyond the parameters' total size.
  std::string outside = cubin;
  outside[record + 10] = char(0xf0);
  EXPECT_NE(errorOf(outside, "saxpy").find("lies outside the 28 bytes"),
            std::string::npos);
}

} // namespace
