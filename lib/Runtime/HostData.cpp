//===- HostData.cpp - Element types and input generation --------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//
//
// The host side of the runtime's data: element types, their conversions
// (f16 and bf16 by rounding to nearest even), the deterministic input
// generator and the formatting of elements in messages. Plain C++: no CUDA
// header, no LLVM, so that the shim links it and unit tests run it on any
// machine.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/HostData.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

using namespace autoprof::runtime;

size_t autoprof::runtime::dtypeSize(autoprof_dtype dtype) {
  switch (dtype) {
  case AUTOPROF_F64:
  case AUTOPROF_I64:
  case AUTOPROF_U64:
    return 8;
  case AUTOPROF_F32:
  case AUTOPROF_I32:
  case AUTOPROF_U32:
    return 4;
  case AUTOPROF_F16:
  case AUTOPROF_BF16:
  case AUTOPROF_I16:
  case AUTOPROF_U16:
    return 2;
  case AUTOPROF_I8:
  case AUTOPROF_U8:
    return 1;
  }
  return 0;
}

bool autoprof::runtime::isFloatType(autoprof_dtype dtype) {
  return dtype == AUTOPROF_F32 || dtype == AUTOPROF_F64 ||
         dtype == AUTOPROF_F16 || dtype == AUTOPROF_BF16;
}

bool autoprof::runtime::isUnsignedType(autoprof_dtype dtype) {
  return dtype == AUTOPROF_U8 || dtype == AUTOPROF_U16 ||
         dtype == AUTOPROF_U32 || dtype == AUTOPROF_U64;
}

const char *autoprof::runtime::dtypeName(autoprof_dtype dtype) {
  switch (dtype) {
  case AUTOPROF_F32:
    return "f32";
  case AUTOPROF_F64:
    return "f64";
  case AUTOPROF_F16:
    return "f16";
  case AUTOPROF_BF16:
    return "bf16";
  case AUTOPROF_I8:
    return "i8";
  case AUTOPROF_I16:
    return "i16";
  case AUTOPROF_I32:
    return "i32";
  case AUTOPROF_I64:
    return "i64";
  case AUTOPROF_U8:
    return "u8";
  case AUTOPROF_U16:
    return "u16";
  case AUTOPROF_U32:
    return "u32";
  case AUTOPROF_U64:
    return "u64";
  }
  return "invalid";
}

bool autoprof::runtime::dtypeFromName(const std::string &name,
                                      autoprof_dtype &dtype) {
  for (autoprof_dtype candidate :
       {AUTOPROF_F32, AUTOPROF_F64, AUTOPROF_F16, AUTOPROF_BF16, AUTOPROF_I8,
        AUTOPROF_I16, AUTOPROF_I32, AUTOPROF_I64, AUTOPROF_U8, AUTOPROF_U16,
        AUTOPROF_U32, AUTOPROF_U64})
    if (name == dtypeName(candidate)) {
      dtype = candidate;
      return true;
    }
  return false;
}

const char *
autoprof::runtime::distributionName(autoprof_distribution distribution) {
  switch (distribution) {
  case AUTOPROF_DIST_NORMAL:
    return "normal";
  case AUTOPROF_DIST_UNIFORM:
    return "uniform";
  case AUTOPROF_DIST_LARGE:
    return "large";
  case AUTOPROF_DIST_SMALL_INT:
    return "small_int";
  case AUTOPROF_DIST_SPECIAL:
    return "special";
  case AUTOPROF_DIST_SKEWED:
    return "skewed";
  case AUTOPROF_DIST_NEAR_RANGE:
    return "near_range";
  case AUTOPROF_DIST_SUBNORMAL:
    return "subnormal";
  }
  return "invalid";
}

bool autoprof::runtime::distributionFromName(
    const std::string &name, autoprof_distribution &distribution) {
  for (int candidate = AUTOPROF_DIST_NORMAL;
       candidate <= AUTOPROF_DIST_SUBNORMAL; ++candidate)
    if (name ==
        distributionName(static_cast<autoprof_distribution>(candidate))) {
      distribution = static_cast<autoprof_distribution>(candidate);
      return true;
    }
  return false;
}

