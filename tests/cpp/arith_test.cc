// Arithmetic kernels against their scalar references, on every compiled target: every operator
// and operand shape (column op column, column op constant, constant op column), sizes around
// every vector width, unaligned starts, and values that stress the NaN rule and IEEE rounding
// (NaN of both signs and with payloads, signalling NaN, ±0, ±inf, subnormals, the extremes).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/arith.h"
#include "target_param.h"

namespace laneql {
namespace {

// Sizes: empty, every tail below a 64-byte vector of any lane width, around 64, and large.
std::vector<size_t> Sizes() {
  std::vector<size_t> sizes;
  for (size_t n = 0; n <= 70; ++n) sizes.push_back(n);
  for (size_t n : {127, 128, 129, 255, 1000, 4097}) sizes.push_back(n);
  return sizes;
}

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

template <typename T>
T FromBits(Bits<T> bits) {
  T v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

template <typename T>
::testing::AssertionResult SameBits(T want, T got) {
  if (std::memcmp(&want, &got, sizeof(T)) == 0) return ::testing::AssertionSuccess();
  Bits<T> w, g;
  std::memcpy(&w, &want, sizeof w);
  std::memcpy(&g, &got, sizeof g);
  return ::testing::AssertionFailure() << "want " << want << " (0x" << std::hex << w << "), got " << got
                                       << " (0x" << g << ")";
}

// Values where IEEE and the NaN rule have something to say.
template <typename T>
std::vector<T> SpecialFloats() {
  using L = std::numeric_limits<T>;
  using U = Bits<T>;
  const U quiet = U{1} << (L::digits - 2);
  const U exponent = sizeof(T) == 8 ? U(0x7FF0000000000000ull) : U(0x7F800000u);
  const U sign = U{1} << (sizeof(T) * 8 - 1);
  return {T(0), -T(0), T(1), T(-1), T(0.5), T(3), L::infinity(), -L::infinity(), L::quiet_NaN(),
          -L::quiet_NaN(),
          FromBits<T>(exponent | quiet | 0x1234),         // quiet NaN with a payload
          FromBits<T>(sign | exponent | quiet | 0x55),    // negative, with a payload
          FromBits<T>(exponent | 1),                      // signalling NaN
          FromBits<T>(sign | exponent | (quiet >> 1)),    // negative signalling NaN
          L::max(), L::lowest(), L::min(), -L::min(), L::denorm_min(), -L::denorm_min(), L::epsilon()};
}

// Random values over the whole exponent range, with specials mixed in (a quarter of rows).
template <typename T>
std::vector<T> MakeFloats(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<T> specials = SpecialFloats<T>();
  const int max_exp = std::numeric_limits<T>::max_exponent;
  std::vector<T> v(n);
  for (T& x : v) {
    if (rng() % 4 == 0) {
      x = specials[rng() % specials.size()];
    } else {
      x = std::ldexp(std::uniform_real_distribution<T>(T(0.5), T(1))(rng),
                     static_cast<int>(rng() % (2 * max_exp)) - max_exp) *
          ((rng() & 1) ? T(1) : T(-1));
    }
  }
  return v;
}

LANEQL_PER_TARGET_SUITE(FloatArithmeticTest);

template <typename T>
void CheckAllShapes() {
  for (FloatOp op : {FloatOp::kAdd, FloatOp::kSubtract, FloatOp::kMultiply, FloatOp::kDivide}) {
    for (size_t n : Sizes()) {
      for (size_t offset : {0, 1}) {
        const std::vector<T> xs = MakeFloats<T>(n + offset + 1, n * 7 + offset);
        const std::vector<T> ys = MakeFloats<T>(n + offset + 1, n * 13 + offset + 1000);
        for (int shape = 0; shape < 4; ++shape) {
          const bool xc = shape & 1, yc = shape & 2;
          std::vector<T> want(n + 1, T(7)), got(n + 1, T(7));
          reference::FloatArithmetic(op, xs.data() + offset, xc, ys.data() + offset, yc, n, want.data());
          FloatArithmetic(op, xs.data() + offset, xc, ys.data() + offset, yc, n, got.data());
          for (size_t i = 0; i <= n; ++i) {  // and the slot past the end untouched
            ASSERT_TRUE(SameBits(want[i], got[i]))
                << "op " << static_cast<int>(op) << " n=" << n << " offset=" << offset << " shape=" << shape
                << " row " << i << ": " << xs[offset + (xc ? 0 : i)] << ", " << ys[offset + (yc ? 0 : i)];
          }
        }
      }
    }
  }
}

TEST_P(FloatArithmeticTest, Float64MatchesReferenceBitForBit) { CheckAllShapes<double>(); }
TEST_P(FloatArithmeticTest, Float32MatchesReferenceBitForBit) { CheckAllShapes<float>(); }

// Every pair of special values, as a column against a column and against each as a constant.
template <typename T>
void CheckSpecialPairs() {
  const std::vector<T> s = SpecialFloats<T>();
  std::vector<T> xs, ys;
  for (T a : s) {
    for (T b : s) {
      xs.push_back(a);
      ys.push_back(b);
    }
  }
  const size_t n = xs.size();
  for (FloatOp op : {FloatOp::kAdd, FloatOp::kSubtract, FloatOp::kMultiply, FloatOp::kDivide}) {
    std::vector<T> want(n), got(n);
    reference::FloatArithmetic(op, xs.data(), false, ys.data(), false, n, want.data());
    FloatArithmetic(op, xs.data(), false, ys.data(), false, n, got.data());
    for (size_t i = 0; i < n; ++i) ASSERT_TRUE(SameBits(want[i], got[i])) << xs[i] << " op " << ys[i];
    for (size_t k = 0; k < s.size(); ++k) {
      reference::FloatArithmetic(op, &s[k], true, s.data(), false, s.size(), want.data());
      FloatArithmetic(op, &s[k], true, s.data(), false, s.size(), got.data());
      for (size_t i = 0; i < s.size(); ++i) ASSERT_TRUE(SameBits(want[i], got[i])) << s[k] << " op " << s[i];
      reference::FloatArithmetic(op, s.data(), false, &s[k], true, s.size(), want.data());
      FloatArithmetic(op, s.data(), false, &s[k], true, s.size(), got.data());
      for (size_t i = 0; i < s.size(); ++i) ASSERT_TRUE(SameBits(want[i], got[i])) << s[i] << " op " << s[k];
    }
  }
}

TEST_P(FloatArithmeticTest, Float64SpecialPairs) { CheckSpecialPairs<double>(); }
TEST_P(FloatArithmeticTest, Float32SpecialPairs) { CheckSpecialPairs<float>(); }

// The rule itself, spelled out (checks the reference too).
TEST_P(FloatArithmeticTest, NaNRule) {
  const double inf = std::numeric_limits<double>::infinity();
  const double payload = FromBits<double>(0xFFF8000000000ABCull);   // negative quiet, payload
  const double signalling = FromBits<double>(0x7FF0000000000001ull);
  const double xs[] = {0.0, inf, payload, 1.0, signalling, payload};
  const double ys[] = {0.0, inf, 1.0, signalling, 2.0, signalling};
  const FloatOp ops[] = {FloatOp::kDivide, FloatOp::kSubtract, FloatOp::kAdd, FloatOp::kMultiply, FloatOp::kAdd,
                         FloatOp::kMultiply};
  const uint64_t want[] = {0xFFF8000000000000ull,   // 0/0: x86's default NaN
                           0xFFF8000000000000ull,   // inf-inf
                           0xFFF8000000000ABCull,   // NaN operand as it is
                           0x7FF8000000000001ull,   // signalling y quieted
                           0x7FF8000000000001ull,   // signalling x quieted
                           0xFFF8000000000ABCull};  // x wins over y
  for (size_t k = 0; k < 6; ++k) {
    double got = 0, ref = 0;
    FloatArithmetic(ops[k], &xs[k], false, &ys[k], false, 1, &got);
    reference::FloatArithmetic(ops[k], &xs[k], false, &ys[k], false, 1, &ref);
    EXPECT_TRUE(SameBits(FromBits<double>(want[k]), got)) << "case " << k;
    EXPECT_TRUE(SameBits(FromBits<double>(want[k]), ref)) << "case " << k;
  }
}

}  // namespace
}  // namespace laneql
