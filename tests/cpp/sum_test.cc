// SUM kernels against their scalar references, on every compiled target.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/sum.h"
#include "target_param.h"
#include "test_threads.h"

namespace laneql {
namespace {

// Bit-identical, except that any NaN equals any NaN: NaN payloads are not part of the contract.
::testing::AssertionResult SameDouble(double want, double got) {
  if (std::isnan(want) && std::isnan(got)) return ::testing::AssertionSuccess();
  if (std::memcmp(&want, &got, sizeof(double)) == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "want " << std::hexfloat << want << ", got " << got;
}

// Sizes around every boundary the kernels have: vector widths (1..16 lanes), the 16
// accumulators, the 4096-row blocks, plus empty and a large odd size.
const std::vector<size_t> kSizes = {0,    1,    2,    3,    4,    5,    7,    8,    9,
                                    15,   16,   17,   31,   32,   33,   63,   64,   65,
                                    4095, 4096, 4097, 8191, 8192, 8209, 100003};

enum class Data { kUniform, kWideExponents, kCancellation, kIntegers };

std::vector<double> MakeDoubles(Data kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  for (double& x : v) {
    switch (kind) {
      case Data::kUniform:
        x = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
        break;
      case Data::kWideExponents:  // any finite double from 2^-60 to 2^60, either sign
        x = std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(rng),
                       static_cast<int>(rng() % 121) - 60) *
            ((rng() & 1) ? 1 : -1);
        break;
      case Data::kCancellation:  // huge values that cancel plus small ones: order-sensitive
        x = (rng() % 4 == 0) ? ((rng() & 1) ? 1e16 : -1e16)
                             : std::uniform_real_distribution<double>(-10.0, 10.0)(rng);
        break;
      case Data::kIntegers:
        x = static_cast<double>(static_cast<int64_t>(rng() % 2000001) - 1000000);
        break;
    }
  }
  return v;
}

LANEQL_PER_TARGET_SUITE(SumFloat64Test);

TEST_P(SumFloat64Test, MatchesReferenceBitForBit) {
  for (Data kind : {Data::kUniform, Data::kWideExponents, Data::kCancellation}) {
    for (size_t n : kSizes) {
      // Unaligned starts: the kernels use unaligned loads and must not care.
      for (size_t offset : {0, 1, 3}) {
        const std::vector<double> buf = MakeDoubles(kind, n + offset, n * 31 + offset);
        const double* x = buf.data() + offset;
        EXPECT_TRUE(SameDouble(reference::SumFloat64(x, n), SumFloat64(x, n)))
            << "data " << static_cast<int>(kind) << " n=" << n << " offset=" << offset;
      }
    }
  }
}

TEST_P(SumFloat64Test, IntegerValuedSumIsExact) {
  // Integer-valued doubles far below 2^53 sum exactly in any order: checks the reference too.
  for (size_t n : kSizes) {
    const std::vector<double> v = MakeDoubles(Data::kIntegers, n, 7 + n);
    int64_t exact = 0;
    for (double x : v) exact += static_cast<int64_t>(x);
    EXPECT_EQ(static_cast<double>(exact), SumFloat64(v.data(), n)) << "n=" << n;
    EXPECT_EQ(static_cast<double>(exact), reference::SumFloat64(v.data(), n)) << "n=" << n;
  }
}

TEST_P(SumFloat64Test, SpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double big = std::numeric_limits<double>::max();
  const double tiny = std::numeric_limits<double>::denorm_min();
  struct Case {
    std::vector<double> values;
    double want;  // what IEEE arithmetic must give, whatever the order
  };
  const std::vector<Case> cases = {
      {{-0.0}, 0.0},  // sums start at +0.0, as SQL SUM does
      {std::vector<double>(100, -0.0), 0.0},
      {{0.0, -0.0, 0.0}, 0.0},
      {{1.0, inf, 2.0}, inf},
      {{-inf, 1.0}, -inf},
      {{inf, -inf}, nan},
      {{1.0, nan, 2.0}, nan},
      {std::vector<double>(33, nan), nan},
      {{big, big}, inf},
      {{-big, -big, 1.0}, -inf},
      {std::vector<double>(40, tiny), 40 * tiny},
  };
  for (const Case& c : cases) {
    for (size_t pad : {size_t{0}, size_t{5}, size_t{4100}}) {  // also past vector and block ends
      std::vector<double> v(pad, 0.0);
      v.insert(v.end(), c.values.begin(), c.values.end());
      EXPECT_TRUE(SameDouble(c.want, SumFloat64(v.data(), v.size()))) << "pad " << pad;
      EXPECT_TRUE(SameDouble(c.want, reference::SumFloat64(v.data(), v.size()))) << "pad " << pad;
    }
  }
  // NaN anywhere in a long column, including the last row of a partial block.
  for (size_t pos : {size_t{0}, size_t{15}, size_t{4095}, size_t{4096}, size_t{9999}}) {
    std::vector<double> v = MakeDoubles(Data::kUniform, 10000, pos);
    v[pos] = nan;
    EXPECT_TRUE(std::isnan(SumFloat64(v.data(), v.size()))) << "NaN at " << pos;
  }
}

TEST_P(SumFloat64Test, BlocksMatchReferencePerBlock) {
  const size_t n = 3 * kSumBlockRows + 77;
  const std::vector<double> v = MakeDoubles(Data::kWideExponents, n, 99);
  std::vector<double> sums(4, -1.0);
  SumFloat64Blocks(v.data(), n, sums.data());
  for (size_t b = 0; b < 4; ++b) {
    const size_t begin = b * kSumBlockRows, rows = std::min(kSumBlockRows, n - begin);
    EXPECT_TRUE(SameDouble(reference::SumFloat64(v.data() + begin, rows), sums[b])) << b;
  }
}

TEST_P(SumFloat64Test, EveryThreadCountGivesTheSameBits) {
  LANEQL_SKIP_WITHOUT_THREADS();
  for (size_t n : {size_t{0}, size_t{5000}, size_t{123457}}) {
    const std::vector<double> v = MakeDoubles(Data::kCancellation, n, n);
    const double single = SumFloat64(v.data(), n);
    for (int threads : {1, 2, 3, 4, 7, 8, 64}) {
      EXPECT_TRUE(SameDouble(single, SumFloat64Parallel(v.data(), n, threads)))
          << "n=" << n << " threads=" << threads;
    }
  }
}

TEST(SumFloat64Order, TestDataIsOrderSensitive) {
  // Guards the tests above: if the data summed the same in any order, a kernel that ignored the
  // defined order would still pass. Plain left-to-right summation must differ here.
  const std::vector<double> v = MakeDoubles(Data::kCancellation, 100003, 100003 * 31);
  double sequential = 0.0;
  for (double x : v) sequential += x;
  EXPECT_FALSE(SameDouble(sequential, reference::SumFloat64(v.data(), v.size())));
}

LANEQL_PER_TARGET_SUITE(SumInt64Test);

std::vector<int64_t> MakeInt64(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> v(n);
  for (int64_t& x : v) x = static_cast<int64_t>(rng());  // the whole int64 range
  return v;
}

TEST_P(SumInt64Test, MatchesReferenceExactly) {
  for (size_t n : kSizes) {
    for (size_t offset : {0, 1}) {
      const std::vector<int64_t> buf = MakeInt64(n + offset, n + 17 * offset);
      const int64_t* x = buf.data() + offset;
      EXPECT_EQ(Int128ToString(reference::SumInt64(x, n)), Int128ToString(SumInt64(x, n)))
          << "n=" << n << " offset=" << offset;
    }
  }
}

TEST_P(SumInt64Test, ExtremesDoNotOverflow) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  for (size_t n : {size_t{1}, size_t{17}, size_t{4097}, size_t{100003}}) {
    const std::vector<int64_t> highs(n, max), lows(n, min);
    // n * (2^63 - 1) and n * -2^63, computed without the kernels.
    const Int128 want_high = static_cast<Int128>(n) * max;
    const Int128 want_low = -(static_cast<Int128>(n) << 63);
    EXPECT_EQ(Int128ToString(want_high), Int128ToString(SumInt64(highs.data(), n)));
    EXPECT_EQ(Int128ToString(want_low), Int128ToString(SumInt64(lows.data(), n)));
    std::vector<int64_t> mixed(n);
    for (size_t i = 0; i < n; ++i) mixed[i] = (i % 3 == 0) ? min : (i % 3 == 1 ? max : -1);
    EXPECT_EQ(Int128ToString(reference::SumInt64(mixed.data(), n)),
              Int128ToString(SumInt64(mixed.data(), n)));
  }
}

TEST_P(SumInt64Test, ParallelIsExact) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const std::vector<int64_t> v = MakeInt64(200003, 5);
  const Int128 want = reference::SumInt64(v.data(), v.size());
  for (int threads : {1, 2, 3, 8}) {
    EXPECT_EQ(Int128ToString(want), Int128ToString(SumInt64Parallel(v.data(), v.size(), threads)));
  }
}

TEST(Int128ToString, Extremes) {
  const Int128 max = static_cast<Int128>((static_cast<unsigned __int128>(1) << 127) - 1);
  EXPECT_EQ("0", Int128ToString(0));
  EXPECT_EQ("-1", Int128ToString(-1));
  EXPECT_EQ("18446744073709551616", Int128ToString(static_cast<Int128>(1) << 64));
  EXPECT_EQ("170141183460469231731687303715884105727", Int128ToString(max));
  EXPECT_EQ("-170141183460469231731687303715884105728", Int128ToString(-max - 1));
}

}  // namespace
}  // namespace laneql
