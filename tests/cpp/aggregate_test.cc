// Aggregate kernels (SUM, MIN, MAX, AVG) against their scalar references and against values
// worked out by hand, on every compiled target, for every element type.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/aggregate.h"
#include "laneql/bitmask.h"
#include "laneql/sum.h"
#include "target_param.h"

namespace laneql {
namespace {

// Calls fn(T{}) for every element type of the family.
template <class Fn>
void ForEachType(const Fn& fn) {
  fn(int8_t{});
  fn(int16_t{});
  fn(int32_t{});
  fn(int64_t{});
  fn(uint8_t{});
  fn(uint16_t{});
  fn(uint32_t{});
  fn(uint64_t{});
  fn(float{});
  fn(double{});
}

template <class T>
std::string TypeName() {
  if constexpr (std::is_floating_point_v<T>) return sizeof(T) == 4 ? "float32" : "float64";
  return std::string(std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
}

std::string Show(Int128 v) { return Int128ToString(v); }
template <class T>
std::string Show(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", static_cast<double>(v));
    return buf;
  } else {
    return std::to_string(v);
  }
}

// Results must agree exactly: integers by value, floats bit for bit (NaN results are canonical,
// so even NaN must match to the bit), and the counts.
template <class V>
::testing::AssertionResult Same(const AggResult<V>& want, const AggResult<V>& got) {
  bool same_value;
  if constexpr (std::is_floating_point_v<V>) {
    same_value = std::memcmp(&want.value, &got.value, sizeof(V)) == 0;
  } else {
    same_value = want.value == got.value;
  }
  if (same_value && want.count == got.count) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "want " << Show(want.value) << " (" << want.count
                                       << " rows), got " << Show(got.value) << " (" << got.count
                                       << " rows)";
}

template <class T>
T FromBits(uint64_t bits) {
  T v;
  if constexpr (sizeof(T) == 4) {
    const uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&v, &b, 4);
  } else {
    std::memcpy(&v, &bits, 8);
  }
  return v;
}

// NaNs of both signs and several payloads: the kernels must treat them all as one NaN.
template <class T>
T SomeNaN(std::mt19937_64& rng) {
  const uint64_t sign = (rng() & 1) ? 1 : 0;
  if constexpr (sizeof(T) == 4) {
    return FromBits<T>((sign << 31) | 0x7F800000u | (1 + rng() % 0x7FFFFF));
  } else {
    return FromBits<T>((sign << 63) | 0x7FF0000000000000ull | (1 + rng() % 0xFFFFFFFFFFFFFull));
  }
}

enum class Data { kUniform, kExtremes, kSmall, kCancellation, kSpecials };

template <class T>
std::vector<T> MakeData(Data kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  using L = std::numeric_limits<T>;
  for (T& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      const double u = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
      switch (kind) {
        case Data::kUniform:
          x = static_cast<T>(u);
          break;
        case Data::kExtremes:  // any magnitude from 2^-60 to 2^60, either sign
          x = static_cast<T>(std::ldexp(u, static_cast<int>(rng() % 121) - 60));
          break;
        case Data::kSmall:  // many equal values: ties in MIN/MAX
          x = static_cast<T>(static_cast<int>(rng() % 7) - 3);
          break;
        case Data::kCancellation:  // huge values that cancel plus small ones: order-sensitive
          x = (rng() % 4 == 0) ? static_cast<T>((rng() & 1) ? 1e16 : -1e16)
                               : static_cast<T>(10 * u);
          break;
        case Data::kSpecials: {
          const T specials[] = {L::infinity(), -L::infinity(), T(0.0), T(-0.0), L::max(),
                                L::lowest(),   L::denorm_min(), -L::denorm_min(), T(1.0)};
          const uint64_t r = rng() % 16;
          x = r < 9 ? specials[r] : (r < 11 ? SomeNaN<T>(rng) : static_cast<T>(u));
          break;
        }
      }
    } else {
      switch (kind) {
        case Data::kUniform:
        case Data::kCancellation:
          x = static_cast<T>(rng());  // the whole range of T
          break;
        case Data::kExtremes:
        case Data::kSpecials: {
          const T specials[] = {L::min(), L::max(), T(0), T(1), static_cast<T>(L::max() - 1),
                                static_cast<T>(L::min() + 1)};
          const uint64_t r = rng() % 8;
          x = r < 6 ? specials[r] : static_cast<T>(rng());
          break;
        }
        case Data::kSmall:
          x = static_cast<T>(rng() % 7);
          break;
      }
    }
  }
  return v;
}

