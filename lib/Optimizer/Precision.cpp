//===- Precision.cpp - The precision a candidate computes in --------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimizer/Precision.h"

#include "autoprof/Import/ImportedKernel.h"

using namespace mlir;
using namespace mlir::autoprof;
namespace rt = ::autoprof::runtime;

llvm::StringRef mlir::autoprof::stringifyPrecisionPolicy(PrecisionPolicy policy) {
  switch (policy) {
  case PrecisionPolicy::Same:
    return "same";
  case PrecisionPolicy::TF32:
    return "tf32";
  case PrecisionPolicy::F16:
    return "f16";
  case PrecisionPolicy::BF16:
    return "bf16";
  }
  return "same";
}

std::optional<FloatFormat>
mlir::autoprof::getAllowedFormat(PrecisionPolicy policy) {
  switch (policy) {
  case PrecisionPolicy::Same:
    return std::nullopt;
  case PrecisionPolicy::TF32:
    return getFloatFormat("tf32");
  case PrecisionPolicy::F16:
    return getFloatFormat("f16");
  case PrecisionPolicy::BF16:
    return getFloatFormat("bf16");
  }
  return std::nullopt;
}

std::optional<PtxMathPrecision>
mlir::autoprof::getKernelPrecision(const rt::JobKernel &kernel) {
  if (kernel.format != ::autoprof::runtime::CodeFormat::Ptx)
    return std::nullopt;
  StringRef body = getPtxEntryBody(kernel.code, kernel.entry);
  if (body.empty())
    return std::nullopt;
  // The entry and every function it calls: the least precise format of
  // each role over all of them. (Each body is counted alone: registers of
  // one function are not another's.)
  PtxMathPrecision precision = countPtxInstructions(body).precision;
  auto meet = [](std::optional<FloatFormat> &into,
                 const std::optional<FloatFormat> &other) {
    if (other)
      into = into ? into->meet(*other) : *other;
  };
  for (StringRef function : getPtxCalledFunctionBodies(kernel.code, body)) {
    PtxMathPrecision called = countPtxInstructions(function).precision;
    meet(precision.productOperands, called.productOperands);
    meet(precision.productRounding, called.productRounding);
    meet(precision.accumulation, called.accumulation);
  }
  return precision;
}

std::optional<MathFormats>
mlir::autoprof::getKernelMath(const rt::JobKernel &kernel) {
  std::optional<PtxMathPrecision> precision = getKernelPrecision(kernel);
  if (!precision)
    return std::nullopt;
  auto name = [](const std::optional<FloatFormat> &format) {
    return format ? describeFloatFormat(*format) : std::string();
  };
  return MathFormats{name(precision->productOperands),
                     name(precision->productRounding),
                     name(precision->accumulation)};
}

/// The policy's name in the `precision=` option that allows `format`.
static StringRef getAllowingPolicy(const FloatFormat &format) {
  for (StringRef name : {"tf32", "f16", "bf16"})
    if (format.covers(*getFloatFormat(name)))
      return name;
  return "";
}

std::string mlir::autoprof::checkPrecision(const rt::JobKernel &reference,
                                           const rt::JobKernel &candidate,
                                           PrecisionPolicy policy) {
  std::optional<PtxMathPrecision> original = getKernelPrecision(reference);
  std::optional<PtxMathPrecision> variant = getKernelPrecision(candidate);
  if (!original || !variant)
    return "";
  std::optional<FloatFormat> allowed = getAllowedFormat(policy);
  auto check = [&](StringRef role, const std::optional<FloatFormat> &floor,
                   const std::optional<FloatFormat> &used) -> std::string {
    if (!floor || !used)
      return "";
    FloatFormat least = allowed ? floor->meet(*allowed) : *floor;
    if (used->covers(least))
      return "";
    std::string why = "computes in a lower precision: its " + role.str() +
                      " are " + describeFloatFormat(*used) +
                      " where the original's are " +
                      describeFloatFormat(*floor) + " at the least";
    StringRef allowing = getAllowingPolicy(*used);
    why += allowing.empty()
               ? std::string("; no precision= option allows it")
               : "; precision=" + allowing.str() + " allows it";
    return why;
  };
  std::string why = check("products' operands", original->productOperands,
                          variant->productOperands);
  if (why.empty())
    why = check("products", original->productRounding,
                variant->productRounding);
  if (why.empty())
    why = check("accumulations", original->accumulation,
                variant->accumulation);
  return why;
}
