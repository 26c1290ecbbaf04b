//===- KernelSpecTest.cpp - Kernel specs against PTX entries --------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Import/KernelSpec.h"

#include "gtest/gtest.h"

using namespace mlir::autoprof;

namespace {

/// An entry as Triton writes it: pointers with address space and alignment,
/// the parameter list over several lines.
constexpr const char *kTritonPtx = R"(
.version 8.7
.target sm_90a
.address_size 64

.visible .entry add_kernel(
	.param .u64 .ptr .global .align 1 add_kernel_param_0,
	.param .u64 .ptr .global .align 1 add_kernel_param_1,
	.param .u32 add_kernel_param_2,
	.param .u64 .ptr .global .align 1 add_kernel_param_3
)
.reqntid 128, 1, 1
{
	ret;
}
)";

KernelSpec parse(const std::string &params) {
  llvm::Expected<KernelSpec> spec = parseKernelSpec(
      R"({"source": "k.ptx", "entry": "add_kernel", "grid": [8, 1, 1],
          "block": [128, 1, 1], "params": [)" +
          params + "]}",
      "/specs/k.json");
  EXPECT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
  return *spec;
}

constexpr const char *kAddParams =
    R"({"kind": "buffer", "dtype": "f32", "count": 1024, "role": "input"},
       {"kind": "buffer", "dtype": "f32", "count": 1024, "role": "input"},
       {"kind": "scalar", "dtype": "i32", "value": 1024},
       {"name": "out", "kind": "buffer", "dtype": "f32", "count": 1024,
        "role": "output"})";

TEST(KernelSpecTest, ReadsTritonEntries) {
  llvm::Expected<PtxEntry> entry = readPtxEntry(kTritonPtx, "add_kernel");
  ASSERT_TRUE(static_cast<bool>(entry)) << llvm::toString(entry.takeError());
  EXPECT_EQ(entry->target, "sm_90a");
  EXPECT_EQ(entry->paramTypes,
            (std::vector<std::string>{".u64", ".u64", ".u32", ".u64"}));
  KernelSpec spec = parse(kAddParams);
  EXPECT_EQ(spec.sourcePath, "/specs/k.ptx");
  EXPECT_EQ(spec.format, ::autoprof::runtime::CodeFormat::Ptx);
  EXPECT_EQ(spec.paramNames,
            (std::vector<std::string>{"arg0", "arg1", "arg2", "out"}));
  EXPECT_FALSE(static_cast<bool>(checkPtxEntry(spec, *entry, "sm_90")));
}

TEST(KernelSpecTest, EntryNamesMatchExactly) {
  // "add_kernel" is not "add_kernel2", nor the other way round.
  llvm::Expected<PtxEntry> entry = readPtxEntry(kTritonPtx, "add_kern");
  ASSERT_FALSE(static_cast<bool>(entry));
  EXPECT_EQ(llvm::toString(entry.takeError()),
            "the PTX has no entry 'add_kern'");
}

TEST(KernelSpecTest, AggregatesByValueAreRefused) {
  const char *ptx = ".target sm_90\n.visible .entry k(\n"
                    "\t.param .align 8 .b8 k_param_0[16]\n)\n{ ret; }\n";
  llvm::Expected<PtxEntry> entry = readPtxEntry(ptx, "k");
  ASSERT_TRUE(static_cast<bool>(entry));
  EXPECT_EQ(entry->paramTypes, (std::vector<std::string>{".b8[16]"}));
  llvm::Expected<KernelSpec> spec = parseKernelSpec(
      R"({"source": "k.ptx", "entry": "k", "grid": [1, 1, 1],
          "block": [1, 1, 1], "params": [{"kind": "buffer", "dtype": "f32",
          "count": 4, "role": "input"}]})",
      "k.json");
  ASSERT_TRUE(static_cast<bool>(spec));
  EXPECT_EQ(llvm::toString(checkPtxEntry(*spec, *entry, "sm_90")),
            "params[0] ('arg0'): entry 'k' takes a .b8[16] there, which is "
            "neither a pointer nor a scalar (aggregates by value are not "
            "imported)");
}

TEST(KernelSpecTest, ArchitecturesCompareByNumber) {
  llvm::Expected<PtxEntry> entry = readPtxEntry(kTritonPtx, "add_kernel");
  ASSERT_TRUE(static_cast<bool>(entry));
  KernelSpec spec = parse(kAddParams);
  // sm_90a runs on sm_90 and on anything newer, not on sm_89.
  EXPECT_FALSE(static_cast<bool>(checkPtxEntry(spec, *entry, "sm_100")));
  EXPECT_EQ(llvm::toString(checkPtxEntry(spec, *entry, "sm_89")),
            "the PTX targets sm_90a, newer than sm_89: the driver cannot "
            "load it");
}

} // namespace
