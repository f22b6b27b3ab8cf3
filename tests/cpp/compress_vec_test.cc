// CompressVec (src/exec/vector.h): a Vec's rows picked by a mask, as owners take their rows of
// a batch's prepared aggregate arguments. Against a row-by-row pick, for every width it takes,
// with NULLs, constants, no row and every row, and sizes around the 64-bit mask words.
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/bitmask.h"
#include "src/exec/vector.h"

namespace laneql {
namespace {

using exec::Vec;

// A Vec of `n` random values of `type` (width bytes each), NULLs where `nulls`.
Vec RandomVec(TypeId type, size_t n, bool nulls, std::mt19937_64* rng) {
  Vec vec;
  std::string error;
  const size_t width = TypeByteWidth(type);
  vec.type = type;
  vec.count = n;
  EXPECT_TRUE(vec.own_values.Resize(std::max<size_t>(n, 1) * width, &error)) << error;
  for (size_t i = 0; i < n * width; ++i) vec.own_values.data()[i] = static_cast<uint8_t>((*rng)());
  vec.values = vec.own_values.data();
  if (nulls) {
    EXPECT_TRUE(vec.own_validity.Resize(BitmaskWords(std::max<size_t>(n, 1)) * 8, &error)) << error;
    uint64_t* bits = vec.own_validity.As<uint64_t>();
    for (size_t w = 0; w < BitmaskWords(std::max<size_t>(n, 1)); ++w) bits[w] = (*rng)();
    vec.validity = bits;
  }
  return vec;
}

TEST(CompressVec, TakesTheMaskedRowsInOrder) {
  std::mt19937_64 rng(7);
  EXPECT_FALSE(exec::CanCompressVec(TypeId::kString));
  EXPECT_FALSE(exec::CanCompressVec(TypeId::kInt128));
  EXPECT_FALSE(exec::CanCompressVec(TypeId::kLargeString));
  for (TypeId type : {TypeId::kInt8, TypeId::kInt16, TypeId::kInt32, TypeId::kInt64, TypeId::kFloat64,
                      TypeId::kFloat32, TypeId::kBool, TypeId::kDate32, TypeId::kUInt16,
                      TypeId::kTimestampMicros}) {
    ASSERT_TRUE(exec::CanCompressVec(type)) << static_cast<int>(type);
    const size_t width = TypeByteWidth(type);
    for (size_t n : {0, 1, 63, 64, 65, 1000, 16384}) {
      for (int density : {0, 1, 50, 100}) {  // % of rows kept
        for (bool nulls : {false, true}) {
          SCOPED_TRACE(std::to_string(static_cast<int>(type)) + " n " + std::to_string(n) + " kept % " +
                       std::to_string(density) + (nulls ? " nulls" : ""));
          const Vec in = RandomVec(type, n, nulls, &rng);
          std::vector<uint64_t> mask(BitmaskWords(n) + 1, 0);
          std::vector<size_t> kept_rows;
          for (size_t i = 0; i < n; ++i) {
            if (static_cast<int>(rng() % 100) < density) {
              mask[i / 64] |= uint64_t{1} << (i % 64);
              kept_rows.push_back(i);
            }
          }
          Vec out;
          std::string error;
          ASSERT_TRUE(exec::CompressVec(in, mask.data(), kept_rows.size(), &out, &error)) << error;
          EXPECT_EQ(out.type, type);
          EXPECT_EQ(out.count, kept_rows.size());
          EXPECT_FALSE(out.constant);
          EXPECT_EQ(out.validity != nullptr, nulls);
          for (size_t k = 0; k < kept_rows.size(); ++k) {
            EXPECT_EQ(0, std::memcmp(out.values + k * width, in.values + kept_rows[k] * width, width)) << k;
            EXPECT_EQ(out.IsNull(k), in.IsNull(kept_rows[k])) << k;
          }
        }
      }
    }
  }
}

TEST(CompressVec, AConstantStaysOneValue) {
  for (bool null : {false, true}) {
    Vec in;
    std::string error;
    int32_t* value = in.InitFixed<int32_t>(TypeId::kInt32, 100, true, &error);
    ASSERT_NE(value, nullptr) << error;
    *value = -12345;
    if (null) {
      uint64_t* bits = in.InitValidity(&error);
      ASSERT_NE(bits, nullptr) << error;
      bits[0] = 0;
    }
    std::vector<uint64_t> mask(2, 0);
    mask[0] = 0xF0F0;  // 8 rows
    Vec out;
    ASSERT_TRUE(exec::CompressVec(in, mask.data(), 8, &out, &error)) << error;
    EXPECT_TRUE(out.constant);
    EXPECT_EQ(out.count, 8u);
    EXPECT_EQ(out.stored(), 1u);
    EXPECT_EQ(out.Get<int32_t>(5), -12345);
    EXPECT_EQ(out.IsNull(3), null);
  }
}

}  // namespace
}  // namespace laneql
