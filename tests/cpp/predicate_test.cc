// Predicate kernels (compare / BETWEEN / IN to bitmask) and the mask algebra against their scalar
// references, on every compiled target; plus DuckDB's float order and NULL rules spelled out
// as explicit expectations, so a misconception shared by kernel and reference would still fail.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/bitmask.h"
#include "laneql/predicate.h"
#include "target_param.h"

namespace laneql {
namespace {

// Sizes around every boundary: vector widths (1..64 lanes), the 64-row word, tails, large.
const std::vector<size_t> kSizes = {0,   1,   2,   3,    7,    8,    9,    15,   16,    17,
                                    31,  32,  33,  63,   64,   65,   127,  128,  129,   1000,
                                    4095, 4096, 4097, 100003};
// From kMediumSize rows on, fewer offsets and NULL modes; above kLargeSize, fewer still (the
// reference is slow and the small sizes already cover every lane and tail position).
constexpr size_t kMediumSize = 1000;
constexpr size_t kLargeSize = 5000;
constexpr uint64_t kCanary = 0xA5A5A5A5A5A5A5A5ull;

const CompareOp kOps[] = {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt,
                          CompareOp::kLe, CompareOp::kGt, CompareOp::kGe};

const char* OpName(CompareOp op) {
  static const char* names[] = {"=", "<>", "<", "<=", ">", ">="};
  return names[static_cast<int>(op)];
}

template <typename T>
struct TypeTag {
  using type = T;
};

template <class Fn>
void ForEachType(const Fn& fn) {
  fn(TypeTag<int8_t>()), fn(TypeTag<int16_t>()), fn(TypeTag<int32_t>()), fn(TypeTag<int64_t>());
  fn(TypeTag<uint8_t>()), fn(TypeTag<uint16_t>()), fn(TypeTag<uint32_t>());
  fn(TypeTag<uint64_t>()), fn(TypeTag<float>()), fn(TypeTag<double>());
}

template <typename T>
std::string TypeName() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  return std::string(std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
}

// The values where comparisons turn: the type's extremes, zero, and for floats ±0, ±inf,
// denormals and NaNs of both signs (DuckDB treats every NaN alike).
template <typename T>
std::vector<T> SpecialValues() {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>) {
    const T nan = L::quiet_NaN();
    return {-L::infinity(), L::lowest(), T(-1.5),         T(-0.0),          T(0.0),
            L::denorm_min(), -L::denorm_min(), T(1.5),    L::max(),         L::infinity(),
            nan,            std::copysign(nan, T(-1)), T(2.0)};
  } else if constexpr (std::is_signed_v<T>) {
    return {L::min(), T(L::min() + 1), T(-2), T(-1), T(0), T(1), T(2), T(L::max() - 1), L::max()};
  } else {
    return {T(0), T(1), T(2), T(L::max() / 2), T(L::max() / 2 + 1), T(L::max() - 1), L::max()};
  }
}

// Mostly small values (so equality with the constants hits often), special values, and values
// from the whole range.
template <typename T>
std::vector<T> MakeColumn(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<T> specials = SpecialValues<T>();
  std::vector<T> v(n);
  for (T& x : v) {
    switch (rng() % 4) {
      case 0:
        x = specials[rng() % specials.size()];
        break;
      case 1:
        x = static_cast<T>(static_cast<int>(rng() % 5) - (std::is_signed_v<T> ? 2 : 0));
        break;
      default:
        if constexpr (std::is_floating_point_v<T>) {
          x = static_cast<T>(std::uniform_real_distribution<double>(-4.0, 4.0)(rng));
        } else {
          x = static_cast<T>(rng());
        }
    }
  }
  return v;
}

enum class Nulls { kNone, kSome, kAll, kNoneButGiven };
const Nulls kNullModes[] = {Nulls::kNone, Nulls::kSome, Nulls::kAll, Nulls::kNoneButGiven};

// A validity bitmap (empty vector = nullptr) with bits past n at 0, as bitmask.h requires.
std::vector<uint64_t> MakeValidity(Nulls mode, size_t n, uint64_t seed) {
  if (mode == Nulls::kNone) return {};
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(BitmaskWords(n), 0);
  for (size_t i = 0; i < n; ++i) {
    const bool valid = mode == Nulls::kNoneButGiven || (mode == Nulls::kSome && rng() % 4 != 0);
    if (valid) BitmaskSet(v.data(), i);
  }
  return v;
}

const uint64_t* OrNull(const std::vector<uint64_t>& v) { return v.empty() ? nullptr : v.data(); }

// Runs `kernel` into a buffer with canary words after the mask and checks that exactly the
// mask's words were written, equal to `want`, first difference reported by row.
template <class Kernel>
::testing::AssertionResult MaskMatches(const std::vector<uint64_t>& want, size_t rows,
                                       const Kernel& kernel) {
  std::vector<uint64_t> got(want.size() + 2, kCanary);
  kernel(got.data());
  for (size_t w = 0; w < want.size(); ++w) {
    if (got[w] != want[w]) {
      const uint64_t diff = got[w] ^ want[w];
      const size_t row = w * 64 + static_cast<size_t>(__builtin_ctzll(diff));
      return ::testing::AssertionFailure()
             << "row " << row << " of " << rows << ": want " << ((want[w] >> (row % 64)) & 1)
             << ", got " << ((got[w] >> (row % 64)) & 1);
    }
  }
  if (got[want.size()] != kCanary || got[want.size() + 1] != kCanary) {
    return ::testing::AssertionFailure() << "wrote past the mask's " << want.size() << " words";
  }
  return ::testing::AssertionSuccess();
}

// Fixes the input pointer offset (unaligned starts) and the validity for a (type, size) pair.
template <typename T>
struct Case {
  std::vector<T> buffer;
  const T* column;
  std::vector<uint64_t> validity;
};

template <typename T>
Case<T> MakeCase(size_t n, size_t offset, Nulls nulls, uint64_t seed) {
  Case<T> c;
  c.buffer = MakeColumn<T>(n + offset, seed);
  c.column = c.buffer.data() + offset;
  c.validity = MakeValidity(nulls, n, seed ^ 0x5555);
  return c;
}

// The constants to compare against: all specials plus a value taken from the column.
template <typename T>
std::vector<T> ConstantsFor(const Case<T>& c, size_t n) {
  std::vector<T> constants = SpecialValues<T>();
  if (n != 0) constants.push_back(c.column[n / 2]);
  return constants;
}

LANEQL_PER_TARGET_SUITE(PredicateTest);

TEST_P(PredicateTest, CompareMatchesReference) {
  ForEachType([&](auto tag) {
    using T = typename decltype(tag)::type;
    // Guards the test: each operator must both select and reject rows somewhere.
    size_t selected[6] = {}, rejected[6] = {};
    for (size_t n : kSizes) {
      const bool medium = n >= kMediumSize, large = n > kLargeSize;
      for (size_t offset = 0; offset < 4; ++offset) {
        if ((medium && offset % 3 != 0) || (large && offset != 3)) continue;
        for (Nulls nulls : kNullModes) {
          if ((medium && nulls != Nulls::kNone && nulls != Nulls::kSome) ||
              (large && nulls != Nulls::kSome)) {
            continue;
          }
          const Case<T> c = MakeCase<T>(n, offset, nulls, n * 131 + offset * 7 + sizeof(T));
          const std::vector<T> constants = ConstantsFor(c, n);
          for (size_t k = 0; k < constants.size(); ++k) {
            if (large && k % 2 != 0) continue;
            const T constant = constants[k];
            for (CompareOp op : kOps) {
              std::vector<uint64_t> want(BitmaskWords(n));
              reference::CompareToMask(c.column, n, op, constant, OrNull(c.validity),
                                       want.data());
              const size_t count = reference::CountBits(want.data(), n);
              selected[static_cast<int>(op)] += count;
              rejected[static_cast<int>(op)] += n - count;
              EXPECT_TRUE(MaskMatches(want, n, [&](uint64_t* out) {
                CompareToMask(c.column, n, op, constant, OrNull(c.validity), out);
              })) << TypeName<T>() << " x " << OpName(op) << " " << +constant << ", n=" << n
                  << " offset=" << offset << " nulls=" << static_cast<int>(nulls);
            }
          }
        }
      }
    }
    for (int op = 0; op < 6; ++op) {
      EXPECT_GT(selected[op], 0u) << TypeName<T>() << " " << OpName(kOps[op]);
      EXPECT_GT(rejected[op], 0u) << TypeName<T>() << " " << OpName(kOps[op]);
    }
  });
}

TEST_P(PredicateTest, CompareColumnsMatchesReference) {
  ForEachType([&](auto tag) {
    using T = typename decltype(tag)::type;
    size_t selected[6] = {}, rejected[6] = {};
    for (size_t n : kSizes) {
      const bool medium = n >= kMediumSize;
      for (size_t offset = 0; offset < 3; ++offset) {
        if (medium && offset != 1) continue;
        for (Nulls nulls : kNullModes) {
          if (medium && nulls != Nulls::kSome) continue;
          // Two columns from the same value mix (specials, small values, any value): equal,
          // NaN-against-NaN and ±0 pairs are frequent.
          const Case<T> a = MakeCase<T>(n, offset, nulls, n * 17 + offset + sizeof(T));
          const Case<T> b = MakeCase<T>(n, 2 - offset, offset == 1 ? Nulls::kSome : Nulls::kNone,
                                        n * 29 + offset + 3 * sizeof(T));
          for (CompareOp op : kOps) {
            std::vector<uint64_t> want(BitmaskWords(n));
            reference::CompareColumnsToMask(a.column, b.column, n, op, OrNull(a.validity), OrNull(b.validity),
                                            want.data());
            const size_t count = reference::CountBits(want.data(), n);
            selected[static_cast<int>(op)] += count;
            rejected[static_cast<int>(op)] += n - count;
            EXPECT_TRUE(MaskMatches(want, n, [&](uint64_t* out) {
              CompareColumnsToMask(a.column, b.column, n, op, OrNull(a.validity), OrNull(b.validity), out);
            })) << TypeName<T>() << " a " << OpName(op) << " b, n=" << n << " offset=" << offset
                << " nulls=" << static_cast<int>(nulls);
          }
        }
      }
    }
    for (int op = 0; op < 6; ++op) {
      EXPECT_GT(selected[op], 0u) << TypeName<T>() << " " << OpName(kOps[op]);
      EXPECT_GT(rejected[op], 0u) << TypeName<T>() << " " << OpName(kOps[op]);
    }
  });
}

// DuckDB's float order between two columns, spelled out: NaN = NaN, NaN above +inf, -0 = +0.
TEST_P(PredicateTest, CompareColumnsFloatOrderIsDuckDBs) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<double> a = {nan, nan, inf, -0.0, 1.0, -nan, 2.0};
  const std::vector<double> b = {nan, inf, nan, 0.0, nan, 1.0, 2.0};
  auto bits = [&](CompareOp op) {
    uint64_t out[1];
    CompareColumnsToMask(a.data(), b.data(), a.size(), op, nullptr, nullptr, out);
    return out[0];
  };
  // rows:                         6543210
  EXPECT_EQ(bits(CompareOp::kEq), 0b1001001u);
  EXPECT_EQ(bits(CompareOp::kNe), 0b0110110u);
  EXPECT_EQ(bits(CompareOp::kLt), 0b0010100u);
  EXPECT_EQ(bits(CompareOp::kLe), 0b1011101u);
  EXPECT_EQ(bits(CompareOp::kGt), 0b0100010u);
  EXPECT_EQ(bits(CompareOp::kGe), 0b1101011u);
}

