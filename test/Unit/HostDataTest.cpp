//===- HostDataTest.cpp - Element types and generated inputs --------------===//
//
// Part of the AutoProf project.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Runtime/HostData.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

using namespace autoprof::runtime;

namespace {

autoprof_param buffer(autoprof_dtype dtype, uint64_t count) {
  autoprof_param param = {};
  param.dtype = dtype;
  param.count = count;
  param.role = AUTOPROF_ROLE_INPUT;
  return param;
}

std::vector<double> generate(const autoprof_param &param,
                             autoprof_distribution distribution,
                             uint64_t seed = 1, size_t index = 0) {
  std::vector<uint8_t> bytes(param.count * dtypeSize(param.dtype));
  generateInput(param, index, seed, distribution, bytes.data());
  std::vector<double> values;
  for (uint64_t i = 0; i < param.count; ++i)
    values.push_back(loadElement(bytes.data(), param.dtype, i));
  return values;
}

const autoprof_distribution allDistributions[] = {
    AUTOPROF_DIST_NORMAL,     AUTOPROF_DIST_UNIFORM,  AUTOPROF_DIST_LARGE,
    AUTOPROF_DIST_SMALL_INT,  AUTOPROF_DIST_SPECIAL,  AUTOPROF_DIST_SKEWED,
    AUTOPROF_DIST_NEAR_RANGE, AUTOPROF_DIST_SUBNORMAL};

TEST(HostDataTest, RoundsHalvesToNearestEven) {
  uint8_t bytes[2];
  // 1 + 2^-11 lies halfway between 1 and the next f16, 1 + 2^-10: even wins.
  storeFloat(bytes, AUTOPROF_F16, 1.0 + std::ldexp(1.0, -11));
  EXPECT_EQ(loadElement(bytes, AUTOPROF_F16, 0), 1.0);
  storeFloat(bytes, AUTOPROF_F16, 1.0 + 3 * std::ldexp(1.0, -11));
  EXPECT_EQ(loadElement(bytes, AUTOPROF_F16, 0), 1.0 + std::ldexp(1.0, -9));
  // bf16 keeps 8 bits of mantissa.
  storeFloat(bytes, AUTOPROF_BF16, 1.0 + std::ldexp(1.0, -8));
  EXPECT_EQ(loadElement(bytes, AUTOPROF_BF16, 0), 1.0);
  storeFloat(bytes, AUTOPROF_F16, 1e6);
  EXPECT_TRUE(std::isinf(loadElement(bytes, AUTOPROF_F16, 0)));
}

TEST(HostDataTest, GeneratesTheSameBytesForTheSameSeed) {
  autoprof_param param = buffer(AUTOPROF_F32, 1000);
  EXPECT_EQ(generate(param, AUTOPROF_DIST_NORMAL, 7),
            generate(param, AUTOPROF_DIST_NORMAL, 7));
  EXPECT_NE(generate(param, AUTOPROF_DIST_NORMAL, 7),
            generate(param, AUTOPROF_DIST_NORMAL, 8));
  // Another parameter of the same kernel gets other data.
  EXPECT_NE(generate(param, AUTOPROF_DIST_NORMAL, 7, 0),
            generate(param, AUTOPROF_DIST_NORMAL, 7, 1));
}

TEST(HostDataTest, KeepsIndicesBelowTheirBound) {
  autoprof_param param = buffer(AUTOPROF_I32, 4096);
  param.index_bound = 100;
  param.sorted = 1;
  for (autoprof_distribution distribution : allDistributions) {
    std::vector<double> values = generate(param, distribution);
    for (size_t i = 0; i < values.size(); ++i) {
      EXPECT_GE(values[i], 0);
      EXPECT_LT(values[i], 100);
      if (i) {
        EXPECT_LE(values[i - 1], values[i]);
      }
    }
  }
}

TEST(HostDataTest, NeverFillsABufferWithZeros) {
  // One u8 of small integers is often 0.
  autoprof_param param = buffer(AUTOPROF_U8, 1);
  for (uint64_t seed = 0; seed < 64; ++seed)
    EXPECT_NE(generate(param, AUTOPROF_DIST_SMALL_INT, seed)[0], 0);
}

TEST(HostDataTest, DrawsEveryDistributionWithinAValueRange) {
  for (autoprof_dtype dtype : {AUTOPROF_F32, AUTOPROF_F16, AUTOPROF_BF16,
                               AUTOPROF_F64, AUTOPROF_I32, AUTOPROF_U8}) {
    autoprof_param param = buffer(dtype, 20000);
    param.has_range = 1;
    param.range_low = 2;
    param.range_high = 50;
    ASSERT_EQ(checkValueRange(param), ValueRangeError::None);
    for (autoprof_distribution distribution : allDistributions) {
      std::vector<double> values = generate(param, distribution);
      double lowest = values[0], highest = values[0];
      for (double value : values) {
        ASSERT_TRUE(std::isfinite(value)) << dtypeName(dtype);
        lowest = std::min(lowest, value);
        highest = std::max(highest, value);
        if (!isFloatType(dtype)) {
          EXPECT_EQ(value, std::floor(value));
        }
      }
      EXPECT_GE(lowest, 2) << dtypeName(dtype) << " "
                           << distributionName(distribution);
      EXPECT_LE(highest, 50) << dtypeName(dtype) << " "
                             << distributionName(distribution);
      // Every distribution spreads its values, not one constant.
      EXPECT_LT(lowest, highest);
    }
    // The special distribution reaches both ends of the range exactly.
    std::vector<double> special = generate(param, AUTOPROF_DIST_SPECIAL);
    EXPECT_NE(std::find(special.begin(), special.end(), 2.0), special.end());
    EXPECT_NE(std::find(special.begin(), special.end(), 50.0), special.end());
  }
}

TEST(HostDataTest, SkewedValuesAndIndicesCrowdOnAFew) {
  // Floats: (-1)^r r / 8 for a Zipfian rank r; the first rank alone is
  // drawn about one time in ln(1025), far more than a uniform draw.
  std::vector<double> values =
      generate(buffer(AUTOPROF_F32, 100000), AUTOPROF_DIST_SKEWED);
  size_t first = std::count(values.begin(), values.end(), -0.125);
  EXPECT_GT(first, values.size() / 20);
  for (double value : values)
    EXPECT_EQ(value * 8, std::nearbyint(value * 8)) << value;
  // Indices: the low ones are hot, all below the bound.
  autoprof_param indices = buffer(AUTOPROF_I32, 100000);
  indices.index_bound = 1000;
  std::vector<double> drawn = generate(indices, AUTOPROF_DIST_SKEWED);
  size_t low = std::count_if(drawn.begin(), drawn.end(),
                             [](double index) { return index < 10; });
  EXPECT_GT(low, drawn.size() / 4);
  EXPECT_LT(*std::max_element(drawn.begin(), drawn.end()), 1000);
  EXPECT_GT(*std::max_element(drawn.begin(), drawn.end()), 500);
}

TEST(HostDataTest, NearRangeValuesKeepProductsFinite) {
  for (autoprof_dtype dtype :
       {AUTOPROF_F16, AUTOPROF_BF16, AUTOPROF_F32, AUTOPROF_F64}) {
    std::vector<double> values =
        generate(buffer(dtype, 10000), AUTOPROF_DIST_NEAR_RANGE);
    double root = std::sqrt(dtype == AUTOPROF_F16    ? 65504.0
                            : dtype == AUTOPROF_BF16 ? 0x1.FEp127
                            : dtype == AUTOPROF_F32
                                ? double(std::numeric_limits<float>::max())
                                : std::numeric_limits<double>::max());
    bool negative = false;
    for (double value : values) {
      // A thirty-second of the root (less rounding) to half of it.
      EXPECT_GE(std::fabs(value), root / 33) << dtypeName(dtype);
      EXPECT_LE(std::fabs(value), root / 2 * 1.01) << dtypeName(dtype);
      negative |= value < 0;
    }
    EXPECT_TRUE(negative) << dtypeName(dtype);
    uint8_t product[8];
    storeFloat(product, dtype, values[0] * values[1]);
    EXPECT_TRUE(std::isfinite(loadElement(product, dtype, 0)));
  }
  // Integers sit within 16 of the type's ends, or of the index bound.
  for (double value :
       generate(buffer(AUTOPROF_I8, 1000), AUTOPROF_DIST_NEAR_RANGE))
    EXPECT_TRUE(value >= 112 || value <= -113) << value;
  for (double value :
       generate(buffer(AUTOPROF_U16, 1000), AUTOPROF_DIST_NEAR_RANGE))
    EXPECT_TRUE(value >= 65520 || value < 16) << value;
  autoprof_param indices = buffer(AUTOPROF_I64, 1000);
  indices.index_bound = 100;
  for (double value : generate(indices, AUTOPROF_DIST_NEAR_RANGE)) {
    EXPECT_GE(value, 84);
    EXPECT_LT(value, 100);
  }
}

TEST(HostDataTest, SubnormalValuesAreSubnormal) {
  for (autoprof_dtype dtype :
       {AUTOPROF_F16, AUTOPROF_BF16, AUTOPROF_F32, AUTOPROF_F64}) {
    double smallestNormal = dtype == AUTOPROF_F64   ? 0x1p-1022
                            : dtype == AUTOPROF_F16 ? 0x1p-14
                                                    : 0x1p-126;
    std::vector<double> values =
        generate(buffer(dtype, 4096), AUTOPROF_DIST_SUBNORMAL);
    size_t zeros = 0;
    for (double value : values) {
      EXPECT_LT(std::fabs(value), smallestNormal) << dtypeName(dtype);
      zeros += value == 0;
    }
    EXPECT_EQ(zeros, 0u) << dtypeName(dtype);
    EXPECT_GT(std::set<double>(values.begin(), values.end()).size(), 16u)
        << dtypeName(dtype);
  }
}

TEST(HostDataTest, CentersTheNormalDistributionInTheRange) {
  autoprof_param param = buffer(AUTOPROF_F64, 100000);
  param.has_range = 1;
  param.range_low = 0;
  param.range_high = 6;
  double sum = 0;
  for (double value : generate(param, AUTOPROF_DIST_NORMAL))
    sum += value;
  EXPECT_NEAR(sum / 100000, 3.0, 0.05);
}

TEST(HostDataTest, RefusesRangesThatCannotBeGenerated) {
  autoprof_param param = buffer(AUTOPROF_F32, 4);
  param.has_range = 1;
  param.range_low = 1;
  param.range_high = 1;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::Bounds);
  param.range_high = INFINITY;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::Bounds);

  param = buffer(AUTOPROF_F16, 4);
  param.has_range = 1;
  param.range_low = 0;
  param.range_high = 1e5;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::FloatType);
  param.range_high = 65504;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::None);

  param = buffer(AUTOPROF_I8, 4);
  param.has_range = 1;
  param.range_low = 0.5;
  param.range_high = 10;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::IntegerType);
  param.range_low = 0;
  param.range_high = 200;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::IntegerType);

  param = buffer(AUTOPROF_I32, 4);
  param.has_range = 1;
  param.range_low = 0;
  param.range_high = 10;
  param.role = AUTOPROF_ROLE_OUTPUT;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::Role);
  param.role = AUTOPROF_ROLE_INOUT;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::None);
  param.index_bound = 5;
  EXPECT_EQ(checkValueRange(param), ValueRangeError::IndexBound);
}

} // namespace
