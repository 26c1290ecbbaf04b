//===- HostData.h - Element types and input generation ----------*- C++ -*-===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The host side of the runtime's data (lib/Runtime/HostData.cpp): element
// types and their conversions, the deterministic inputs a kernel is verified
// and timed on, and the formatting of elements in messages. Plain C++ over
// the C types of Runtime.h: no CUDA header and no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_RUNTIME_HOSTDATA_H
#define AUTOPROF_RUNTIME_HOSTDATA_H

#include "autoprof/Runtime/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace autoprof::runtime {

/// Size in bytes of one element of `dtype`; 0 for an invalid value.
size_t dtypeSize(autoprof_dtype dtype);
/// True for F32, F64, F16, BF16.
bool isFloatType(autoprof_dtype dtype);
/// True for U8..U64.
bool isUnsignedType(autoprof_dtype dtype);
/// "f32", "bf16", "i64", ...; "invalid" for unknown values.
const char *dtypeName(autoprof_dtype dtype);
/// The element type named `name` ("f32", "bf16", ...), or false.
bool dtypeFromName(const std::string &name, autoprof_dtype &dtype);
/// "normal", "uniform", "large", "small_int", "special", "skewed",
/// "near_range", "subnormal" (as jobs spell them); "invalid" for unknown
/// values.
const char *distributionName(autoprof_distribution distribution);
/// The distribution named `name`, or false.
bool distributionFromName(const std::string &name,
                          autoprof_distribution &distribution);
/// "input", "output", "inout"; "invalid" for unknown values.
const char *roleName(autoprof_role role);

bool isValidDtype(autoprof_dtype dtype);
bool isValidRole(autoprof_role role);
bool isValidDistribution(autoprof_distribution distribution);

/// The values an integer type holds, as doubles (the 64-bit bounds rounded).
void integerRange(autoprof_dtype dtype, double &low, double &high);
/// The largest value of an integer type.
uint64_t integerMax(autoprof_dtype dtype);

/// Stores `value` as one element of `dtype` at `out` (integers wrap to the
/// type's width; floats round to nearest even).
void storeInteger(uint8_t *out, autoprof_dtype dtype, int64_t value);
void storeFloat(uint8_t *out, autoprof_dtype dtype, double value);
/// Reads element `index` of a buffer of `dtype` as double (f16/bf16 decoded).
double loadElement(const uint8_t *data, autoprof_dtype dtype, uint64_t index);
/// Formats element `index` exactly: integers in full, floats with %.9g.
std::string formatElement(const uint8_t *data, autoprof_dtype dtype,
                          uint64_t index);
/// Stores scalar parameter `param` into `slot` as the kernel expects it.
void encodeScalar(const autoprof_param &param, uint64_t &slot);

/// What can be wrong with a buffer's value range.
enum class ValueRangeError {
  None,
  Bounds,     ///< not finite, or the first not below the second
  Role,       ///< not an input (or inout) buffer
  IndexBound, ///< given with an index bound
  FloatType,  ///< beyond the float type's finite values
  IntegerType ///< not integers the type holds within 2^62
};

/// Whether buffer parameter `param`'s value range (when it has one) can be
/// generated: range_low < range_high, finite bounds the element type holds
/// (integers: integer bounds within 2^62), on an input (or inout) buffer
/// without an index bound.
ValueRangeError checkValueRange(const autoprof_param &param);
/// What `error` means, as a sentence fragment.
const char *describe(ValueRangeError error);

/// Fills `out` (count * dtypeSize(param.dtype) bytes) with the deterministic
/// input data of buffer parameter `paramIndex` for (seed, distribution): the
/// same triple always gives the same bytes. Never all zero (unless the only
/// values allowed are zero).
///
/// With a value range [low, high] each distribution keeps its character
/// within it: `normal` around its middle (a sixth of its width as the
/// standard deviation, clamped to the range), `uniform` across it, `large`
/// within a hundredth of its width from either end, `small_int` the first
/// 17 integers from its low end, `special` uniform with one element in 8
/// replaced by an end of the range (never NaN or infinity). Integer types
/// round to integers in the range.
void generateInput(const autoprof_param &param, size_t paramIndex,
                   uint64_t seed, autoprof_distribution distribution,
                   uint8_t *out);

} // namespace autoprof::runtime

#endif // AUTOPROF_RUNTIME_HOSTDATA_H