TEST_P(PredicateTest, BetweenMatchesReference) {
  ForEachType([&](auto tag) {
    using T = typename decltype(tag)::type;
    size_t selected = 0, rejected = 0;
    for (size_t n : kSizes) {
      const bool medium = n >= kMediumSize, large = n > kLargeSize;
      for (size_t offset : {0, 3}) {
        for (Nulls nulls : {Nulls::kNone, Nulls::kSome}) {
          if (large && (offset != 3 || nulls != Nulls::kSome)) continue;
          const Case<T> c = MakeCase<T>(n, offset, nulls, n * 17 + offset + sizeof(T));
          const std::vector<T> bounds = ConstantsFor(c, n);
          // Every ordered pair of bounds (lo > hi included), fewer for large columns.
          for (size_t i = 0; i < bounds.size(); ++i) {
            for (size_t j = 0; j < bounds.size(); ++j) {
              if ((large && (i + j) % 7 != 0) || (medium && (i + j) % 3 != 0)) continue;
              const T lo = bounds[i], hi = bounds[j];
              std::vector<uint64_t> want(BitmaskWords(n));
              reference::BetweenToMask(c.column, n, lo, hi, OrNull(c.validity), want.data());
              const size_t count = reference::CountBits(want.data(), n);
              selected += count;
              rejected += n - count;
              EXPECT_TRUE(MaskMatches(want, n, [&](uint64_t* out) {
                BetweenToMask(c.column, n, lo, hi, OrNull(c.validity), out);
              })) << TypeName<T>() << " BETWEEN " << +lo << " AND " << +hi << ", n=" << n
                  << " offset=" << offset;
            }
          }
        }
      }
    }
    EXPECT_GT(selected, 0u) << TypeName<T>();
    EXPECT_GT(rejected, 0u) << TypeName<T>();
  });
}