namespace {

/// Rounds `value` to `fractionBits` explicit mantissa bits with round to
/// nearest even, flushing below 2^minNormalExponent into subnormals of the
/// same spacing (the exponent range above is not limited here).
double roundToPrecision(double value, int fractionBits, int minNormalExponent) {
  if (value == 0 || !std::isfinite(value))
    return value;
  int exponent = 0;
  std::frexp(value, &exponent); // value = m * 2^exponent, 0.5 <= |m| < 1.
  int unitExponent = std::max(exponent - 1, minNormalExponent) - fractionBits;
  double scaled = std::ldexp(value, -unitExponent); // Exact.
  return std::ldexp(std::nearbyint(scaled), unitExponent);
}

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// f32 -> f16 with round to nearest even.
uint16_t floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude >= 0x7F800000u) // Inf or NaN.
    return sign | 0x7C00u | (magnitude > 0x7F800000u ? 0x200u : 0u);
  if (magnitude >= 0x477FF000u) // >= 65520 rounds to infinity.
    return sign | 0x7C00u;
  if (magnitude < 0x38800000u) { // Below 2^-14: subnormal half.
    float scaled = std::fabs(value) * 16777216.0f; // Units of 2^-24, exact.
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  uint32_t exponent = (magnitude >> 23) - 127 + 15;
  uint32_t mantissa = magnitude & 0x7FFFFFu;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half;
  return sign | static_cast<uint16_t>(half);
}

float halfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1Fu;
  uint32_t mantissa = half & 0x3FFu;
  if (exponent == 0) {
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  if (exponent == 31)
    return bitsToFloat(sign | 0x7F800000u | (mantissa << 13));
  return bitsToFloat(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

/// Correctly rounded double -> f16 bits.
uint16_t doubleToHalf(double value) {
  // Round once to f16's precision; the f32 conversion below is then exact.
  return floatToHalf(static_cast<float>(roundToPrecision(value, 10, -14)));
}

/// Correctly rounded double -> bf16 bits.
uint16_t doubleToBFloat16(double value) {
  if (std::isnan(value))
    return 0x7FC0u;
  float rounded = static_cast<float>(roundToPrecision(value, 7, -126));
  return static_cast<uint16_t>(floatBits(rounded) >> 16);
}

float bfloat16ToFloat(uint16_t bits) {
  return bitsToFloat(static_cast<uint32_t>(bits) << 16);
}

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, good enough here.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [0, bound), bound > 0.
  uint64_t below(uint64_t bound) {
    return static_cast<uint64_t>(
        (static_cast<unsigned __int128>(next()) * bound) >> 64);
  }
  /// A Zipfian rank in [1, n], n > 0: rank r about as likely as 1 / r
  /// (log-uniform, the continuous law of exponent 1, rounded down).
  uint64_t zipf(uint64_t n) {
    double rank = std::floor(std::exp(uniform() * std::log(double(n) + 1)));
    return std::min<uint64_t>(std::max(rank, 1.0), n);
  }
  /// Standard normal (Box-Muller, both values used).
  double normal() {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    double u1 = 1.0 - uniform(); // (0, 1]
    double u2 = uniform();
    double radius = std::sqrt(-2.0 * std::log(u1));
    double angle = 6.283185307179586476925 * u2;
    spare = radius * std::sin(angle);
    hasSpare = true;
    return radius * std::cos(angle);
  }

private:
  uint64_t state;
  double spare = 0;
  bool hasSpare = false;
};

uint64_t mix64(uint64_t value) {
  SplitMix64 mixer(value);
  return mixer.next();
}

} // namespace

const char *autoprof::runtime::roleName(autoprof_role role) {
  switch (role) {
  case AUTOPROF_ROLE_INPUT:
    return "input";
  case AUTOPROF_ROLE_OUTPUT:
    return "output";
  case AUTOPROF_ROLE_INOUT:
    return "inout";
  }
  return "invalid";
}

bool autoprof::runtime::isValidDistribution(
    autoprof_distribution distribution) {
  return distribution >= AUTOPROF_DIST_NORMAL &&
         distribution <= AUTOPROF_DIST_SUBNORMAL;
}

