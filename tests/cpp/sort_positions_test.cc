// SortPositions (sort_rows.cc) against a plain std::stable_sort with a comparator written here:
// full sorts and top-N (whose typed first key rejects positions without the comparator), on one
// thread and split over a pool, with NULLs placed first or last, NaN largest, -0 equal to +0,
// many ties, a tiebreak array, a second key, string and constant first keys, strings that differ
// only past their first 8 bytes, four keys, and keep 0, 1, a few, n - 1, n and more than n.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/exec/exec_context.h"
#include "src/exec/sort_rows.h"
#include "src/exec/thread_pool.h"
#include "src/exec/vector.h"

namespace laneql {
namespace {

using exec::SortColumn;
using exec::Vec;

// One key column: the Vec under test and the plain values the reference compares.
struct Key {
  Vec vec;
  std::vector<bool> nulls;
  std::vector<double> numbers;       // fixed-width keys, as doubles (exact for the values used)
  std::vector<std::string> strings;  // string keys
};

void SetNulls(Key* key, std::mt19937_64* rng, int null_percent) {
  const size_t n = key->nulls.size();
  if (null_percent == 0) return;
  uint64_t* bits = key->vec.InitValidity(nullptr);
  ASSERT_NE(bits, nullptr);
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<int>((*rng)() % 100) < null_percent) {
      key->nulls[i] = true;
      bits[i / 64] &= ~(uint64_t{1} << (i % 64));
    }
  }
}

// Integers of type T drawn from [low, high] (few distinct values: many ties).
template <class T>
Key IntKey(size_t n, TypeId type, int64_t low, int64_t high, int null_percent, std::mt19937_64* rng) {
  Key key;
  key.nulls.assign(n, false);
  T* values = key.vec.InitFixed<T>(type, n, false, nullptr);
  EXPECT_NE(values, nullptr);
  std::uniform_int_distribution<int64_t> pick(low, high);
  for (size_t i = 0; i < n; ++i) {
    values[i] = static_cast<T>(pick(*rng));
    key.numbers.push_back(static_cast<double>(values[i]));
  }
  SetNulls(&key, rng, null_percent);
  return key;
}

// Doubles with NaN, -0, +0, infinities and a few ordinary values.
Key DoubleKey(size_t n, int null_percent, std::mt19937_64* rng) {
  const double kPool[] = {std::numeric_limits<double>::quiet_NaN(), -0.0, 0.0, 1.5, -2.25,
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(), 1e300, -1e-300};
  Key key;
  key.nulls.assign(n, false);
  double* values = key.vec.InitFixed<double>(TypeId::kFloat64, n, false, nullptr);
  EXPECT_NE(values, nullptr);
  for (size_t i = 0; i < n; ++i) {
    values[i] = kPool[(*rng)() % (sizeof(kPool) / sizeof(kPool[0]))];
    key.numbers.push_back(values[i]);
  }
  SetNulls(&key, rng, null_percent);
  return key;
}

Key StringKey(size_t n, int null_percent, std::mt19937_64* rng) {
  Key key;
  key.nulls.assign(n, false);
  exec::StringVecBuilder builder;
  EXPECT_TRUE(builder.Init(n, false, nullptr));
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = (*rng)() % 7;
    key.strings.push_back(r == 0 ? std::string() : std::string(r % 3 + 1, static_cast<char>('a' + r)));
    EXPECT_TRUE(builder.Append(key.strings.back(), nullptr));
  }
  EXPECT_TRUE(builder.Finish(&key.vec, nullptr));
  SetNulls(&key, rng, null_percent);
  return key;
}