enum class Mask { kNone, kAll, kEmpty, kHalf, kSparse, kWordMix };

// A bitmask for rows [0, n) (bit 0 = data[0]) with exactly BitmaskWords(n) words, so reading past
// it is an ASan error. Bits past row n - 1 are deliberately set: a range may end inside a word of
// a longer column's mask, and the kernels must ignore them.
std::vector<uint64_t> MakeMask(Mask kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> words(BitmaskWords(n));
  for (uint64_t& w : words) {
    switch (kind) {
      case Mask::kNone:
      case Mask::kAll:
        w = ~uint64_t{0};
        break;
      case Mask::kEmpty:
        w = 0;
        break;
      case Mask::kHalf:
        w = rng();
        break;
      case Mask::kSparse:
        w = rng() & rng() & rng() & rng() & rng();  // ~3 % of the bits
        break;
      case Mask::kWordMix: {  // whole words of each kind: the skip and unmasked paths
        const uint64_t r = rng() % 3;
        w = r == 0 ? 0 : (r == 1 ? ~uint64_t{0} : rng());
        break;
      }
    }
  }
  if (!words.empty()) words.back() |= ~BitmaskTailMask(n);
  return words;
}

const uint64_t* MaskPtr(Mask kind, const std::vector<uint64_t>& words) {
  return kind == Mask::kNone ? nullptr : words.data();
}

// Sizes around every boundary the kernels have: vector widths (1..64 lanes), the 16 float
// accumulators, 64-row mask words, 4096-row blocks, plus empty and a large odd size.
const std::vector<size_t> kSizes = {0,   1,   2,   3,    7,    8,    9,    15,   16,   17,
                                    31,  32,  33,  63,   64,   65,   127,  128,  129,  1000,
                                    4095, 4096, 4097, 8209, 100003};

struct MaskPair {
  Mask select, validity;
};
const std::vector<MaskPair> kMaskPairs = {
    {Mask::kNone, Mask::kNone},    {Mask::kAll, Mask::kNone},      {Mask::kEmpty, Mask::kNone},
    {Mask::kHalf, Mask::kNone},    {Mask::kNone, Mask::kHalf},     {Mask::kHalf, Mask::kWordMix},
    {Mask::kWordMix, Mask::kSparse}, {Mask::kAll, Mask::kAll}};

template <class T>
void CheckAgainstReference(const T* x, size_t n, const uint64_t* select, const uint64_t* validity,
                           const std::string& what) {
  EXPECT_TRUE(Same(reference::AggregateSum(x, n, select, validity),
                   AggregateSum(x, n, select, validity)))
      << "SUM " << what;
  EXPECT_TRUE(Same(reference::AggregateMin(x, n, select, validity),
                   AggregateMin(x, n, select, validity)))
      << "MIN " << what;
  EXPECT_TRUE(Same(reference::AggregateMax(x, n, select, validity),
                   AggregateMax(x, n, select, validity)))
      << "MAX " << what;
}

LANEQL_PER_TARGET_SUITE(AggregateTest);