/// Minimum and maximum of an integer type as doubles (for clamping).
void autoprof::runtime::integerRange(autoprof_dtype dtype, double &low,
                                     double &high) {
  switch (dtype) {
  case AUTOPROF_I8:
    low = -128, high = 127;
    return;
  case AUTOPROF_I16:
    low = -32768, high = 32767;
    return;
  case AUTOPROF_I32:
    low = -2147483648.0, high = 2147483647.0;
    return;
  case AUTOPROF_U8:
    low = 0, high = 255;
    return;
  case AUTOPROF_U16:
    low = 0, high = 65535;
    return;
  case AUTOPROF_U32:
    low = 0, high = 4294967295.0;
    return;
  case AUTOPROF_U64:
    low = 0, high = 1.8e19;
    return;
  default:
    low = -9.2e18, high = 9.2e18;
    return;
  }
}

/// Largest value of an integer type as uint64 (for index_bound checks).
uint64_t autoprof::runtime::integerMax(autoprof_dtype dtype) {
  switch (dtype) {
  case AUTOPROF_I8:
    return 127;
  case AUTOPROF_I16:
    return 32767;
  case AUTOPROF_I32:
    return 2147483647;
  case AUTOPROF_I64:
    return 9223372036854775807ull;
  case AUTOPROF_U8:
    return 255;
  case AUTOPROF_U16:
    return 65535;
  case AUTOPROF_U32:
    return 4294967295ull;
  default:
    return ~0ull;
  }
}

/// Stores `value` (already integral and in range) as an integer of `dtype`.
void autoprof::runtime::storeInteger(uint8_t *out, autoprof_dtype dtype,
                                     int64_t value) {
  switch (dtypeSize(dtype)) {
  case 1: {
    uint8_t v = static_cast<uint8_t>(value);
    std::memcpy(out, &v, 1);
    return;
  }
  case 2: {
    uint16_t v = static_cast<uint16_t>(value);
    std::memcpy(out, &v, 2);
    return;
  }
  case 4: {
    uint32_t v = static_cast<uint32_t>(value);
    std::memcpy(out, &v, 4);
    return;
  }
  default: {
    uint64_t v = static_cast<uint64_t>(value);
    std::memcpy(out, &v, 8);
    return;
  }
  }
}

/// Stores a double as an element of float type `dtype` (correctly rounded).
void autoprof::runtime::storeFloat(uint8_t *out, autoprof_dtype dtype,
                                   double value) {
  switch (dtype) {
  case AUTOPROF_F64:
    std::memcpy(out, &value, 8);
    return;
  case AUTOPROF_F32: {
    float v = static_cast<float>(value);
    std::memcpy(out, &v, 4);
    return;
  }
  case AUTOPROF_F16: {
    uint16_t v = doubleToHalf(value);
    std::memcpy(out, &v, 2);
    return;
  }
  default: {
    uint16_t v = doubleToBFloat16(value);
    std::memcpy(out, &v, 2);
    return;
  }
  }
}

