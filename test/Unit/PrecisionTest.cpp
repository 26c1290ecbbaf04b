//===- PrecisionTest.cpp - The precision policy ---------------------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/Precision.h"

#include "autoprof/Import/ImportedKernel.h"

#include "gtest/gtest.h"

using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

namespace {

/// A PTX module of one entry `k` whose body is `body`.
rt::JobKernel makePtx(const std::string &body) {
  rt::JobKernel kernel;
  kernel.entry = "k";
  kernel.code = ".version 8.0\n.target sm_90\n.address_size 64\n"
                ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n" +
                body + "\n\tret;\n}\n";
  return kernel;
}

// An f32 product accumulated in f32.
const char *kF32 = "\tfma.rn.f32 %f3, %f1, %f2, %f3;";
// Tensor-core products of tf32 accumulated in f32.
const char *kTF32 =
    "\tcvt.rna.tf32.f32 %r1, %f1;\n"
    "\tmma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, "
    "%f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};";
// Halves accumulated in halves.
const char *kF16 = "\tfma.rn.f16 %h3, %h1, %h2, %h3;";

TEST(PrecisionTest, RejectsLowerPrecisionUnlessAllowed) {
  rt::JobKernel original = makePtx(kF32);
  EXPECT_EQ(checkPrecision(original, makePtx(kF32), PrecisionPolicy::Same),
            "");
  EXPECT_EQ(checkPrecision(original, makePtx(kTF32), PrecisionPolicy::Same),
            "computes in a lower precision: its products' operands are tf32 "
            "where the original's are f32 at the least; precision=tf32 "
            "allows it");
  EXPECT_EQ(checkPrecision(original, makePtx(kTF32), PrecisionPolicy::TF32),
            "");
  // TF32 allows tf32 products, not f16 ones (f16 has less range).
  EXPECT_EQ(checkPrecision(original, makePtx(kF16), PrecisionPolicy::TF32),
            "computes in a lower precision: its products' operands are f16 "
            "where the original's are f32 at the least; precision=f16 allows "
            "it");
  EXPECT_EQ(checkPrecision(original, makePtx(kF16), PrecisionPolicy::F16), "");
  // bf16 does not allow f16, nor f16 bf16.
  EXPECT_NE(checkPrecision(original, makePtx(kF16), PrecisionPolicy::BF16),
            "");
}

TEST(PrecisionTest, ComparesAccumulationsApart) {
  // f16 products accumulated in f32, against the same accumulated in f16.
  rt::JobKernel original = makePtx(
      "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, "
      "%f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};");
  rt::JobKernel halves = makePtx(
      "\tmma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r3, "
      "%r4, %r5, %r6}, {%r7, %r8}, {%r1, %r2};");
  EXPECT_EQ(checkPrecision(original, halves, PrecisionPolicy::Same),
            "computes in a lower precision: its products are f16 where the "
            "original's are f32 at the least; precision=f16 allows it");
  // Halves widened and multiplied in f32 are the same products as a
  // tensor core's.
  rt::JobKernel widened = makePtx("\tcvt.f32.f16 %f1, %h1;\n"
                                  "\tcvt.f32.f16 %f2, %h2;\n"
                                  "\tfma.rn.f32 %f3, %f1, %f2, %f3;");
  EXPECT_EQ(checkPrecision(widened, original, PrecisionPolicy::Same), "");
  // f16 products rounded to f16 before an f32 sum are not.
  rt::JobKernel rounded = makePtx("\tmul.rn.f16 %h3, %h1, %h2;\n"
                                  "\tcvt.f32.f16 %f3, %h3;\n"
                                  "\tadd.rn.f32 %f4, %f4, %f3;");
  EXPECT_EQ(checkPrecision(widened, rounded, PrecisionPolicy::Same),
            "computes in a lower precision: its products are f16 where the "
            "original's are f32 at the least; precision=f16 allows it");
}

TEST(PrecisionTest, ChecksOnlyPtx) {
  rt::JobKernel cuda;
  cuda.format = ::autoprof::runtime::CodeFormat::Cuda;
  cuda.entry = "k";
  cuda.code = "__global__ void k(__half *x) { x[0] = x[0] * x[0]; }";
  EXPECT_FALSE(getKernelPrecision(cuda));
  EXPECT_EQ(checkPrecision(makePtx(kF32), cuda, PrecisionPolicy::Same), "");
  std::optional<MathFormats> math = getKernelMath(makePtx(kTF32));
  ASSERT_TRUE(math);
  EXPECT_EQ(math->productOperands, "tf32");
  EXPECT_EQ(math->products, "f32");
  EXPECT_EQ(math->accumulations, "f32");
  EXPECT_EQ(stringifyPrecisionPolicy(PrecisionPolicy::BF16), "bf16");
}

} // namespace