TEST_P(AggregateTest, MatchesReferenceForEveryTypeMaskAndSize) {
  ForEachType([](auto type) {
    using T = decltype(type);
    for (Data kind : {Data::kUniform, Data::kExtremes, Data::kSmall, Data::kCancellation,
                      Data::kSpecials}) {
      for (size_t n : kSizes) {
        // The large size only with the data that has the most to catch, to keep the test fast.
        if (n > 10000 && kind != Data::kCancellation && kind != Data::kSpecials) continue;
        // Unaligned starts: the kernels use unaligned loads and must not care (the large size
        // only unaligned).
        for (size_t offset : {0, 1, 2, 3}) {
          if (n > 10000 && offset != 1) continue;
          const std::vector<T> buf = MakeData<T>(kind, n + offset, n * 131 + offset);
          const T* x = buf.data() + offset;
          for (size_t m = 0; m < kMaskPairs.size(); ++m) {
            const MaskPair& p = kMaskPairs[m];
            const std::vector<uint64_t> select = MakeMask(p.select, n, n + 7 * m);
            const std::vector<uint64_t> validity = MakeMask(p.validity, n, n + 7 * m + 3);
            CheckAgainstReference(x, n, MaskPtr(p.select, select), MaskPtr(p.validity, validity),
                                  TypeName<T>() + " data " + std::to_string(int(kind)) +
                                      " n=" + std::to_string(n) + " offset=" +
                                      std::to_string(offset) + " masks " + std::to_string(m));
          }
        }
      }
    }
  });
}

TEST_P(AggregateTest, NoRowsIsNull) {
  ForEachType([](auto type) {
    using T = decltype(type);
    const std::vector<T> x(300, T(1));
    const std::vector<uint64_t> none(BitmaskWords(300), 0);
    for (const auto& [n, select] : {std::pair<size_t, const uint64_t*>{0, nullptr},
                                    std::pair<size_t, const uint64_t*>{0, none.data()},
                                    std::pair<size_t, const uint64_t*>{300, none.data()}}) {
      const auto sum = AggregateSum(x.data(), n, select, nullptr);
      EXPECT_FALSE(sum.any()) << TypeName<T>() << " n=" << n;
      EXPECT_TRUE(sum.value == 0 && !std::signbit(static_cast<double>(sum.value)));
      EXPECT_TRUE(Same(AggResult<T>{}, AggregateMin(x.data(), n, nullptr, select)));
      EXPECT_TRUE(Same(AggResult<T>{}, AggregateMax(x.data(), n, select, select)));
      EXPECT_FALSE(AverageOf(sum).any());
    }
  });
}

// NULL rows hold values that would win (or poison a sum) if they were read.
TEST_P(AggregateTest, NullsAreSkipped) {
  ForEachType([](auto type) {
    using T = decltype(type);
    using L = std::numeric_limits<T>;
    const size_t n = 1000;
    std::vector<T> x(n);
    std::vector<uint64_t> validity(BitmaskWords(n), 0);
    for (size_t i = 0; i < n; ++i) {
      if (i % 3 == 1) {
        x[i] = T(i % 100);
        BitmaskSet(validity.data(), i);
      } else {
        x[i] = (i % 2) ? (L::has_quiet_NaN ? L::quiet_NaN() : L::max()) : L::lowest();
      }
    }
    const auto min = AggregateMin(x.data(), n, nullptr, validity.data());
    const auto max = AggregateMax(x.data(), n, nullptr, validity.data());
    EXPECT_EQ(min.count, 333u);
    EXPECT_EQ(max.count, 333u);
    EXPECT_EQ(min.value, T(0)) << TypeName<T>();
    EXPECT_EQ(max.value, T(99)) << TypeName<T>();
    EXPECT_TRUE(Same(reference::AggregateSum(x.data(), n, nullptr, validity.data()),
                     AggregateSum(x.data(), n, nullptr, validity.data())));
    // Rows 1, 4, 7, ...: i % 100 over them sums to 16467.
    EXPECT_EQ(AggregateSum(x.data(), n, nullptr, validity.data()).value, 16467) << TypeName<T>();
  });
}

template <class T>
void ExpectSumOfConstant(T value, size_t n) {
  const std::vector<T> x(n, value);
  const Int128 want = static_cast<Int128>(value) * static_cast<Int128>(n);
  for (size_t offset : {0, 1}) {  // offset 1: n - 1 rows
    const IntSum got = AggregateSum(x.data() + offset, n - offset);
    const Int128 w = offset ? want - value : want;
    EXPECT_EQ(Show(w), Show(got.value)) << TypeName<T>() << " " << Show(value) << " x " << n;
    EXPECT_EQ(got.count, n - offset);
    EXPECT_EQ(Show(w), Show(reference::AggregateSum(x.data() + offset, n - offset).value));
  }
}

