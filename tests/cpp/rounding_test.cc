// Rounding and sign kernels against their scalar references (the <cmath> calls), on every
// compiled target, bit for bit: random doubles over the whole exponent range, values near
// halves and integers, the neighbours of 0.5 and 2^52, ±0, ±inf, NaN of both signs and with
// payloads; sizes around every vector width; round(x, digits) for digits from -400 to 400.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/rounding.h"
#include "target_param.h"

namespace laneql {
namespace {

double FromBits(uint64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

::testing::AssertionResult SameBits(double want, double got) {
  if (std::memcmp(&want, &got, sizeof(double)) == 0) return ::testing::AssertionSuccess();
  uint64_t w, g;
  std::memcpy(&w, &want, sizeof w);
  std::memcpy(&g, &got, sizeof g);
  return ::testing::AssertionFailure() << std::hexfloat << "want " << want << " (0x" << std::hex << w << "), got "
                                       << got << " (0x" << g << ")";
}

std::vector<double> Specials() {
  using L = std::numeric_limits<double>;
  const double two52 = 4503599627370496.0, two53 = 9007199254740992.0;
  std::vector<double> v = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                           std::nextafter(0.5, 1.0), std::nextafter(-0.5, -1.0), 1.0, -1.0, 2.0, -2.0, 3.0,
                           0.1, -0.1, 0.9, -0.9, 1e-300, -1e-300,
                           two52, -two52, two52 - 0.5, -(two52 - 0.5), two52 + 1, two52 - 1.5, two53, two53 - 1,
                           -(two53 - 1), two53 + 2, 1e300, -1e300, L::max(), L::lowest(), L::min(), -L::min(),
                           L::denorm_min(), -L::denorm_min(), L::infinity(), -L::infinity(), L::quiet_NaN(),
                           -L::quiet_NaN(), FromBits(0x7FF8000000001234ull), FromBits(0xFFF800000000ABCDull),
                           123.456, -123.456, 0.125, 0.375, 1.005, 2.675, -2.675, 1234567.891, 5e-5, 5e15};
  return v;
}

// A quarter specials, a quarter halves (k + 0.5 and neighbours), the rest any finite double.
std::vector<double> MakeDoubles(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<double> specials = Specials();
  std::vector<double> v(n);
  for (double& x : v) {
    switch (rng() % 4) {
      case 0: x = specials[rng() % specials.size()]; break;
      case 1: {
        const double half = static_cast<double>(static_cast<int64_t>(rng() % 2000001) - 1000000) + 0.5;
        const int nudge = static_cast<int>(rng() % 3) - 1;
        x = nudge == 0 ? half : std::nextafter(half, nudge * 1e300);
        break;
      }
      case 2: x = std::uniform_real_distribution<double>(-100, 100)(rng); break;
      default:
        x = std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(rng), static_cast<int>(rng() % 2100) - 1050) *
            ((rng() & 1) ? 1 : -1);
        break;
    }
  }
  return v;
}

std::vector<size_t> Sizes() {
  std::vector<size_t> sizes;
  for (size_t n = 0; n <= 40; ++n) sizes.push_back(n);
  for (size_t n : {63, 64, 65, 127, 1000, 4099}) sizes.push_back(n);
  return sizes;
}

LANEQL_PER_TARGET_SUITE(RoundingTest);

TEST_P(RoundingTest, EveryOpMatchesReferenceBitForBit) {
  for (RoundingOp op : {RoundingOp::kFloor, RoundingOp::kCeil, RoundingOp::kTrunc, RoundingOp::kRound,
                        RoundingOp::kAbs, RoundingOp::kEven, RoundingOp::kHalfEven}) {
    for (size_t n : Sizes()) {
      for (size_t offset : {0, 1}) {
        const std::vector<double> xs = MakeDoubles(n + offset, n * 11 + offset);
        std::vector<double> want(n + 1, 7.0), got(n + 1, 7.0);
        reference::RoundFloat64(op, xs.data() + offset, n, want.data());
        RoundFloat64(op, xs.data() + offset, n, got.data());
        for (size_t i = 0; i <= n; ++i) {  // and the slot past the end untouched
          ASSERT_TRUE(SameBits(want[i], got[i])) << "op " << static_cast<int>(op) << " n=" << n << " row " << i
                                                 << " x=" << (i < n ? xs[offset + i] : 0.0);
        }
      }
    }
  }
}

TEST_P(RoundingTest, InPlace) {
  const std::vector<double> xs = MakeDoubles(100, 5);
  std::vector<double> want(100), got = xs;
  reference::RoundFloat64(RoundingOp::kRound, xs.data(), 100, want.data());
  RoundFloat64(RoundingOp::kRound, got.data(), 100, got.data());
  for (size_t i = 0; i < 100; ++i) ASSERT_TRUE(SameBits(want[i], got[i])) << "row " << i;
}

// The cases that break a careless round, spelled out (checks the reference too).
TEST_P(RoundingTest, RoundHalfAwayFromZero) {
  const double xs[] = {0.49999999999999994, -0.49999999999999994, 0.5, -0.5, 2.5, -2.5, -0.4, 4503599627370495.5,
                       4503599627370497.0};
  const double want[] = {0.0, -0.0, 1.0, -1.0, 3.0, -3.0, -0.0, 4503599627370496.0, 4503599627370497.0};
  double got[9], ref[9];
  RoundFloat64(RoundingOp::kRound, xs, 9, got);
  reference::RoundFloat64(RoundingOp::kRound, xs, 9, ref);
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_TRUE(SameBits(want[i], got[i])) << xs[i];
    EXPECT_TRUE(SameBits(want[i], ref[i])) << xs[i];
  }
}