// Strings that share their first 8 bytes (the sort's order words) or differ just past them:
// lengths around 8, a NUL byte inside or where the word pads, bytes over 0x7F.
// With `suffixed`, most of them get a number appended: too many distinct values for the sort's
// ranks, so its prefix words and string comparisons decide.
Key PrefixStringKey(size_t n, int null_percent, std::mt19937_64* rng, bool suffixed = false) {
  static const std::string kPool[] = {"", "Brand#1", "Brand#12", "Brand#12X", "Brand#12 ", std::string("Brand#12\0", 9),
                                      std::string("Brand#1\0", 8), std::string("Brand#1\0z", 9), "Brand#13",
                                      "STANDARD POLISHED TIN", "STANDARD POLISHED BRASS", "STANDARD",
                                      "\xff\xfe", "\xff\xfe\x01", "\x7f"};
  Key key;
  key.nulls.assign(n, false);
  exec::StringVecBuilder builder;
  EXPECT_TRUE(builder.Init(n, false, nullptr));
  for (size_t i = 0; i < n; ++i) {
    key.strings.push_back(kPool[(*rng)() % (sizeof(kPool) / sizeof(kPool[0]))]);
    if (suffixed && (*rng)() % 4 != 0) key.strings.back() += std::to_string((*rng)() % 100000);
    EXPECT_TRUE(builder.Append(key.strings.back(), nullptr));
  }
  EXPECT_TRUE(builder.Finish(&key.vec, nullptr));
  SetNulls(&key, rng, null_percent);
  return key;
}

// -1 / 0 / 1 for rows a and b of one key, NULLs aside: NaN largest and equal to itself.
int CompareValues(const Key& key, size_t a, size_t b) {
  if (!key.strings.empty()) return key.strings[a] < key.strings[b] ? -1 : (key.strings[b] < key.strings[a] ? 1 : 0);
  const double x = key.numbers[a], y = key.numbers[b];
  const bool xn = std::isnan(x), yn = std::isnan(y);
  if (xn || yn) return xn == yn ? 0 : (xn ? 1 : -1);
  return x < y ? -1 : (y < x ? 1 : 0);
}

// All n positions in order.
std::vector<uint32_t> Reference(const std::vector<const Key*>& keys, const std::vector<SortColumn>& columns,
                                size_t n, const uint64_t* tiebreak) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    for (size_t k = 0; k < keys.size(); ++k) {
      const bool an = keys[k]->nulls[a], bn = keys[k]->nulls[b];
      if (an != bn) return an == columns[k].nulls_first;
      if (an) continue;
      const int c = CompareValues(*keys[k], a, b);
      if (c != 0) return columns[k].descending ? c > 0 : c < 0;
    }
    return tiebreak != nullptr && tiebreak[a] < tiebreak[b];  // then the position (stable)
  });
  return order;
}

// GetParam() threads: a pool and a context for them (the sort's context only from 2 threads).
class SortPositionsTest : public ::testing::TestWithParam<int> {
 protected:
  SortPositionsTest() : pool_(GetParam()) {
    ctx_.pool = &pool_;
    ctx_.threads = GetParam();
  }
  const exec::ExecContext* context() const { return GetParam() > 1 ? &ctx_ : nullptr; }

 private:
  exec::ThreadPool pool_;
  exec::ExecContext ctx_;
};

// keep values worth checking for n positions.
std::vector<size_t> Keeps(size_t n) {
  if (n > 10000) return {1, 10, 1000, n};  // the split sort: fewer rounds of large sorts
  std::vector<size_t> keeps = {0, 1, 10, 1000, n, n + 5};
  if (n > 0) keeps.push_back(n - 1);
  return keeps;
}

void CheckAll(const std::vector<const Key*>& keys, size_t n, const exec::ExecContext* ctx,
              const std::string& what) {
  std::mt19937_64 rng(n * 7 + keys.size());
  std::vector<uint64_t> tiebreak(n);
  for (auto& t : tiebreak) t = rng() % 50;
  for (int flags = 0; flags < 4; ++flags) {
    std::vector<SortColumn> columns;
    for (size_t k = 0; k < keys.size(); ++k) {
      // Alternate the direction and the NULLs' place between the keys and the rounds.
      columns.push_back(SortColumn{&keys[k]->vec, ((flags + k) & 1) != 0, ((flags >> 1) & 1) != 0});
    }
    for (const bool with_tiebreak : {false, true}) {
      const uint64_t* tb = with_tiebreak ? tiebreak.data() : nullptr;
      const std::vector<uint32_t> all = Reference(keys, columns, n, tb);
      for (const size_t keep : Keeps(n)) {
        const std::vector<uint32_t> expected(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(keep, n)));
        const std::vector<uint32_t> got = exec::SortPositions(columns, n, keep, tb, ctx);
        ASSERT_EQ(got, expected) << what << ": n " << n << " keep " << keep << " flags " << flags
                                 << " tiebreak " << with_tiebreak;
      }
    }
  }
}