TEST_P(AggregateTest, IntegerSumsAreExactAtTheExtremes) {
  ForEachType([](auto type) {
    using T = decltype(type);
    if constexpr (!std::is_floating_point_v<T>) {
      for (size_t n : {size_t{1}, size_t{65}, size_t{4097}, size_t{100003}}) {
        ExpectSumOfConstant(std::numeric_limits<T>::max(), n);
        ExpectSumOfConstant(std::numeric_limits<T>::min(), n);
      }
    }
  });
  // Beyond 64 bits: 100003 * (2^64 - 1) and 100003 * -2^63, written out.
  const std::vector<uint64_t> u(100003, ~uint64_t{0});
  EXPECT_EQ("1844729747603176290154845", Show(AggregateSum(u.data(), u.size()).value));
  const std::vector<int64_t> s(100003, std::numeric_limits<int64_t>::min());
  EXPECT_EQ("-922364873801588145127424", Show(AggregateSum(s.data(), s.size()).value));
  // Alternating extremes cancel exactly: MIN + MAX = -1 per pair.
  std::vector<int64_t> alt(100000);
  for (size_t i = 0; i < alt.size(); ++i) {
    alt[i] = (i % 2) ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  EXPECT_EQ("-50000", Show(AggregateSum(alt.data(), alt.size()).value));
  EXPECT_EQ(std::numeric_limits<int64_t>::min(), AggregateMin(alt.data(), alt.size()).value);
  EXPECT_EQ(std::numeric_limits<int64_t>::max(), AggregateMax(alt.data(), alt.size()).value);
}

// Float MIN/MAX/SUM on special values, each case placed among rows that the select mask drops
// (NaN and infinities there), at several positions, so masked-out rows are shown not to leak.
template <class T>
void CheckFloatSpecials() {
  using L = std::numeric_limits<T>;
  const T nan = L::quiet_NaN(), inf = L::infinity();
  const T neg_nan = -nan;
  struct Case {
    std::vector<T> values;
    T min, max;
    double sum;
  };
  const std::vector<Case> cases = {
      {{T(0.0), T(-0.0)}, T(-0.0), T(0.0), 0.0},
      {{T(-0.0), T(0.0)}, T(-0.0), T(0.0), 0.0},
      {{T(-0.0), T(-0.0)}, T(-0.0), T(-0.0), 0.0},  // sums start at +0.0, as SQL SUM does
      {{T(1.0), nan, T(2.0)}, T(1.0), nan, nan},
      {{neg_nan, T(-5.0)}, T(-5.0), nan, nan},
      {{nan, neg_nan, nan}, nan, nan, nan},
      {{-inf, T(3.0), inf}, -inf, inf, nan},
      {{inf, nan}, inf, nan, nan},
      {{-inf, neg_nan}, -inf, nan, nan},
      {{L::lowest(), L::max()}, L::lowest(), L::max(), 0.0},
      {{L::denorm_min(), -L::denorm_min(), T(0.0)}, -L::denorm_min(), L::denorm_min(), 0.0},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    for (size_t start : {size_t{0}, size_t{7}, size_t{63}, size_t{64}, size_t{4094}}) {
      const size_t n = start + cases[c].values.size() + 5;
      std::vector<T> x(n);
      std::vector<uint64_t> select(BitmaskWords(n), 0);
      for (size_t i = 0; i < n; ++i) x[i] = (i % 3 == 0) ? nan : (i % 3 == 1 ? -inf : inf);
      for (size_t j = 0; j < cases[c].values.size(); ++j) {
        x[start + j] = cases[c].values[j];
        BitmaskSet(select.data(), start + j);
      }
      const uint64_t k = cases[c].values.size();
      const std::string what = TypeName<T>() + " case " + std::to_string(c) + " at " +
                               std::to_string(start);
      EXPECT_TRUE(Same(AggResult<T>{cases[c].min, k}, AggregateMin(x.data(), n, select.data())))
          << what;
      EXPECT_TRUE(Same(AggResult<T>{cases[c].max, k}, AggregateMax(x.data(), n, select.data())))
          << what;
      EXPECT_TRUE(Same(FloatSum{cases[c].sum, k}, AggregateSum(x.data(), n, select.data())))
          << what;
      EXPECT_TRUE(Same(AggResult<T>{cases[c].min, k},
                       reference::AggregateMin(x.data(), n, select.data())))
          << what;
      EXPECT_TRUE(Same(AggResult<T>{cases[c].max, k},
                       reference::AggregateMax(x.data(), n, select.data())))
          << what;
    }
  }
  // The same rules unmasked and in long columns: one NaN anywhere makes MAX NaN, not MIN.
  for (size_t pos : {size_t{0}, size_t{15}, size_t{4095}, size_t{4096}, size_t{9999}}) {
    std::vector<T> v = MakeData<T>(Data::kUniform, 10000, pos);
    v[pos] = (pos % 2) ? nan : neg_nan;
    EXPECT_TRUE(Same(AggResult<T>{nan, 10000}, AggregateMax(v.data(), v.size())));
    EXPECT_FALSE(std::isnan(AggregateMin(v.data(), v.size()).value));
    EXPECT_TRUE(std::isnan(AggregateSum(v.data(), v.size()).value));
  }
}

TEST_P(AggregateTest, FloatSpecialValues) {
  CheckFloatSpecials<float>();
  CheckFloatSpecials<double>();
}

TEST_P(AggregateTest, Float32IsSummedInDouble) {
  // 2^24 + 1 + 1 + ... is not representable in float; in double every partial sum is exact.
  std::vector<float> x(1000, 1.0f);
  x[0] = 16777216.0f;
  EXPECT_EQ(16777216.0 + 999.0, AggregateSum(x.data(), x.size()).value);
  EXPECT_TRUE(Same(reference::AggregateSum(x.data(), x.size()), AggregateSum(x.data(), x.size())));
}

TEST_P(AggregateTest, UnmaskedFloat64SumIsSumFloat64) {
  // The aggregate family follows laneql/sum.h's order: the same bits as the SUM entry points.
  for (size_t n : kSizes) {
    const std::vector<double> v = MakeData<double>(Data::kCancellation, n, n);
    const double want = SumFloat64(v.data(), n);
    EXPECT_TRUE(Same(FloatSum{want, n}, AggregateSum(v.data(), n))) << n;
    const std::vector<uint64_t> all = MakeMask(Mask::kAll, n, 0);
    EXPECT_TRUE(Same(FloatSum{want, n}, AggregateSum(v.data(), n, all.data(), all.data()))) << n;
  }
}

TEST(AggregateOrder, MaskedTestDataIsOrderSensitive) {
  // Guards the float tests: if the selected rows summed the same in any order, a kernel that
  // ignored the defined order (or compacted the selected rows first) would still pass.
  const size_t n = 100003;
  const std::vector<double> v = MakeData<double>(Data::kCancellation, n, 5);
  const std::vector<uint64_t> select = MakeMask(Mask::kHalf, n, 6);
  double sequential = 0.0, compacted[kSumAccumulators] = {};
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!BitmaskGet(select.data(), i)) continue;
    sequential += v[i];
    compacted[k++ % kSumAccumulators] += v[i];
  }
  const double want = reference::AggregateSum(v.data(), n, select.data()).value;
  EXPECT_NE(sequential, want);
  double folded = 0.0;
  for (double c : compacted) folded += c;
  EXPECT_NE(folded, want);
}

