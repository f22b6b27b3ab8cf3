// Arithmetic kernels against their scalar references, on every compiled target: every operator
// and operand shape (column op column, column op constant, constant op column), sizes around
// every vector width, unaligned starts, and values that stress the NaN rule and IEEE rounding
// (NaN of both signs and with payloads, signalling NaN, ±0, ±inf, subnormals, the extremes).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
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


// ------------------------------------------------------------------ checked integer multiply

LANEQL_PER_TARGET_SUITE(MultiplyTest);

// Operands that make products land on both sides of the type's limits: 0, ±1, ±2, the extremes
// and their halves, and the integers around the square root of the extremes.
template <typename T>
std::vector<T> EdgeIntegers() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), T(1), T(2), T(3), L::max(), T(L::max() - 1), T(L::max() / 2), T(L::max() / 2 + 1),
                      L::min(), T(L::min() + 1), T(L::min() / 2)};
  const double root = std::sqrt(static_cast<double>(L::max()));
  for (int d = -2; d <= 2; ++d) v.push_back(static_cast<T>(static_cast<int64_t>(root) + d));
  if constexpr (std::is_signed_v<T>) {
    const size_t count = v.size();
    for (size_t k = 0; k < count; ++k) {
      if (v[k] != L::min()) v.push_back(T(-v[k]));
    }
  }
  return v;
}

enum class IntData { kSmall, kAny, kEdges };

template <typename T>
std::vector<T> MakeIntegers(IntData kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<T> edges = EdgeIntegers<T>();
  // |x| below the square root of the maximum: products never overflow.
  const int64_t small = static_cast<int64_t>(std::sqrt(static_cast<double>(std::numeric_limits<T>::max()))) - 1;
  std::vector<T> v(n);
  for (T& x : v) {
    switch (kind) {
      case IntData::kSmall:
        x = static_cast<T>(static_cast<int64_t>(rng() % (std::is_signed_v<T> ? 2 * small + 1 : small + 1)) -
                           (std::is_signed_v<T> ? small : 0));
        break;
      case IntData::kAny: x = static_cast<T>(rng()); break;
      case IntData::kEdges: x = edges[rng() % edges.size()]; break;
    }
  }
  return v;
}

// A random bitmap with `density` of 4 rows valid (4 = all valid, but as a bitmap).
std::vector<uint64_t> MakeValidity(size_t n, int density, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> bits((n + 63) / 64 + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<int>(rng() % 4) < density) bits[i / 64] |= uint64_t{1} << (i % 64);
  }
  return bits;
}

template <typename T>
void CheckMultiply(const T* x, bool xc, const T* y, bool yc, size_t n, const uint64_t* valid, const std::string& what) {
  std::vector<T> want(n + 1, T(7)), got(n + 1, T(7));
  const bool want_ok = reference::MultiplyWithoutOverflow(x, xc, y, yc, n, valid, want.data());
  const bool got_ok = MultiplyWithoutOverflow(x, xc, y, yc, n, valid, got.data());
  ASSERT_EQ(want_ok, got_ok) << what;
  if (!got_ok) return;  // the products are incomplete then
  for (size_t i = 0; i <= n; ++i) ASSERT_EQ(want[i], got[i]) << what << " row " << i;
}

template <typename T>
void CheckMultiplyRandom() {
  for (IntData kind : {IntData::kSmall, IntData::kAny, IntData::kEdges}) {
    for (size_t n : Sizes()) {
      const std::vector<T> xs = MakeIntegers<T>(kind, n + 2, n * 3 + 1);
      const std::vector<T> ys = MakeIntegers<T>(kind, n + 2, n * 5 + 2);
      for (int density : {-1, 0, 1, 3, 4}) {  // -1: no bitmap
        const std::vector<uint64_t> valid = MakeValidity(n, density, n + 77);
        for (int shape = 0; shape < 4; ++shape) {
          const std::string what = "kind " + std::to_string(static_cast<int>(kind)) + " n=" + std::to_string(n) +
                                   " density " + std::to_string(density) + " shape " + std::to_string(shape);
          CheckMultiply(xs.data() + 1, shape & 1, ys.data() + 1, shape & 2, n, density < 0 ? nullptr : valid.data(),
                        what);
        }
      }
    }
  }
}