namespace {

/// Elements per independently seeded chunk of generated input: the data of
/// a buffer does not depend on how many threads generate it.
constexpr uint64_t GenerateChunkElements = uint64_t(1) << 18;

/// One buffer's generation, shared by the threads that fill it.
struct GenerateJob {
  const autoprof_param *param;
  uint64_t stream;
  autoprof_distribution distribution;
  uint8_t *out;
  uint64_t numChunks;
  std::atomic<uint64_t> nextChunk{0};
};

/// The smallest normal value of float type `dtype`.
double smallestNormal(autoprof_dtype dtype) {
  return dtype == AUTOPROF_F64   ? 0x1p-1022
         : dtype == AUTOPROF_F16 ? 0x1p-14
                                 : 0x1p-126; // f32, bf16
}

/// A subnormal value of float type `dtype`, of random sign and magnitude.
double subnormalValue(SplitMix64 &rng, autoprof_dtype dtype) {
  // A quarter to nine tenths of the smallest normal, or a sixteenth of
  // that: subnormal after rounding to any of the float types (the largest
  // bf16 subnormal is 127/128 of the smallest normal), never zero.
  double magnitude = smallestNormal(dtype) * (0.25 + 0.65 * rng.uniform()) *
                     (rng.below(2) ? 1.0 : 0x1p-4);
  return rng.below(2) ? magnitude : -magnitude;
}

/// One of the special values of the special distribution (`which` < 6):
/// NaN, +Inf, -Inf, -0, and a subnormal of `dtype` of either sign (a quarter
/// of its smallest normal).
double specialValue(autoprof_dtype dtype, uint64_t which) {
  double smallest = smallestNormal(dtype);
  switch (which) {
  case 0:
    return std::numeric_limits<double>::quiet_NaN();
  case 1:
    return std::numeric_limits<double>::infinity();
  case 2:
    return -std::numeric_limits<double>::infinity();
  case 3:
    return -0.0;
  case 4:
    return smallest / 4;
  default:
    return -smallest / 4;
  }
}

/// The largest finite value of float type `dtype`.
double floatMax(autoprof_dtype dtype) {
  switch (dtype) {
  case AUTOPROF_F16:
    return 65504.0;
  case AUTOPROF_BF16:
    return 0x1.FEp127;
  case AUTOPROF_F32:
    return std::numeric_limits<float>::max();
  default:
    return std::numeric_limits<double>::max();
  }
}

/// One value of `distribution` within [low, high] (generateInput's ranges);
/// `integral` rounds it to an integer of the range.
double rangedValue(SplitMix64 &rng, autoprof_distribution distribution,
                   autoprof_dtype dtype, double low, double high,
                   bool integral) {
  double width = high - low;
  double value;
  switch (distribution) {
  case AUTOPROF_DIST_UNIFORM:
    if (integral)
      return low + static_cast<double>(
                       rng.below(static_cast<uint64_t>(width) + 1));
    value = low + width * rng.uniform();
    break;
  case AUTOPROF_DIST_LARGE: {
    double offset = width * 0.01 * rng.uniform();
    value = rng.below(2) ? high - offset : low + offset;
    break;
  }
  case AUTOPROF_DIST_SMALL_INT: {
    double first = std::ceil(low);
    if (first > high) { // No integer in the range.
      value = low + width * rng.uniform();
      break;
    }
    uint64_t count = static_cast<uint64_t>(
        std::min(std::floor(high) - first + 1.0, 17.0));
    return first + static_cast<double>(rng.below(count));
  }
  case AUTOPROF_DIST_SPECIAL:
    if (rng.below(8) == 0)
      return rng.below(2) ? high : low;
    value = low + width * rng.uniform();
    break;
  case AUTOPROF_DIST_SKEWED:
    // Low ranks near the low end: rank r at (r - 1) / 1023 of the range.
    if (integral && width < 1023)
      return low + static_cast<double>(
                       rng.zipf(static_cast<uint64_t>(width) + 1) - 1);
    value = low + width * static_cast<double>(rng.zipf(1024) - 1) / 1023.0;
    break;
  case AUTOPROF_DIST_NEAR_RANGE: {
    // Within a thousandth of the range (at least one integer) of its ends.
    double offset =
        std::max(width * 1e-3, integral ? 1.0 : 0.0) * rng.uniform();
    value = rng.below(2) ? high - offset : low + offset;
    break;
  }
  case AUTOPROF_DIST_SUBNORMAL:
    // The range's own subnormals where it holds zero, else uniform.
    value = low <= 0 && high >= 0 && !integral ? subnormalValue(rng, dtype)
                                               : low + width * rng.uniform();
    break;
  default:
    value = low + width * 0.5 + width / 6.0 * rng.normal();
    break;
  }
  if (integral)
    value = std::nearbyint(value);
  return std::min(std::max(value, low), high);
}

void generateChunk(const GenerateJob &job, uint64_t chunk) {
  const autoprof_param &param = *job.param;
  autoprof_dtype dtype = param.dtype;
  size_t size = dtypeSize(dtype);
  uint64_t begin = chunk * GenerateChunkElements;
  uint64_t end = std::min(param.count, begin + GenerateChunkElements);
  SplitMix64 rng(mix64(job.stream ^ (0xD1B54A32D192ED03ull * (chunk + 1))));
  uint8_t *out = job.out;
  if (param.has_range) {
    bool integral = !isFloatType(dtype);
    for (uint64_t i = begin; i < end; ++i) {
      double value = rangedValue(rng, job.distribution, dtype, param.range_low,
                                 param.range_high, integral);
      if (integral)
        storeInteger(out + i * size, dtype, static_cast<int64_t>(value));
      else
        storeFloat(out + i * size, dtype, value);
    }
    return;
  }
  if (isFloatType(dtype)) {
    for (uint64_t i = begin; i < end; ++i) {
      double value;
      switch (job.distribution) {
      case AUTOPROF_DIST_UNIFORM:
        value = 2.0 * rng.uniform() - 1.0;
        break;
      case AUTOPROF_DIST_LARGE:
        value = (2.0 * rng.uniform() - 1.0) * 1e4;
        break;
      case AUTOPROF_DIST_SMALL_INT:
        value = static_cast<double>(rng.below(17)) - 8.0;
        break;
      case AUTOPROF_DIST_SPECIAL:
        value = rng.normal();
        if (rng.below(8) == 0)
          value = specialValue(dtype, rng.below(6));
        break;
      case AUTOPROF_DIST_SKEWED: {
        uint64_t rank = rng.zipf(1024);
        value = static_cast<double>(rank) / 8.0 * (rank % 2 ? -1.0 : 1.0);
        break;
      }
      case AUTOPROF_DIST_NEAR_RANGE:
        // 2^-5 to 2^-1 of the square root of the largest value: a product
        // of two stays below a quarter of it.
        value =
            std::sqrt(floatMax(dtype)) * std::exp2(-1.0 - 4.0 * rng.uniform());
        if (rng.below(2))
          value = -value;
        break;
      case AUTOPROF_DIST_SUBNORMAL:
        value = subnormalValue(rng, dtype);
        break;
      default:
        value = rng.normal();
        break;
      }
      storeFloat(out + i * size, dtype, value);
    }
    return;
  }
  bool isUnsigned = isUnsignedType(dtype);
  double low, high;
  integerRange(dtype, low, high);
  uint64_t typeMax = integerMax(dtype);
  uint64_t bound = 0;
  if (param.index_bound > 0)
    bound = typeMax == ~0ull
                ? static_cast<uint64_t>(param.index_bound)
                : std::min<uint64_t>(param.index_bound, typeMax + 1);
  for (uint64_t i = begin; i < end; ++i) {
    int64_t value;
    if (bound && job.distribution == AUTOPROF_DIST_SKEWED) {
      value = static_cast<int64_t>(rng.zipf(bound) - 1);
    } else if (bound && job.distribution == AUTOPROF_DIST_NEAR_RANGE) {
      value = static_cast<int64_t>(bound - 1 -
                                   rng.below(std::min<uint64_t>(bound, 16)));
    } else if (bound) {
      value = static_cast<int64_t>(rng.below(bound));
    } else if (job.distribution == AUTOPROF_DIST_SKEWED) {
      value = static_cast<int64_t>(
          rng.zipf(std::min<uint64_t>(typeMax, 1 << 20)) - 1);
      if (!isUnsigned && rng.below(2))
        value = -value;
    } else if (job.distribution == AUTOPROF_DIST_NEAR_RANGE) {
      // Within 16 of either end of the type (wrapping to the type's width
      // where it is stored).
      uint64_t offset = rng.below(16);
      uint64_t top = typeMax - offset;
      uint64_t bottom = isUnsigned ? offset : ~typeMax + offset;
      value = static_cast<int64_t>(rng.below(2) ? top : bottom);
    } else {
      double raw;
      switch (job.distribution) {
      case AUTOPROF_DIST_UNIFORM: // Integers in [-128, 127] / [0, 255].
        raw = isUnsigned ? static_cast<double>(rng.below(256))
                         : static_cast<double>(rng.below(256)) - 128.0;
        break;
      case AUTOPROF_DIST_LARGE:
        raw = std::floor((2.0 * rng.uniform() - 1.0) * 1e4);
        if (isUnsigned)
          raw = std::fabs(raw);
        break;
      case AUTOPROF_DIST_SMALL_INT:
        raw = isUnsigned ? static_cast<double>(rng.below(9))
                         : static_cast<double>(rng.below(17)) - 8.0;
        break;
      default: // Rounded N(0, 16^2).
        raw = std::nearbyint(16.0 * rng.normal());
        if (isUnsigned)
          raw = std::fabs(raw);
        break;
      }
      value = static_cast<int64_t>(std::min(std::max(raw, low), high));
    }
    storeInteger(out + i * size, dtype, value);
  }
}

void *generateWorker(void *argument) {
  auto *job = static_cast<GenerateJob *>(argument);
  for (uint64_t chunk = job->nextChunk.fetch_add(1); chunk < job->numChunks;
       chunk = job->nextChunk.fetch_add(1))
    generateChunk(*job, chunk);
  return nullptr;
}

} // namespace