// Halves to the even neighbour, the sign of a zero result kept (the casts to integers use it).
TEST_P(RoundingTest, HalfEven) {
  const double inf = std::numeric_limits<double>::infinity();
  const double xs[] = {0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994, -0.3, 4503599627370495.5, 4503599627370497.0,
                       inf, -inf};
  const double want[] = {0.0, -0.0, 2.0, 2.0, -2.0, 0.0, -0.0, 4503599627370496.0, 4503599627370497.0, inf, -inf};
  double got[11], ref[11];
  RoundFloat64(RoundingOp::kHalfEven, xs, 11, got);
  reference::RoundFloat64(RoundingOp::kHalfEven, xs, 11, ref);
  for (size_t i = 0; i < 11; ++i) {
    EXPECT_TRUE(SameBits(want[i], got[i])) << xs[i];
    EXPECT_TRUE(SameBits(want[i], ref[i])) << xs[i];
  }
}

TEST_P(RoundingTest, Even) {
  const double inf = std::numeric_limits<double>::infinity();
  const double xs[] = {0.5, -0.5, 2.0, 2.1, -2.1, 3.0, -0.0, 0.0, inf, -inf, 9007199254740991.0};
  const double want[] = {2.0, -2.0, 2.0, 4.0, -4.0, 4.0, -0.0, 0.0, inf, -inf, 9007199254740992.0};
  double got[11];
  RoundFloat64(RoundingOp::kEven, xs, 11, got);
  for (size_t i = 0; i < 11; ++i) EXPECT_TRUE(SameBits(want[i], got[i])) << xs[i];
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double out = 0;
  RoundFloat64(RoundingOp::kEven, &nan, 1, &out);
  EXPECT_TRUE(SameBits(FromBits(0xFFF8000000000000ull), out));
}

TEST_P(RoundingTest, DigitsMatchReferenceBitForBit) {
  std::vector<int32_t> digits;
  for (int32_t d = -20; d <= 20; ++d) digits.push_back(d);
  for (int32_t d : {-400, -309, -308, -307, -300, 300, 307, 308, 309, 320, 400, 2147483647, -2147483647 - 1}) {
    digits.push_back(d);
  }
  for (int32_t d : digits) {
    for (size_t n : {0, 1, 3, 7, 8, 9, 17, 300}) {
      const std::vector<double> xs = MakeDoubles(n, n + static_cast<uint64_t>(d) * 131);
      std::vector<double> want(n + 1, 7.0), got(n + 1, 7.0);
      reference::RoundFloat64Digits(xs.data(), n, d, want.data());
      RoundFloat64Digits(xs.data(), n, d, got.data());
      for (size_t i = 0; i <= n; ++i) {
        ASSERT_TRUE(SameBits(want[i], got[i])) << "digits " << d << " n=" << n << " row " << i
                                               << " x=" << (i < n ? xs[i] : 0.0);
      }
    }
  }
}

TEST_P(RoundingTest, DigitsKnownValues) {
  const double xs[] = {1.005, 2.675, -2.675, 123.456, 1e300, -1e300, 5.5, 1234.5};
  double out[8];
  RoundFloat64Digits(xs, 8, 2, out);
  EXPECT_EQ(123.46, out[3]);
  EXPECT_EQ(1e300, out[4]);  // x * 100 finite; stays
  RoundFloat64Digits(xs, 8, -2, out);
  EXPECT_EQ(100.0, out[3]);
  EXPECT_EQ(1200.0, out[7]);
  RoundFloat64Digits(xs, 8, -400, out);
  for (double v : out) EXPECT_TRUE(SameBits(0.0, v));  // 10^400 is inf: every row 0
  RoundFloat64Digits(xs, 8, 400, out);
  for (size_t i = 0; i < 8; ++i) EXPECT_TRUE(SameBits(xs[i], out[i]));  // x itself
}

TEST_P(RoundingTest, SignMatchesReference) {
  for (size_t n : Sizes()) {
    const std::vector<double> xs = MakeDoubles(n, n + 3);
    std::vector<int8_t> want(n + 1, 7), got(n + 1, 7);
    reference::SignFloat64(xs.data(), n, want.data());
    SignFloat64(xs.data(), n, got.data());
    for (size_t i = 0; i <= n; ++i) ASSERT_EQ(want[i], got[i]) << "n=" << n << " row " << i;
  }
  const double xs[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                       -std::numeric_limits<double>::infinity(), 1e-320, -1e-320, 5.0};
  const int8_t want[] = {0, 0, 0, 0, -1, 1, -1, 1};
  int8_t got[8];
  SignFloat64(xs, 8, got);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(want[i], got[i]) << xs[i];
}

}  // namespace
}  // namespace laneql