// One overflowing row among small ones, at every position of every size: the kernel must see it
// in every lane and in the tail, and not see it once that row is NULL.
template <typename T>
void CheckMultiplyPlanted() {
  const T big = std::numeric_limits<T>::max();
  for (size_t n = 1; n <= 140; ++n) {
    std::vector<T> xs = MakeIntegers<T>(IntData::kSmall, n, n);
    std::vector<T> ys = MakeIntegers<T>(IntData::kSmall, n, n + 1);
    for (size_t at = 0; at < n; ++at) {
      const T saved_x = xs[at], saved_y = ys[at];
      xs[at] = big;
      ys[at] = T(2);
      std::vector<T> out(n);
      EXPECT_FALSE(MultiplyWithoutOverflow(xs.data(), false, ys.data(), false, n, nullptr, out.data()))
          << "n=" << n << " at " << at;
      std::vector<uint64_t> valid = MakeValidity(n, 4, 0);
      valid[at / 64] &= ~(uint64_t{1} << (at % 64));
      EXPECT_TRUE(MultiplyWithoutOverflow(xs.data(), false, ys.data(), false, n, valid.data(), out.data()))
          << "n=" << n << " NULL at " << at;
      xs[at] = saved_x;
      ys[at] = saved_y;
    }
  }
}

TEST_P(MultiplyTest, Int8) { CheckMultiplyRandom<int8_t>(); CheckMultiplyPlanted<int8_t>(); }
TEST_P(MultiplyTest, Int16) { CheckMultiplyRandom<int16_t>(); CheckMultiplyPlanted<int16_t>(); }
TEST_P(MultiplyTest, Int32) { CheckMultiplyRandom<int32_t>(); CheckMultiplyPlanted<int32_t>(); }
TEST_P(MultiplyTest, Int64) { CheckMultiplyRandom<int64_t>(); CheckMultiplyPlanted<int64_t>(); }
TEST_P(MultiplyTest, UInt8) { CheckMultiplyRandom<uint8_t>(); CheckMultiplyPlanted<uint8_t>(); }
TEST_P(MultiplyTest, UInt16) { CheckMultiplyRandom<uint16_t>(); CheckMultiplyPlanted<uint16_t>(); }
TEST_P(MultiplyTest, UInt32) { CheckMultiplyRandom<uint32_t>(); CheckMultiplyPlanted<uint32_t>(); }
TEST_P(MultiplyTest, UInt64) { CheckMultiplyRandom<uint64_t>(); CheckMultiplyPlanted<uint64_t>(); }

// Every pair of 8-bit operands, one row at a time, so each verdict is a row's own.
template <typename T>
void CheckEveryPair() {
  for (int a = std::numeric_limits<T>::min(); a <= std::numeric_limits<T>::max(); ++a) {
    for (int b = std::numeric_limits<T>::min(); b <= std::numeric_limits<T>::max(); ++b) {
      const T x = static_cast<T>(a), y = static_cast<T>(b);
      T got = 0;
      const bool fits = a * b >= std::numeric_limits<T>::min() && a * b <= std::numeric_limits<T>::max();
      ASSERT_EQ(fits, MultiplyWithoutOverflow(&x, false, &y, false, 1, nullptr, &got)) << a << " * " << b;
      if (fits) {
        ASSERT_EQ(a * b, got) << a << " * " << b;
      }
    }
  }
}

TEST_P(MultiplyTest, EveryInt8Pair) { CheckEveryPair<int8_t>(); }
TEST_P(MultiplyTest, EveryUInt8Pair) { CheckEveryPair<uint8_t>(); }

// Every pair of edge values, one row at a time, against the compiler's checked multiply.
template <typename T>
void CheckEdgePairs() {
  for (T x : EdgeIntegers<T>()) {
    for (T y : EdgeIntegers<T>()) {
      T want = 0, got = 0;
      const bool fits = !__builtin_mul_overflow(x, y, &want);
      ASSERT_EQ(fits, MultiplyWithoutOverflow(&x, false, &y, false, 1, nullptr, &got)) << +x << " * " << +y;
      if (fits) {
        ASSERT_EQ(want, got) << +x << " * " << +y;
      }
    }
  }
}

TEST_P(MultiplyTest, EdgePairs) {
  CheckEdgePairs<int16_t>();
  CheckEdgePairs<int32_t>();
  CheckEdgePairs<int64_t>();
  CheckEdgePairs<uint16_t>();
  CheckEdgePairs<uint32_t>();
  CheckEdgePairs<uint64_t>();
}

}  // namespace
}  // namespace laneql