ValueRangeError
autoprof::runtime::checkValueRange(const autoprof_param &param) {
  if (!param.has_range)
    return ValueRangeError::None;
  double low = param.range_low, high = param.range_high;
  if (!std::isfinite(low) || !std::isfinite(high) || !(low < high))
    return ValueRangeError::Bounds;
  if (param.is_scalar || param.role == AUTOPROF_ROLE_OUTPUT)
    return ValueRangeError::Role;
  if (param.index_bound > 0)
    return ValueRangeError::IndexBound;
  if (isFloatType(param.dtype)) {
    double largest = floatMax(param.dtype);
    return low < -largest || high > largest ? ValueRangeError::FloatType
                                            : ValueRangeError::None;
  }
  double typeLow, typeHigh;
  integerRange(param.dtype, typeLow, typeHigh);
  // 64-bit types: bounds within 2^62, which doubles and int64 hold exactly.
  typeLow = std::max(typeLow, -0x1p62);
  typeHigh = std::min(typeHigh, 0x1p62);
  if (low != std::floor(low) || high != std::floor(high) || low < typeLow ||
      high > typeHigh)
    return ValueRangeError::IntegerType;
  return ValueRangeError::None;
}

const char *autoprof::runtime::describe(ValueRangeError error) {
  switch (error) {
  case ValueRangeError::None:
    return "the value range can be generated";
  case ValueRangeError::Bounds:
    return "a value range needs two finite bounds, the first below the "
           "second";
  case ValueRangeError::Role:
    return "only input buffers take a value range";
  case ValueRangeError::IndexBound:
    return "a value range and an index bound cannot both be given";
  case ValueRangeError::FloatType:
    return "the value range exceeds the finite values of the element type";
  case ValueRangeError::IntegerType:
    return "an integer element type needs integer bounds that it holds "
           "(within 2^62)";
  }
  return "invalid";
}