TEST_P(PredicateTest, InListMatchesReference) {
  // List lengths on both sides of kInListSimdMax (the scalar fallback) and of 1.
  const std::vector<size_t> lengths = {0, 1, 2, 3, 5, 8, 15, 16, 17, 20, 40};
  static_assert(kInListSimdMax == 16, "update the list lengths");
  ForEachType([&](auto tag) {
    using T = typename decltype(tag)::type;
    size_t selected = 0, rejected = 0;
    for (size_t n : kSizes) {
      const bool large = n > kLargeSize;
      for (size_t offset : {0, 1}) {
        for (Nulls nulls : {Nulls::kNone, Nulls::kSome}) {
          if (large && (offset != 1 || nulls != Nulls::kSome)) continue;
          const Case<T> c = MakeCase<T>(n, offset, nulls, n * 23 + offset + sizeof(T));
          for (size_t length : lengths) {
            // Constants like the column's values (duplicates, NaN, ±0 included).
            const std::vector<T> list = MakeColumn<T>(length, n * 1000 + length);
            std::vector<uint64_t> want(BitmaskWords(n));
            reference::InListToMask(c.column, n, list.data(), length, OrNull(c.validity),
                                    want.data());
            const size_t count = reference::CountBits(want.data(), n);
            selected += count;
            rejected += n - count;
            EXPECT_TRUE(MaskMatches(want, n, [&](uint64_t* out) {
              InListToMask(c.column, n, list.data(), length, OrNull(c.validity), out);
            })) << TypeName<T>() << " IN list of " << length << ", n=" << n
                << " offset=" << offset;
          }
        }
      }
    }
    EXPECT_GT(selected, 0u) << TypeName<T>();
    EXPECT_GT(rejected, 0u) << TypeName<T>();
  });
}

