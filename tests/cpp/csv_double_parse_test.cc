// csv::ParseDouble (io/csv_field_parse.cc) against strtod, bit for bit: plain decimals take a
// fast path of their own (at most 15 significant digits, at most 22 after the point), the rest
// strtod. Random decimals of every length around those limits, signs, leading and trailing
// zeros, a lone point at either end, and the exponent forms and specials strtod keeps.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "src/io/csv_field_parse.h"

namespace laneql {
namespace {

uint64_t Bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof(b));
  return b;
}

void ExpectStrtod(const std::string& text) {
  double got = 0;
  ASSERT_EQ(csv::ParseDouble(text, &got), csv::ParseStatus::kOk) << text;
  const double want = std::strtod(text.c_str(), nullptr);
  EXPECT_EQ(Bits(got), Bits(want)) << text << ": " << got << " against strtod's " << want;
}

TEST(CsvDoubleParse, DecimalsEqualStrtodBitForBit) {
  for (const char* text : {"0", "-0", "+0", "-0.0", "0.0", ".5", "5.", "-.5", "21168.23", "0.05", "0.1", "0.3",
                           "123456789012345", "1234567890123456", "0.000000000000000000001",
                           "0.0000000000000000000001", "1.0000000000000000000000", "999999999999999.9",
                           "9007199254740993", "00000000000000000000012.5", "1e5", "-2.5E-3",
                           "4.9e-324", "179769313486231570000000000000000000000.0", "0.1000000000000000055511151231257827"}) {
    ExpectStrtod(text);
  }
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200000; ++i) {
    std::string text;
    if (rng() % 4 == 0) text += rng() % 2 ? "-" : "+";
    const int whole = static_cast<int>(rng() % 19), part = static_cast<int>(rng() % 26);
    for (int d = 0; d < whole; ++d) text += static_cast<char>('0' + rng() % (d == 0 && rng() % 3 == 0 ? 1 : 10));
    if (part > 0 || whole == 0) {
      text += '.';
      for (int d = 0; d < std::max(part, whole == 0 ? 1 : 0); ++d) text += static_cast<char>('0' + rng() % 10);
    }
    ExpectStrtod(text);
    if (HasFailure()) return;
  }
}

TEST(CsvDoubleParse, NotNumbersStayErrors) {
  double out = 0;
  for (const char* text : {"", "-", ".", "1.2.3", "1,5", "12a", "--1", "1e", " 1"}) {
    EXPECT_EQ(csv::ParseDouble(text, &out), csv::ParseStatus::kSyntax) << text;
  }
  EXPECT_EQ(csv::ParseDouble("1e400", &out), csv::ParseStatus::kOutOfRange);
}

}  // namespace
}  // namespace laneql