void autoprof::runtime::generateInput(const autoprof_param &param,
                                      size_t paramIndex, uint64_t seed,
                                      autoprof_distribution distribution,
                                      uint8_t *out) {
  GenerateJob job;
  job.param = &param;
  job.distribution = distribution;
  job.out = out;
  job.numChunks =
      (param.count + GenerateChunkElements - 1) / GenerateChunkElements;
  job.stream = mix64(seed);
  job.stream = mix64(job.stream ^ (0xA0761D6478BD642Full *
                                   (static_cast<uint64_t>(distribution) + 1)));
  job.stream = mix64(job.stream ^ (0xE7037ED1A0B428DBull *
                                   (static_cast<uint64_t>(paramIndex) + 1)));
  // Large buffers are generated by several threads (pthreads directly: a
  // thread that cannot be created is simply not used, nothing throws).
  long processors = sysconf(_SC_NPROCESSORS_ONLN);
  uint64_t helpers = std::min<uint64_t>(
      job.numChunks > 1 ? job.numChunks - 1 : 0,
      processors > 1 ? static_cast<uint64_t>(std::min(processors, 32L)) - 1
                     : 0);
  std::vector<pthread_t> threads;
  for (uint64_t i = 0; i < helpers; ++i) {
    pthread_t thread;
    if (pthread_create(&thread, nullptr, generateWorker, &job) != 0)
      break;
    threads.push_back(thread);
  }
  generateWorker(&job);
  for (pthread_t thread : threads)
    pthread_join(thread, nullptr);

  if (param.sorted && !isFloatType(param.dtype)) {
    std::vector<int64_t> values(param.count);
    for (uint64_t i = 0; i < param.count; ++i)
      values[i] = static_cast<int64_t>(loadElement(out, param.dtype, i));
    std::sort(values.begin(), values.end());
    for (uint64_t i = 0; i < param.count; ++i)
      storeInteger(out + i * dtypeSize(param.dtype), param.dtype, values[i]);
  }

  // Never all zero: make the first element nonzero when everything is
  // (possible for tiny integer buffers); an index bound of 1 allows only 0.
  uint64_t bytes = param.count * dtypeSize(param.dtype);
  bool allZero = true;
  for (uint64_t i = 0; i < bytes && allZero; ++i)
    allZero = out[i] == 0;
  if (allZero && param.count > 0 &&
      !(param.index_bound == 1 && !isFloatType(param.dtype))) {
    // Within a range: its end farther from zero.
    double nonzero = 1.0;
    if (param.has_range)
      nonzero = std::fabs(param.range_high) >= std::fabs(param.range_low)
                    ? param.range_high
                    : param.range_low;
    if (isFloatType(param.dtype))
      storeFloat(out, param.dtype, nonzero);
    else
      storeInteger(out, param.dtype, static_cast<int64_t>(nonzero));
  }
}