// Each operator and its negation (= / <>, < / >=, <= / >) split the non-null rows exactly in two
// and select no NULL row: a total order plus SQL's NULL rule, checked without the reference.
TEST_P(PredicateTest, OperatorsPartitionNonNullRows) {
  const std::pair<CompareOp, CompareOp> pairs[] = {{CompareOp::kEq, CompareOp::kNe},
                                                   {CompareOp::kLt, CompareOp::kGe},
                                                   {CompareOp::kLe, CompareOp::kGt}};
  ForEachType([&](auto tag) {
    using T = typename decltype(tag)::type;
    for (size_t n : {size_t{1}, size_t{63}, size_t{200}, size_t{4097}}) {
      const Case<T> c = MakeCase<T>(n, 2, Nulls::kSome, n + 99);
      for (T constant : ConstantsFor(c, n)) {
        for (const auto& [op, negation] : pairs) {
          std::vector<uint64_t> a(BitmaskWords(n)), b(BitmaskWords(n));
          CompareToMask(c.column, n, op, constant, c.validity.data(), a.data());
          CompareToMask(c.column, n, negation, constant, c.validity.data(), b.data());
          for (size_t w = 0; w < a.size(); ++w) {
            ASSERT_EQ(0u, a[w] & b[w]) << TypeName<T>() << " " << OpName(op) << " " << +constant;
            ASSERT_EQ(c.validity[w], a[w] | b[w])
                << TypeName<T>() << " " << OpName(op) << " " << +constant << " word " << w;
          }
        }
      }
    }
  });
}