namespace {

/// A PTX module whose entry `k` runs `body` and whose functions are
/// `functions` (whole `.func` definitions).
rt::JobKernel makePtxWithFunctions(const std::string &functions,
                                   const std::string &body) {
  rt::JobKernel kernel;
  kernel.entry = "k";
  kernel.code = ".version 8.0\n.target sm_90\n.address_size 64\n" +
                functions +
                ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n" + body +
                "\n\tret;\n}\n";
  return kernel;
}

// A function that computes in halves, and one that computes in f32.
const char *kHalfFunction =
    ".func (.param .b32 r) half_fma(.param .b32 a)\n{\n"
    "\tfma.rn.f16 %h3, %h1, %h2, %h3;\n\tret;\n}\n";
const char *kFloatFunction =
    ".func (.param .b32 r) float_fma(.param .b32 a)\n{\n"
    "\tfma.rn.f32 %f3, %f1, %f2, %f3;\n\tret;\n}\n";

TEST(PrecisionTest, LooksIntoTheFunctionsACandidateCalls) {
  rt::JobKernel original = makePtx(kF32);
  // The entry's own arithmetic is f32; the halves hide in a function it
  // calls.
  std::string call =
      std::string(kF32) + "\n\tcall.uni (retval0), half_fma, (param0);";
  EXPECT_EQ(checkPrecision(original,
                           makePtxWithFunctions(kHalfFunction, call),
                           PrecisionPolicy::Same),
            "computes in a lower precision: its products' operands are f16 "
            "where the original's are f32 at the least; precision=f16 allows "
            "it");
  // Through a function that calls it.
  std::string chain = std::string(kHalfFunction) +
                      ".func outer()\n{\n\tcall half_fma, (param0);\n\tret;\n}\n";
  EXPECT_NE(checkPrecision(original,
                           makePtxWithFunctions(chain, "\tcall.uni outer;"),
                           PrecisionPolicy::Same),
            "");
  // Through a register: any function of the module may run.
  EXPECT_NE(checkPrecision(
                original,
                makePtxWithFunctions(std::string(kFloatFunction) +
                                         kHalfFunction,
                                     std::string(kF32) +
                                         "\n\tcall (retval0), %rd1, (param0), "
                                         "proto;"),
                PrecisionPolicy::Same),
            "");
  // A function in f32, and a half function nobody calls: the same
  // precision.
  EXPECT_EQ(checkPrecision(original,
                           makePtxWithFunctions(
                               std::string(kFloatFunction) + kHalfFunction,
                               std::string(kF32) +
                                   "\n\tcall.uni (retval0), float_fma, "
                                   "(param0);"),
                           PrecisionPolicy::Same),
            "");
}

} // namespace

namespace {

TEST(PrecisionTest, FindsEachCalledFunctionOnce) {
  std::string ptx = std::string(kHalfFunction) + kFloatFunction +
                    ".extern .func undefined(.param .b32 a);\n"
                    ".func twice()\n{\n\tcall float_fma;\n\tcall "
                    "float_fma;\n\tret;\n}\n";
  llvm::SmallVector<llvm::StringRef> bodies = getPtxCalledFunctionBodies(
      ptx, "\tcall.uni twice;\n\tcall undefined, (p);\n\trecall x;");
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_TRUE(bodies[0].contains("call float_fma"));
  EXPECT_TRUE(bodies[1].contains("fma.rn.f32"));
  // No call, no function.
  EXPECT_TRUE(getPtxCalledFunctionBodies(ptx, "\tret;").empty());
}

} // namespace