// Per-range results merged give the whole-column result: integer SUM, MIN, MAX from ranges that
// start at any multiple of 64 rows; float SUM through block sums from block-aligned ranges.
template <class T>
void CheckMerge(size_t n, const std::vector<size_t>& cuts) {
  const std::vector<T> x = MakeData<T>(Data::kSpecials, n, n + sizeof(T));
  const std::vector<uint64_t> select = MakeMask(Mask::kHalf, n, 11);
  const std::vector<uint64_t> validity = MakeMask(Mask::kWordMix, n, 12);
  std::vector<size_t> bounds = {0};
  bounds.insert(bounds.end(), cuts.begin(), cuts.end());
  bounds.push_back(n);
  AggResult<SumValue<T>> sum;
  AggResult<T> min, max, min_reversed, max_reversed;
  std::vector<double> blocks((n + kSumBlockRows - 1) / kSumBlockRows, -1.0);
  for (size_t r = 0; r + 1 < bounds.size(); ++r) {
    const size_t begin = bounds[r], rows = bounds[r + 1] - begin;
    const T* px = x.data() + begin;
    const uint64_t* ps = select.data() + begin / 64;
    const uint64_t* pv = validity.data() + begin / 64;
    if constexpr (std::is_floating_point_v<T>) {
      sum.count += AggregateSumBlocks(px, rows, ps, pv, blocks.data() + begin / kSumBlockRows);
    } else {
      sum = MergeSum(sum, AggregateSum(px, rows, ps, pv));
    }
    min = MergeMin(min, AggregateMin(px, rows, ps, pv));
    max = MergeMax(max, AggregateMax(px, rows, ps, pv));
    min_reversed = MergeMin(AggregateMin(px, rows, ps, pv), min_reversed);
    max_reversed = MergeMax(AggregateMax(px, rows, ps, pv), max_reversed);
  }
  if constexpr (std::is_floating_point_v<T>) {
    sum.value = FoldBlockSums(blocks.data(), blocks.size());
  }
  const std::string what = TypeName<T>() + " n=" + std::to_string(n);
  EXPECT_TRUE(Same(AggregateSum(x.data(), n, select.data(), validity.data()), sum)) << what;
  const auto whole_min = AggregateMin(x.data(), n, select.data(), validity.data());
  const auto whole_max = AggregateMax(x.data(), n, select.data(), validity.data());
  EXPECT_TRUE(Same(whole_min, min)) << what;
  EXPECT_TRUE(Same(whole_max, max)) << what;
  EXPECT_TRUE(Same(whole_min, min_reversed)) << what;
  EXPECT_TRUE(Same(whole_max, max_reversed)) << what;
}