// The integer extremes as constants: the comparisons that must select all or nothing.
TEST_P(PredicateTest, IntegerExtremeConstants) {
  ForEachType([&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      const T min = std::numeric_limits<T>::min(), max = std::numeric_limits<T>::max();
      const size_t n = 131;
      const std::vector<T> x = MakeColumn<T>(n, 5);
      std::vector<uint64_t> none(BitmaskWords(n), 0), all(BitmaskWords(n), ~uint64_t{0});
      all.back() &= BitmaskTailMask(n);
      auto compare = [&](CompareOp op, T constant) {
        return [&, op, constant](uint64_t* out) {
          CompareToMask(x.data(), n, op, constant, nullptr, out);
        };
      };
      EXPECT_TRUE(MaskMatches(none, n, compare(CompareOp::kLt, min))) << TypeName<T>();
      EXPECT_TRUE(MaskMatches(all, n, compare(CompareOp::kGe, min))) << TypeName<T>();
      EXPECT_TRUE(MaskMatches(all, n, compare(CompareOp::kLe, max))) << TypeName<T>();
      EXPECT_TRUE(MaskMatches(none, n, compare(CompareOp::kGt, max))) << TypeName<T>();
      EXPECT_TRUE(MaskMatches(all, n, [&](uint64_t* out) {
        BetweenToMask(x.data(), n, min, max, nullptr, out);
      })) << TypeName<T>();
    }
  });
}

