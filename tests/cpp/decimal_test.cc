// DECIMAL(p, s): the type ids, the text both ways, rescaling and the conversions to and from
// doubles (src/common/decimal.h), each against DuckDB's answers.
#include <gtest/gtest.h>

#include <string>

#include "laneql/types.h"
#include "src/common/decimal.h"

namespace laneql {
namespace {

using decimal::DecimalToString;

Int128 Parse(const char* text, int p, int s) {
  Int128 v = -999;
  EXPECT_TRUE(decimal::ParseDecimal(text, p, s, &v)) << text;
  return v;
}

TEST(DecimalType, IdsCarryPrecisionAndScale) {
  for (int p = 1; p <= kMaxDecimalPrecision; ++p) {
    for (int s = 0; s <= p; ++s) {
      const TypeId t = DecimalType(p, s);
      ASSERT_TRUE(IsDecimal(t));
      ASSERT_EQ(DecimalPrecision(t), p);
      ASSERT_EQ(DecimalScale(t), s);
      ASSERT_EQ(PhysicalType(t), TypeId::kInt128);
      ASSERT_EQ(TypeByteWidth(t), 16u);
      ASSERT_TRUE(IsValidTypeId(static_cast<uint64_t>(t)));
      TypeId back;
      ASSERT_TRUE(TypeFromSqlName(DuckDbTypeName(t), &back));
      ASSERT_EQ(back, t);
      ASSERT_TRUE(TypeFromName(TypeName(t), &back));
      ASSERT_EQ(back, t);
    }
  }
  for (int i = 0; i < kNumTypeIds; ++i) EXPECT_FALSE(IsDecimal(static_cast<TypeId>(i)));
  EXPECT_STREQ(DuckDbTypeName(DecimalType(15, 2)), "DECIMAL(15,2)");
  EXPECT_STREQ(ArrowFormat(DecimalType(15, 2)), "d:15,2");
  EXPECT_FALSE(IsValidTypeId(kDecimalTag | 39 << 8));
  EXPECT_FALSE(IsValidTypeId(kDecimalTag | 5 << 8 | 6));
  EXPECT_FALSE(IsValidTypeId(kDecimalTag));  // precision 0
  EXPECT_FALSE(IsValidTypeId(kNumTypeIds));
}

TEST(DecimalType, SqlNames) {
  TypeId t;
  ASSERT_TRUE(TypeFromSqlName("DECIMAL", &t));
  EXPECT_EQ(t, DecimalType(18, 3));  // DuckDB's default
  ASSERT_TRUE(TypeFromSqlName("numeric(10)", &t));
  EXPECT_EQ(t, DecimalType(10, 0));
  ASSERT_TRUE(TypeFromSqlName("DECIMAL( 15 , 2 )", &t));
  EXPECT_EQ(t, DecimalType(15, 2));
  EXPECT_FALSE(TypeFromSqlName("DECIMAL(39,2)", &t));
  EXPECT_FALSE(TypeFromSqlName("DECIMAL(0)", &t));
  EXPECT_FALSE(TypeFromSqlName("DECIMAL(5,6)", &t));
  EXPECT_FALSE(TypeFromSqlName("DECIMAL(5,2,1)", &t));
  EXPECT_FALSE(TypeFromSqlName("DECIMAL(x)", &t));
}

TEST(DecimalPowers, TheTableHoldsEveryPowerOfTenUpTo38) {
  Int128 p = 1;
  for (int n = 0; n <= 38; ++n) {
    EXPECT_TRUE(decimal::Pow10(n) == p) << n;
    EXPECT_EQ(DecimalToString(decimal::Pow10(n), 0), "1" + std::string(static_cast<size_t>(n), '0'));
    if (n < 38) p *= 10;
  }
  EXPECT_TRUE(decimal::FitsPrecision(decimal::Pow10(38) - 1, 38));
  EXPECT_FALSE(decimal::FitsPrecision(decimal::Pow10(5), 5));
  EXPECT_TRUE(decimal::FitsPrecision(-(decimal::Pow10(5) - 1), 5));
}

TEST(DecimalText, PrintsTheScaleDigits) {
  EXPECT_EQ(DecimalToString(0, 0), "0");
  EXPECT_EQ(DecimalToString(0, 3), "0.000");
  EXPECT_EQ(DecimalToString(-5, 2), "-0.05");
  EXPECT_EQ(DecimalToString(1250, 2), "12.50");
  EXPECT_EQ(DecimalToString(-1250, 0), "-1250");
  const Int128 max = decimal::Pow10(38) - 1;
  EXPECT_EQ(DecimalToString(max, 38), "0.99999999999999999999999999999999999999");
  EXPECT_EQ(DecimalToString(-max, 0), "-99999999999999999999999999999999999999");
  std::string text;
  decimal::AppendDecimalValue(DecimalType(1, 1), -5, &text);
  text += ' ';
  decimal::AppendDecimalValue(DecimalType(3, 3), 0, &text);
  text += ' ';
  decimal::AppendDecimalValue(DecimalType(3, 2), 6, &text);
  EXPECT_EQ(text, "-.5 .000 0.06");  // DuckDB's text: no 0 before the point without integer digits
}

TEST(DecimalText, ParsesAndRoundsHalfAwayFromZero) {
  EXPECT_EQ(Parse("1.235", 4, 2), 124);
  EXPECT_EQ(Parse("-1.235", 4, 2), -124);
  EXPECT_EQ(Parse("1.225", 4, 2), 123);
  EXPECT_EQ(Parse("1.2249", 4, 2), 122);
  EXPECT_EQ(Parse(" -0.0049 ", 4, 2), 0);
  EXPECT_EQ(Parse(".5", 3, 1), 5);
  EXPECT_EQ(Parse("5.", 3, 1), 50);
  EXPECT_EQ(Parse("+7", 3, 1), 70);
  EXPECT_EQ(Parse("1e3", 10, 2), 100000);
  EXPECT_EQ(Parse("1.5E-1", 3, 2), 15);
  EXPECT_EQ(Parse("00000000000000000000000000000000000000000012.5", 4, 1), 125);
  EXPECT_EQ(Parse("99999999999999999999999999999999999999", 38, 0), decimal::Pow10(38) - 1);
  // More digits than int128 holds: the first dropped one rounds.
  EXPECT_EQ(Parse("0.123456789012345678901234567890123456785", 38, 38),
            Parse("0.12345678901234567890123456789012345679", 38, 38));
  Int128 v;
  for (const char* bad : {"", " ", "-", ".", "abc", "1..2", "1.2.3", "1e", "1e+", "12a", "1 2", "e5", "--1"}) {
    EXPECT_FALSE(decimal::ParseDecimal(bad, 10, 2, &v)) << bad;
  }
  EXPECT_FALSE(decimal::ParseDecimal("12345", 4, 2, &v));  // 3 integer digits at most
  EXPECT_FALSE(decimal::ParseDecimal("99.995", 4, 2, &v));  // rounds to 100.00
  EXPECT_FALSE(decimal::ParseDecimal("1", 38, 38, &v));
  EXPECT_FALSE(decimal::ParseDecimal("1e40", 38, 0, &v));
  EXPECT_TRUE(decimal::ParseDecimal("1e-40", 38, 2, &v));
  EXPECT_EQ(v, 0);
}

TEST(DecimalConvert, RescaleRoundsAndChecksThePrecision) {
  Int128 v;
  ASSERT_TRUE(decimal::Rescale(345, 2, 1, 2, &v));
  EXPECT_EQ(v, 35);
  ASSERT_TRUE(decimal::Rescale(-345, 2, 1, 2, &v));
  EXPECT_EQ(v, -35);
  ASSERT_TRUE(decimal::Rescale(-344, 2, 1, 2, &v));
  EXPECT_EQ(v, -34);
  ASSERT_TRUE(decimal::Rescale(25, 1, 0, 1, &v));  // CAST(2.5 AS INTEGER) = 3
  EXPECT_EQ(v, 3);
  ASSERT_TRUE(decimal::Rescale(12, 0, 3, 5, &v));
  EXPECT_EQ(v, 12000);
  EXPECT_FALSE(decimal::Rescale(12345, 2, 2, 4, &v));
  EXPECT_FALSE(decimal::Rescale(100, 0, 37, 38, &v));
  EXPECT_FALSE(decimal::Rescale(decimal::Pow10(37), 0, 5, 38, &v));  // int128 overflow
}

TEST(DecimalConvert, Doubles) {
  Int128 v;
  ASSERT_TRUE(decimal::FromDouble(0.125, 3, 2, &v));
  EXPECT_EQ(v, 13);
  ASSERT_TRUE(decimal::FromDouble(-0.125, 3, 2, &v));
  EXPECT_EQ(v, -13);
  ASSERT_TRUE(decimal::FromDouble(1.005, 4, 2, &v));  // 1.00499999999999989...
  EXPECT_EQ(v, 100);
  ASSERT_TRUE(decimal::FromDouble(2.5, 2, 0, &v));
  EXPECT_EQ(v, 3);
  EXPECT_FALSE(decimal::FromDouble(1e10, 4, 2, &v));
  EXPECT_FALSE(decimal::FromDouble(0.0 / 0.0, 4, 2, &v));
  EXPECT_FALSE(decimal::FromDouble(1.0 / 0.0, 38, 0, &v));
  EXPECT_EQ(decimal::ToDouble(-5, 2), -0.05);
  EXPECT_EQ(decimal::ToDouble(1250, 2), 12.5);
  EXPECT_EQ(decimal::Average(2083, 3, 2), 6.9433333333333325);  // DuckDB's, not 2083.0 / 300
}

TEST(DecimalConvert, CommonTypes) {
  EXPECT_EQ(decimal::CommonType(DecimalType(5, 2), DecimalType(3, 1)), DecimalType(5, 2));
  EXPECT_EQ(decimal::CommonType(DecimalType(5, 2), DecimalType(6, 0)), DecimalType(8, 2));
  EXPECT_EQ(decimal::CommonType(DecimalType(5, 2), TypeId::kInt32), DecimalType(12, 2));
  EXPECT_EQ(decimal::CommonType(TypeId::kInt64, DecimalType(5, 2)), DecimalType(21, 2));
  EXPECT_EQ(decimal::CommonType(DecimalType(38, 10), TypeId::kInt128), DecimalType(38, 0));  // 38 integer digits
  EXPECT_EQ(decimal::CommonType(DecimalType(38, 0), DecimalType(1, 1)), DecimalType(38, 0));
  EXPECT_EQ(decimal::CommonType(DecimalType(37, 0), DecimalType(1, 1)), DecimalType(38, 1));
  EXPECT_EQ(decimal::CommonType(DecimalType(5, 2), TypeId::kFloat32), TypeId::kFloat64);
}

}  // namespace
}  // namespace laneql