TEST_P(AggregateTest, RangesMerge) {
  ForEachType([](auto type) {
    using T = decltype(type);
    const size_t b = kSumBlockRows;
    CheckMerge<T>(3 * b + 77, {b, 2 * b, 3 * b});
    CheckMerge<T>(100003, {b, 5 * b, 6 * b, 20 * b});
    if constexpr (!std::is_floating_point_v<T>) CheckMerge<T>(100003, {64, 640, 4160, 99968});
  });
}

TEST_P(AggregateTest, Average) {
  const std::vector<int32_t> a = {1, 2};
  EXPECT_EQ(1.5, AverageOf(AggregateSum(a.data(), a.size())).value);
  const std::vector<int64_t> big(1000, std::numeric_limits<int64_t>::max());
  const auto avg = AverageOf(AggregateSum(big.data(), big.size()));
  EXPECT_EQ(static_cast<double>(std::numeric_limits<int64_t>::max()), avg.value);
  EXPECT_EQ(1000u, avg.count);
  const std::vector<uint8_t> bytes = {255, 0, 255, 0, 7};
  const std::vector<uint64_t> select = {0b10101};  // 255, 255, 7
  EXPECT_EQ(517.0 / 3, AverageOf(AggregateSum(bytes.data(), bytes.size(), select.data())).value);
  const std::vector<double> d = {0.5, 0.25, 1e300};
  const std::vector<uint64_t> valid = {0b011};
  EXPECT_EQ(0.375, AverageOf(AggregateSum(d.data(), d.size(), nullptr, valid.data())).value);
}

TEST(AggregateMerge, FloatOrderIsTotal) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> ascending = {-inf, -1.0, -0.0, 0.0, 1.0, inf, nan};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      EXPECT_EQ(i < j, AggLess(ascending[i], ascending[j])) << i << " " << j;
    }
  }
  const AggResult<double> a{-0.0, 2}, b{0.0, 3}, none;
  EXPECT_TRUE(std::signbit(MergeMin(a, b).value) && std::signbit(MergeMin(b, a).value));
  EXPECT_FALSE(std::signbit(MergeMax(a, b).value) || std::signbit(MergeMax(b, a).value));
  EXPECT_EQ(5u, MergeMin(a, b).count);
  EXPECT_TRUE(Same(b, MergeMax(none, b)));
  EXPECT_TRUE(Same(a, MergeMin(a, none)));
}

}  // namespace
}  // namespace laneql