// DuckDB's float order, written out: NaN = NaN, NaN above +inf, -0.0 = +0.0.
template <typename T>
void CheckFloatOrder() {
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const T neg_nan = std::copysign(nan, T(-1));
  // The interesting values, placed after `pad` rows of 3.0 to land in every lane and word.
  const std::vector<T> values = {nan, -inf, T(-0.0), T(0.0), T(1.0), inf, neg_nan, T(-1.0)};
  enum : uint64_t {  // bit k = values[k]
    kNaN = 0x41, kNegInf = 0x02, kZeros = 0x0C, kOne = 0x10, kInf = 0x20, kMinusOne = 0x80,
    kAll = 0xFF
  };
  for (size_t pad : {size_t{0}, size_t{5}, size_t{61}, size_t{130}}) {
    std::vector<T> x(pad, T(3.0));
    x.insert(x.end(), values.begin(), values.end());
    const size_t n = x.size();
    // The bits of the eight values (the padding's answer is the same for all of them: pad_hit).
    auto check = [&](uint64_t want, bool pad_hit, auto kernel, const char* what) {
      std::vector<uint64_t> expected(BitmaskWords(n), 0);
      for (size_t i = 0; i < n; ++i) {
        const bool hit = i < pad ? pad_hit : ((want >> (i - pad)) & 1) != 0;
        if (hit) BitmaskSet(expected.data(), i);
      }
      EXPECT_TRUE(MaskMatches(expected, n, kernel)) << TypeName<T>() << " " << what
                                                   << " pad=" << pad;
    };
    auto cmp = [&](CompareOp op, T c) {
      return [&, op, c](uint64_t* out) { CompareToMask(x.data(), n, op, c, nullptr, out); };
    };
    auto between = [&](T lo, T hi) {
      return [&, lo, hi](uint64_t* out) { BetweenToMask(x.data(), n, lo, hi, nullptr, out); };
    };
    auto in = [&](std::vector<T> list) {
      return [&, list](uint64_t* out) {
        InListToMask(x.data(), n, list.data(), list.size(), nullptr, out);
      };
    };
    check(kNaN, false, cmp(CompareOp::kEq, nan), "x = NaN");
    check(kNaN, false, cmp(CompareOp::kEq, neg_nan), "x = -NaN");
    check(kAll & ~kNaN, true, cmp(CompareOp::kNe, nan), "x <> NaN");
    check(kAll & ~kNaN, true, cmp(CompareOp::kLt, nan), "x < NaN");
    check(kAll, true, cmp(CompareOp::kLe, nan), "x <= NaN");
    check(0, false, cmp(CompareOp::kGt, nan), "x > NaN");
    check(kNaN, false, cmp(CompareOp::kGe, nan), "x >= NaN");
    check(kNaN, false, cmp(CompareOp::kGt, inf), "x > inf");
    check(kNaN | kInf, false, cmp(CompareOp::kGe, inf), "x >= inf");
    check(kAll & ~kNaN & ~kInf, true, cmp(CompareOp::kLt, inf), "x < inf");
    check(kAll & ~kNegInf, true, cmp(CompareOp::kGt, -inf), "x > -inf");
    check(kZeros, false, cmp(CompareOp::kEq, T(-0.0)), "x = -0.0");
    check(kZeros, false, cmp(CompareOp::kEq, T(0.0)), "x = +0.0");
    check(kNegInf | kMinusOne, false, cmp(CompareOp::kLt, T(0.0)), "x < +0.0");
    check(kNegInf | kMinusOne | kZeros, false, cmp(CompareOp::kLe, T(-0.0)), "x <= -0.0");
    check(kAll & ~kOne, true, cmp(CompareOp::kNe, T(1.0)), "x <> 1");
    check(kNaN | kInf, true, cmp(CompareOp::kGt, T(1.0)), "x > 1");
    check(kNaN | kInf | kOne, true, between(T(1.0), nan), "x BETWEEN 1 AND NaN");
    check(kNaN, false, between(nan, nan), "x BETWEEN NaN AND NaN");
    check(0, false, between(nan, T(1.0)), "x BETWEEN NaN AND 1");
    check(kAll & ~kNaN, true, between(-inf, inf), "x BETWEEN -inf AND inf");
    check(kZeros, false, between(T(0.0), T(-0.0)), "x BETWEEN 0.0 AND -0.0");
    check(kZeros | kOne, false, between(T(-0.0), T(1.0)), "x BETWEEN -0.0 AND 1");
    check(kNaN, false, in({nan}), "x IN (NaN)");
    check(kZeros | kOne | kNaN, false, in({T(1.0), neg_nan, T(-0.0)}), "x IN (1, -NaN, -0.0)");
    check(kInf | kNegInf, true, in({inf, T(3.0), -inf}), "x IN (inf, 3, -inf)");
    std::vector<T> long_list(20, T(7.0));  // the scalar fallback, with NaN and -0.0
    long_list[3] = nan;
    long_list[11] = T(-0.0);
    check(kNaN | kZeros, false, in(long_list), "x IN (20 constants with NaN, -0.0)");
  }
}

TEST_P(PredicateTest, FloatOrderIsDuckDBs) {
  CheckFloatOrder<float>();
  CheckFloatOrder<double>();
}

TEST_P(PredicateTest, NullRowsAreNeverSelected) {
  ForEachType([&](auto tag) {
    using T = typename decltype(tag)::type;
    const size_t n = 1000;
    const std::vector<T> x = MakeColumn<T>(n, 77);
    const std::vector<uint64_t> all_null(BitmaskWords(n), 0);
    std::vector<uint64_t> none(BitmaskWords(n), 0);
    for (T constant : SpecialValues<T>()) {
      for (CompareOp op : kOps) {
        EXPECT_TRUE(MaskMatches(none, n, [&](uint64_t* out) {
          CompareToMask(x.data(), n, op, constant, all_null.data(), out);
        })) << TypeName<T>() << " " << OpName(op);
      }
      EXPECT_TRUE(MaskMatches(none, n, [&](uint64_t* out) {
        BetweenToMask(x.data(), n, constant, constant, all_null.data(), out);
      })) << TypeName<T>();
      EXPECT_TRUE(MaskMatches(none, n, [&](uint64_t* out) {
        InListToMask(x.data(), n, &constant, 1, all_null.data(), out);
      })) << TypeName<T>();
    }
  });
}

// ------------------------------ mask algebra