double autoprof::runtime::loadElement(const uint8_t *data, autoprof_dtype dtype,
                                      uint64_t index) {
  const uint8_t *p = data + index * dtypeSize(dtype);
  switch (dtype) {
  case AUTOPROF_F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case AUTOPROF_F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case AUTOPROF_F16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return halfToFloat(v);
  }
  case AUTOPROF_BF16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return bfloat16ToFloat(v);
  }
  case AUTOPROF_I8: {
    int8_t v;
    std::memcpy(&v, p, 1);
    return v;
  }
  case AUTOPROF_I16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case AUTOPROF_I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case AUTOPROF_I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  case AUTOPROF_U8:
    return *p;
  case AUTOPROF_U16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case AUTOPROF_U32: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case AUTOPROF_U64: {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  }
  return 0;
}

std::string autoprof::runtime::formatElement(const uint8_t *data,
                                             autoprof_dtype dtype,
                                             uint64_t index) {
  char text[64];
  const uint8_t *p = data + index * dtypeSize(dtype);
  if (dtype == AUTOPROF_I64) {
    int64_t v;
    std::memcpy(&v, p, 8);
    std::snprintf(text, sizeof(text), "%lld", static_cast<long long>(v));
  } else if (dtype == AUTOPROF_U64) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    std::snprintf(text, sizeof(text), "%llu",
                  static_cast<unsigned long long>(v));
  } else if (!isFloatType(dtype)) {
    std::snprintf(text, sizeof(text), "%.0f", loadElement(data, dtype, index));
  } else {
    std::snprintf(text, sizeof(text), "%.9g", loadElement(data, dtype, index));
  }
  return text;
}

bool autoprof::runtime::isValidDtype(autoprof_dtype dtype) {
  return dtypeSize(dtype) != 0;
}

bool autoprof::runtime::isValidRole(autoprof_role role) {
  return role == AUTOPROF_ROLE_INPUT || role == AUTOPROF_ROLE_OUTPUT ||
         role == AUTOPROF_ROLE_INOUT;
}

void autoprof::runtime::encodeScalar(const autoprof_param &param,
                                     uint64_t &slot) {
  slot = 0;
  uint8_t *out = reinterpret_cast<uint8_t *>(&slot);
  if (isFloatType(param.dtype))
    storeFloat(out, param.dtype, param.f);
  else
    storeInteger(out, param.dtype, param.i);
}