TEST_P(SortPositionsTest, MatchesAStableSortWithAPlainComparator) {
  // Above 65,536 positions the sort is split among the threads.
  for (const size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{3000}, size_t{70000}}) {
    std::mt19937_64 rng(n + 1);
    const Key ints = IntKey<int64_t>(n, TypeId::kInt64, -20, 20, 0, &rng);
    const Key nullable = IntKey<int32_t>(n, TypeId::kInt32, -5, 5, 10, &rng);
    const Key bytes = IntKey<uint8_t>(n, TypeId::kUInt8, 0, 255, 0, &rng);
    const Key wide = IntKey<int64_t>(n, TypeId::kInt64, std::numeric_limits<int64_t>::min() / 2,
                                     std::numeric_limits<int64_t>::max() / 2, 0, &rng);
    const Key doubles = DoubleKey(n, 5, &rng);
    const Key strings = StringKey(n, 5, &rng);
    const exec::ExecContext* context = this->context();
    CheckAll({&ints}, n, context, "int64");
    CheckAll({&nullable, &ints}, n, context, "nullable int32, int64");
    CheckAll({&bytes}, n, context, "uint8");
    CheckAll({&doubles, &nullable}, n, context, "double, nullable int32");
    CheckAll({&strings, &doubles}, n, context, "string, double");
    // Strings past their first 8 bytes, and keys past the three a sort record holds.
    const Key prefixed = PrefixStringKey(n, 4, &rng);
    const Key prefixed2 = PrefixStringKey(n, 0, &rng);
    const Key suffixed = PrefixStringKey(n, 3, &rng, true);
    CheckAll({&prefixed}, n, context, "prefixed strings");
    CheckAll({&suffixed, &prefixed}, n, context, "prefixed strings with suffixes, prefixed strings");
    CheckAll({&ints, &suffixed, &nullable, &suffixed}, n, context, "int64, suffixed strings, int32, suffixed strings");
    CheckAll({&nullable, &prefixed, &prefixed2, &ints}, n, context, "int32, two prefixed strings, int64");
    CheckAll({&prefixed, &bytes, &doubles, &prefixed2}, n, context, "prefixed string, uint8, double, prefixed string");
    if (n <= 3000) CheckAll({&wide}, n, context, "distinct int64");  // ties only by chance
  }
}

TEST_P(SortPositionsTest, ConstantFirstKeyOrdersByTheNext) {
  const size_t n = 70000;
  std::mt19937_64 rng(3);
  Key constant;
  constant.nulls.assign(n, false);
  constant.numbers.assign(n, 4.0);
  constant.vec.InitFixed<int64_t>(TypeId::kInt64, n, true, nullptr)[0] = 4;
  const Key ints = IntKey<int64_t>(n, TypeId::kInt64, -1000, 1000, 3, &rng);
  CheckAll({&constant, &ints}, n, context(), "constant, int64");
}

// No columns: the order of the tiebreak values, ties by position (the radix path for values
// below 2^32; the comparison sort above), and the first `keep` of them.
TEST_P(SortPositionsTest, TiebreakAloneOrdersByItThenByPosition) {
  std::mt19937_64 rng(11);
  for (const size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{100003}}) {
    for (const uint64_t range : {uint64_t{1} << 12, uint64_t{1} << 31, uint64_t{1} << 40}) {
      std::vector<uint64_t> tiebreak(n);
      for (uint64_t& t : tiebreak) t = rng() % range;  // duplicates where the range is small
      std::vector<uint32_t> want(n);
      std::iota(want.begin(), want.end(), 0u);
      std::stable_sort(want.begin(), want.end(),
                       [&](uint32_t a, uint32_t b) { return tiebreak[a] < tiebreak[b]; });
      EXPECT_EQ(exec::SortPositions({}, n, n, tiebreak.data(), context()), want) << n << " " << range;
      const size_t keep = n / 3;
      want.resize(keep);
      EXPECT_EQ(exec::SortPositions({}, n, keep, tiebreak.data(), context()), want) << n << " " << range;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, SortPositionsTest, ::testing::Values(1, 3));

}  // namespace
}  // namespace laneql