// A mask with about density/64 of its bits set per word; modes mix sparse and dense words so
// MaskToIndices takes both of its paths in one mask. Bits past n are 0 unless `stray_tail`.
std::vector<uint64_t> MakeMask(size_t n, int density, uint64_t seed, bool stray_tail = false) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> m(BitmaskWords(n), 0);
  for (size_t w = 0; w < m.size(); ++w) {
    // density < 0: each word picks its own density, from empty to full.
    const int d = density >= 0 ? density : static_cast<int>(rng() % 66) - 1;
    for (int b = 0; b < 64; ++b) {
      if (static_cast<int>(rng() % 64) < d) m[w] |= uint64_t{1} << b;
    }
  }
  if (!m.empty() && !stray_tail) m.back() &= BitmaskTailMask(n);
  if (!m.empty() && stray_tail) m.back() |= ~BitmaskTailMask(n);
  return m;
}

const int kDensities[] = {0, 1, 4, 16, 32, 60, 64, -1};

TEST_P(PredicateTest, MaskAlgebraMatchesReference) {
  for (size_t n : kSizes) {
    for (int density : kDensities) {
      for (bool stray : {false, true}) {  // inputs with junk past n: outputs must be clean
        const std::vector<uint64_t> a = MakeMask(n, density, n + density, stray);
        const std::vector<uint64_t> b = MakeMask(n, 32, n * 3 + 1, stray);
        const std::vector<uint64_t> validity = MakeMask(n, 48, n * 5 + 2);
        using Binary = void (*)(const uint64_t*, const uint64_t*, size_t, uint64_t*);
        const std::pair<Binary, Binary> binaries[] = {
            {&MaskAnd, &reference::MaskAnd},
            {&MaskOr, &reference::MaskOr},
            {&MaskAndNot, &reference::MaskAndNot}};
        for (size_t k = 0; k < 3; ++k) {
          const Binary kernel = binaries[k].first, ref = binaries[k].second;
          std::vector<uint64_t> want(BitmaskWords(n));
          ref(a.data(), b.data(), n, want.data());
          EXPECT_TRUE(MaskMatches(want, n, [&](uint64_t* out) { kernel(a.data(), b.data(), n, out); }))
              << "binary op " << k << " n=" << n << " density=" << density;
          // In place, into either operand.
          std::vector<uint64_t> in_a = a, in_b = b;
          kernel(in_a.data(), b.data(), n, in_a.data());
          kernel(a.data(), in_b.data(), n, in_b.data());
          EXPECT_EQ(want, in_a) << "in place (a) op " << k << " n=" << n;
          EXPECT_EQ(want, in_b) << "in place (b) op " << k << " n=" << n;
        }
        for (const std::vector<uint64_t>* valid : {static_cast<const std::vector<uint64_t>*>(nullptr), &validity}) {
          const uint64_t* v = valid == nullptr ? nullptr : valid->data();
          std::vector<uint64_t> want(BitmaskWords(n));
          reference::MaskNot(a.data(), n, v, want.data());
          EXPECT_TRUE(MaskMatches(want, n, [&](uint64_t* out) { MaskNot(a.data(), n, v, out); }))
              << "not, n=" << n << " density=" << density << " validity=" << (v != nullptr);
          std::vector<uint64_t> in_place = a;
          MaskNot(in_place.data(), n, v, in_place.data());
          EXPECT_EQ(want, in_place) << "not in place, n=" << n;
        }
        EXPECT_EQ(reference::CountBits(a.data(), n), CountBits(a.data(), n))
            << "n=" << n << " density=" << density;
        EXPECT_EQ(reference::CountBitsAnd(a.data(), b.data(), n), CountBitsAnd(a.data(), b.data(), n))
            << "n=" << n << " density=" << density;
      }
    }
  }
}

// (x & bits) == value against the reference: the owned scan's masks of hash bits 40..47 for 2
// and 4 owners, one bit, all bits, no bits (every row), with and without validity, from
// unaligned starts; and one case worked out by hand.
TEST_P(PredicateTest, MaskedEqualMatchesReference) {
  const std::pair<uint64_t, uint64_t> cases[] = {
      {uint64_t{1} << 40, 0},          {uint64_t{1} << 40, uint64_t{1} << 40},
      {uint64_t{3} << 40, uint64_t{2} << 40}, {~uint64_t{0}, 12345},
      {0, 0},                          {0x8000000000000001ull, 0x8000000000000000ull}};
  for (size_t n : kSizes) {
    for (size_t offset : {size_t{0}, size_t{1}, size_t{3}}) {
      if (n > kLargeSize && offset != 0) continue;
      const Case<uint64_t> c = MakeCase<uint64_t>(n, offset, Nulls::kSome, n * 7 + offset);
      for (const auto& bits_value : cases) {
        // Not a structured binding: clang (Emscripten's) does not let the lambda capture one.
        const uint64_t bits = bits_value.first, value = bits_value.second;
        for (bool with_validity : {false, true}) {
          const uint64_t* v = with_validity ? c.validity.data() : nullptr;
          std::vector<uint64_t> want(BitmaskWords(n));
          reference::MaskedEqualToMask(c.column, n, bits, value, v, want.data());
          EXPECT_TRUE(MaskMatches(want, n, [&](uint64_t* out) {
            MaskedEqualToMask(c.column, n, bits, value, v, out);
          })) << "n=" << n << " offset=" << offset << " bits=" << bits << " value=" << value;
        }
      }
    }
  }
  const uint64_t column[] = {0, uint64_t{1} << 40, uint64_t{3} << 40, uint64_t{2} << 40 | 7, ~uint64_t{0}};
  uint64_t out = 0;
  MaskedEqualToMask(column, 5, uint64_t{3} << 40, uint64_t{2} << 40, nullptr, &out);
  EXPECT_EQ(out, 0b01000u);
  MaskedEqualToMask(column, 5, uint64_t{1} << 40, 0, nullptr, &out);
  EXPECT_EQ(out, 0b01001u);
}

TEST_P(PredicateTest, NotNeverSelectsNullsOrRowsPastTheEnd) {
  for (size_t n : {size_t{1}, size_t{64}, size_t{100}, size_t{4097}}) {
    const std::vector<uint64_t> empty(BitmaskWords(n), 0);
    const std::vector<uint64_t> validity = MakeMask(n, 40, n);
    std::vector<uint64_t> out(BitmaskWords(n));
    MaskNot(empty.data(), n, validity.data(), out.data());
    EXPECT_EQ(validity, out) << "NOT (nothing) = every non-null row, n=" << n;
    MaskNot(empty.data(), n, nullptr, out.data());
    EXPECT_EQ(n, CountBits(out.data(), n));
    EXPECT_EQ(0u, out.back() & ~BitmaskTailMask(n)) << "bits past n, n=" << n;
  }
}

TEST_P(PredicateTest, CountBitsExtremes) {
  for (size_t n : kSizes) {
    const std::vector<uint64_t> full = MakeMask(n, 64, 1);
    const std::vector<uint64_t> full_stray = MakeMask(n, 64, 1, /*stray_tail=*/true);
    EXPECT_EQ(n, CountBits(full.data(), n));
    EXPECT_EQ(n, CountBits(full_stray.data(), n)) << "bits past n must not count";
    EXPECT_EQ(n, CountBitsAnd(full_stray.data(), full_stray.data(), n));
    EXPECT_EQ(0u, CountBits(MakeMask(n, 0, 1).data(), n));
  }
}

TEST_P(PredicateTest, MaskToIndicesMatchesReference) {
  for (size_t n : kSizes) {
    for (int density : kDensities) {
      for (bool stray : {false, true}) {
        const std::vector<uint64_t> m = MakeMask(n, density, n * 7 + density, stray);
        const size_t count = reference::CountBits(m.data(), n);
        std::vector<uint32_t> want(count);
        ASSERT_EQ(count, reference::MaskToIndices(m.data(), n, want.data()));
        // Exactly `count` entries of room, then canaries: nothing may be written past them.
        const uint32_t canary = 0xDEADBEEF;
        std::vector<uint32_t> got(count + 16, canary);
        EXPECT_EQ(count, MaskToIndices(m.data(), n, got.data())) << "n=" << n;
        for (size_t i = 0; i < 16; ++i) {
          ASSERT_EQ(canary, got[count + i]) << "wrote past the end, n=" << n << " d=" << density;
        }
        got.resize(count);
        EXPECT_EQ(want, got) << "n=" << n << " density=" << density << " stray=" << stray;
      }
    }
  }
}

}  // namespace
}  // namespace laneql
