// Small-key GROUP BY against its scalar reference on every compiled target: every state of
// every group, bit for bit (floats) or exactly (integers), for every interleave K.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/bitmask.h"
#include "laneql/small_group.h"
#include "target_param.h"

namespace laneql {
namespace {

using T = SmallGroupType;

// Bit-identical, except that any NaN equals any NaN (payloads are not part of the contract).
bool SameDouble(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

std::string Str(Int128 v) { return Int128ToString(v); }

// Every result of every group and aggregate, compared with the reference's.
::testing::AssertionResult SameResults(const SmallGroupBy& got, const reference::SmallGroupBy& want,
                                       const std::vector<SmallGroupAggregate>& aggs) {
  if (got.GroupSlots() != want.GroupSlots()) {
    return ::testing::AssertionFailure() << "different groups: " << got.GroupSlots().size()
                                         << " vs " << want.GroupSlots().size();
  }
  for (size_t slot = 0; slot < want.slots(); ++slot) {
    auto fail = [&](const char* what, size_t a) {
      return ::testing::AssertionFailure()
             << what << " differs, slot " << slot << " (key " << want.KeyOfSlot(slot)
             << "), aggregate " << a;
    };
    if (got.KeyOfSlot(slot) != want.KeyOfSlot(slot)) return fail("key", 0);
    if (got.RowCount(slot) != want.RowCount(slot)) {
      return fail("COUNT(*)", 0) << ": " << got.RowCount(slot) << " vs " << want.RowCount(slot);
    }
    for (size_t a = 0; a < aggs.size(); ++a) {
      const uint64_t count = want.Count(a, slot);
      if (got.Count(a, slot) != count) {
        return fail("COUNT", a) << ": " << got.Count(a, slot) << " vs " << count;
      }
      if (count == 0) continue;  // the other states are NULL
      if (SmallGroupTypeIsFloat(aggs[a].type)) {
        if (!SameDouble(got.SumFloat(a, slot), want.SumFloat(a, slot))) {
          return fail("SUM", a) << std::hexfloat << ": " << got.SumFloat(a, slot) << " vs "
                                << want.SumFloat(a, slot);
        }
        if (!SameDouble(got.Avg(a, slot), want.Avg(a, slot))) return fail("AVG", a);
        if (aggs[a].min_max && (!SameDouble(got.MinFloat(a, slot), want.MinFloat(a, slot)) ||
                                !SameDouble(got.MaxFloat(a, slot), want.MaxFloat(a, slot)))) {
          return fail("MIN/MAX", a) << std::hexfloat << ": " << got.MinFloat(a, slot) << ","
                                    << got.MaxFloat(a, slot) << " vs " << want.MinFloat(a, slot)
                                    << "," << want.MaxFloat(a, slot);
        }
      } else {
        if (got.SumInt(a, slot) != want.SumInt(a, slot)) {
          return fail("SUM", a) << ": " << Str(got.SumInt(a, slot)) << " vs "
                                << Str(want.SumInt(a, slot));
        }
        if (!SameDouble(got.Avg(a, slot), want.Avg(a, slot))) return fail("AVG", a);
        if (aggs[a].min_max && (got.MinInt(a, slot) != want.MinInt(a, slot) ||
                                got.MaxInt(a, slot) != want.MaxInt(a, slot))) {
          return fail("MIN/MAX", a) << ": " << got.MinInt(a, slot) << "," << got.MaxInt(a, slot)
                                    << " vs " << want.MinInt(a, slot) << ","
                                    << want.MaxInt(a, slot);
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// ------------------------------------------------------------------ data
// A column of any type as raw bytes, with `pad` spare elements in front (unaligned starts).
struct Column {
  SmallGroupType type;
  std::vector<uint8_t> bytes;
  size_t pad = 0;
  const void* data() const { return bytes.data() + pad * SmallGroupTypeBytes(type); }
  void Set(size_t i, int64_t v) {  // integer types: truncated to the width
    std::memcpy(&bytes[(pad + i) * SmallGroupTypeBytes(type)], &v, SmallGroupTypeBytes(type));
  }
  void SetFloat(size_t i, double v) {
    uint8_t* p = &bytes[(pad + i) * SmallGroupTypeBytes(type)];
    if (type == T::kFloat32) {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, sizeof f);
    } else {
      std::memcpy(p, &v, sizeof v);
    }
  }
};

Column Empty(SmallGroupType type, size_t n, size_t pad) {
  // Filled with 0xA5 so that reading a pad or past the end would show in the results.
  return Column{type, std::vector<uint8_t>((n + pad) * SmallGroupTypeBytes(type), 0xA5), pad};
}

enum class Keys { kUniform, kSkewed, kFewDistinct };

// Keys in [lo, lo + span) (span <= 2^16), as values of `type`.
Column MakeKeys(SmallGroupType type, size_t n, size_t pad, int64_t lo, uint64_t span, Keys kind,
                std::mt19937_64& rng) {
  Column c = Empty(type, n, pad);
  const uint64_t hot = rng() % span;
  for (size_t i = 0; i < n; ++i) {
    uint64_t off = rng() % span;
    if (kind == Keys::kSkewed && rng() % 10 != 0) off = hot;  // one key on ~90 % of the rows
    if (kind == Keys::kFewDistinct) off = (off % 3) * (span / 3);
    c.Set(i, static_cast<int64_t>(static_cast<uint64_t>(lo) + off));
  }
  return c;
}

enum class Values { kRandom, kExtremes, kSpecial, kCancellation };

Column MakeValues(SmallGroupType type, size_t n, size_t pad, Values kind, std::mt19937_64& rng) {
  Column c = Empty(type, n, pad);
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {0.0, -0.0, inf, -inf, std::numeric_limits<double>::quiet_NaN(),
                             -std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::denorm_min(), 1e308, -1e308, 1.5};
  for (size_t i = 0; i < n; ++i) {
    if (SmallGroupTypeIsFloat(type)) {
      double v = std::ldexp(std::uniform_real_distribution<double>(-1.0, 1.0)(rng),
                            static_cast<int>(rng() % 41) - 20);
      if (kind == Values::kSpecial && rng() % 3 == 0) v = specials[rng() % 10];
      if (kind == Values::kCancellation) v = (rng() % 4 == 0) ? ((rng() & 1) ? 1e16 : -1e16) : v;
      if (kind == Values::kExtremes) v = (rng() & 1) ? 1e300 : -1e300;
      c.SetFloat(i, v);
    } else {
      int64_t v = static_cast<int64_t>(rng());
      if (kind == Values::kExtremes) {  // the type's limits: sums must still be exact
        const size_t bits = 8 * SmallGroupTypeBytes(type);
        const bool is_signed = type == T::kInt8 || type == T::kInt16 || type == T::kInt32 ||
                               type == T::kInt64;
        const int64_t max = is_signed ? static_cast<int64_t>((~uint64_t{0}) >> (65 - bits))
                                      : static_cast<int64_t>((~uint64_t{0}) >> (64 - bits));
        const int64_t min = is_signed ? -max - 1 : 0;
        v = (rng() % 4 == 0) ? (rng() & 1 ? -1 : 1) : (rng() & 1 ? max : min);
      }
      c.Set(i, v);
    }
  }
  return c;
}

enum class Bits { kNone, kAll, kNoBits, kRandom, kSparse, kSomeBlocks };

// A bitmask of n rows (nullptr-able by kNone), bits past n zero as bitmask.h requires.
std::vector<uint64_t> MakeBits(Bits kind, size_t n, std::mt19937_64& rng) {
  std::vector<uint64_t> w(BitmaskWords(n) + 1, 0);  // + 1: an empty mask still has a pointer
  for (size_t i = 0; i < n; ++i) {
    // kSomeBlocks: random bits in every third run of 1024 rows (the kernels' block), none
    // elsewhere, so whole blocks are skipped.
    const bool on = kind == Bits::kAll || (kind == Bits::kRandom && (rng() & 1)) ||
                    (kind == Bits::kSparse && rng() % 16 == 0) ||
                    (kind == Bits::kSomeBlocks && (i / 1024) % 3 == 1 && (rng() & 1));
    if (on) BitmaskSet(w.data(), i);
  }
  return w;
}

const uint64_t* MaskPtr(Bits kind, const std::vector<uint64_t>& w) {
  return kind == Bits::kNone ? nullptr : w.data();
}

// One randomised case: keys, a few aggregates, masks; run on the kernel with interleave K and
// on the reference, compare everything.
struct Case {
  SmallGroupType key_type;
  int64_t key_min;
  size_t slots;
  int64_t data_lo;        // keys are drawn from [data_lo, data_lo + data_span)
  uint64_t data_span;
  Keys keys = Keys::kUniform;
  std::vector<SmallGroupAggregate> aggs;
  Values values = Values::kRandom;
  Bits selection = Bits::kNone;
  Bits validity = Bits::kNone;  // for the nullable aggregates
};

struct Inputs {
  Column keys;
  std::vector<Column> values;
  std::vector<uint64_t> selection;
  std::vector<std::vector<uint64_t>> validity;
  std::vector<SmallGroupColumn> columns;
};

Inputs MakeInputs(const Case& c, size_t n, size_t pad, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Inputs in;
  in.keys = MakeKeys(c.key_type, n, pad, c.data_lo, c.data_span, c.keys, rng);
  in.selection = MakeBits(c.selection, n, rng);
  for (const SmallGroupAggregate& a : c.aggs) {
    in.values.push_back(MakeValues(a.type, n, pad, c.values, rng));
    in.validity.push_back(MakeBits(a.nullable ? c.validity : Bits::kNone, n, rng));
  }
  for (size_t a = 0; a < c.aggs.size(); ++a) {
    const bool masked = c.aggs[a].nullable && c.validity != Bits::kNone;
    in.columns.push_back(SmallGroupColumn{in.values[a].data(),
                                          masked ? in.validity[a].data() : nullptr});
  }
  return in;
}

::testing::AssertionResult RunCase(const Case& c, size_t n, size_t pad, uint64_t seed,
                                   size_t interleave, uint64_t first_row = 0) {
  const Inputs in = MakeInputs(c, n, pad, seed);
  SmallGroupBy got(c.key_type, c.key_min, c.slots, c.aggs, interleave);
  reference::SmallGroupBy want(c.key_type, c.key_min, c.slots, c.aggs);
  const uint64_t* sel = MaskPtr(c.selection, in.selection);
  got.Update(in.keys.data(), n, sel, in.columns.data(), first_row);
  want.Update(in.keys.data(), n, sel, in.columns.data(), first_row);
  return SameResults(got, want, c.aggs);
}

const std::vector<size_t> kSizes = {0,  1,   2,   3,   7,   8,    9,    15,   16,   17,  31,
                                    32, 33,  63,  64,  65,  127,  128,  129,  1000, 1023, 1024,
                                    1025, 4095, 4096, 4097, 100003};

// The aggregates most tests use: every value type, with and without MIN/MAX and NULLs.
std::vector<SmallGroupAggregate> AllAggregates() {
  return {{T::kFloat64, false, true}, {T::kInt32, true, true},  {T::kInt64, false, true},
          {T::kFloat32, true, false}, {T::kInt16, false, false}, {T::kInt8, true, true},
          {T::kUInt8, false, true},   {T::kUInt16, true, false}, {T::kUInt32, false, true},
          {T::kInt64, true, false}};
}

LANEQL_PER_TARGET_SUITE(SmallGroupTest);

TEST_P(SmallGroupTest, Uint8KeysAllValuesAndSkew) {
  for (Keys kind : {Keys::kUniform, Keys::kSkewed, Keys::kFewDistinct}) {
    Case c{T::kUInt8, 0, 256, 0, 256, kind, AllAggregates()};
    for (size_t n : kSizes) {
      for (size_t pad : {size_t{0}, size_t{1}, size_t{3}}) {
        EXPECT_TRUE(RunCase(c, n, pad, n * 7 + pad, 0))
            << "keys " << static_cast<int>(kind) << " n=" << n << " pad=" << pad;
      }
    }
  }
}

TEST_P(SmallGroupTest, KeyTypesAndRanges) {
  const std::vector<SmallGroupAggregate> aggs = {{T::kFloat64, true, true},
                                                 {T::kInt32, false, true}};
  const std::vector<Case> cases = {
      {T::kInt8, -128, 256, -128, 256, Keys::kUniform, {}},  // whole int8 domain
      {T::kInt8, -10, 20, -10, 20, Keys::kUniform, {}},  // part of it
      {T::kUInt16, 0, 65536, 0, 65536, Keys::kUniform, {}},  // whole uint16 domain
      {T::kInt16, -32768, 65536, -32768, 65536, Keys::kUniform, {}},
      {T::kInt16, -500, 1001, -500, 1001, Keys::kUniform, {}},  // negative keys
      // 1000..66535: exactly 65,536 slots
      {T::kInt32, 1000, 65536, 1000, 65536, Keys::kUniform, {}},
      {T::kInt32, -70000, 3000, -70000, 3000, Keys::kUniform, {}},
      // up to the type's max
      {T::kUInt32, 4294967295u - 99, 100, 4294967295u - 99, 100, Keys::kUniform, {}},
      {T::kInt64, int64_t{1} << 40, 9000, int64_t{1} << 40, 9000, Keys::kUniform, {}},
      {T::kInt64, INT64_MIN, 300, INT64_MIN, 300, Keys::kUniform, {}},
      // the top of the uint64 range
      {T::kUInt64, -5000, 5000, -5000, 5000, Keys::kUniform, {}},
      {T::kUInt8, 0, 1, 0, 1, Keys::kUniform, {}},  // a single group
  };
  for (const Case& base : cases) {
    for (Keys kind : {Keys::kUniform, Keys::kSkewed}) {
      Case c = base;
      c.keys = kind;
      c.aggs = aggs;
      c.validity = Bits::kRandom;
      for (size_t n : {size_t{0}, size_t{1}, size_t{17}, size_t{1025}, size_t{70001}}) {
        EXPECT_TRUE(RunCase(c, n, 1, n + 3, 0))
            << "key type " << static_cast<int>(c.key_type) << " min " << c.key_min << " n=" << n;
      }
    }
  }
}

TEST_P(SmallGroupTest, KeysOutsideTheRangeAreIgnored) {
  const std::vector<SmallGroupAggregate> aggs = {{T::kFloat64, false, true},
                                                 {T::kInt64, true, true}};
  // Data from 0..999, table for 300..599 only; uint16 keys below key_min wrap around.
  for (SmallGroupType kt : {T::kUInt16, T::kInt32, T::kInt64, T::kUInt64}) {
    Case c{kt, 300, 300, 0, 1000, Keys::kUniform, aggs};
    c.validity = Bits::kRandom;
    for (size_t n : {size_t{1}, size_t{100}, size_t{5000}}) {
      EXPECT_TRUE(RunCase(c, n, 0, n, 0)) << static_cast<int>(kt) << " n=" << n;
    }
  }
  Case c8{T::kUInt8, 100, 50, 0, 256, Keys::kUniform, aggs};
  EXPECT_TRUE(RunCase(c8, 3000, 2, 1, 0));
}

TEST_P(SmallGroupTest, MasksAndNulls) {
  for (Bits sel : {Bits::kNone, Bits::kAll, Bits::kNoBits, Bits::kRandom, Bits::kSparse,
                   Bits::kSomeBlocks}) {
    for (Bits valid : {Bits::kNone, Bits::kAll, Bits::kNoBits, Bits::kRandom, Bits::kSparse}) {
      Case c{T::kUInt16, 0, 700, 0, 700, Keys::kSkewed, AllAggregates()};
      c.selection = sel;
      c.validity = valid;
      for (size_t n : {size_t{0}, size_t{5}, size_t{64}, size_t{65}, size_t{1500}, size_t{5000}}) {
        EXPECT_TRUE(RunCase(c, n, 2, n * 3 + 1, 0))
            << "selection " << static_cast<int>(sel) << " validity " << static_cast<int>(valid)
            << " n=" << n;
      }
    }
  }
}

TEST_P(SmallGroupTest, SpecialFloatsAndIntegerExtremes) {
  for (Values v : {Values::kSpecial, Values::kExtremes, Values::kCancellation}) {
    for (Keys kind : {Keys::kUniform, Keys::kSkewed, Keys::kFewDistinct}) {
      Case c{T::kInt16, -3, 7, -3, 7, kind, AllAggregates()};
      c.values = v;
      c.validity = Bits::kRandom;
      for (size_t n : {size_t{1}, size_t{9}, size_t{333}, size_t{20000}}) {
        EXPECT_TRUE(RunCase(c, n, 1, n * 5 + 2, 0))
            << "values " << static_cast<int>(v) << " keys " << static_cast<int>(kind) << " n=" << n;
      }
    }
  }
}

TEST_P(SmallGroupTest, EveryInterleaveGivesTheSameResults) {
  // Against the reference (so also against each other), with a first_row that is not a
  // multiple of the sub-table count.
  for (size_t k : {size_t{1}, size_t{2}, size_t{4}, size_t{8}}) {
    for (Keys kind : {Keys::kUniform, Keys::kSkewed}) {
      Case c{T::kUInt8, 0, 256, 0, 256, kind, AllAggregates()};
      c.values = Values::kCancellation;
      c.selection = Bits::kRandom;
      c.validity = Bits::kRandom;
      for (size_t n : {size_t{3}, size_t{1000}, size_t{100003}}) {
        EXPECT_TRUE(RunCase(c, n, 3, n, k, /*first_row=*/7)) << "K=" << k << " n=" << n;
      }
    }
  }
}

TEST_P(SmallGroupTest, SplitUpdatesEqualOneUpdate) {
  // Consecutive Update calls with their global first_row are one Update over all rows, also
  // with splits that are not multiples of 64 or 4 (each call gets its own masks from row 0).
  Case c{T::kInt32, -100, 200, -100, 200, Keys::kSkewed, AllAggregates()};
  c.values = Values::kCancellation;
  c.validity = Bits::kRandom;
  const size_t n = 20011;
  const Inputs in = MakeInputs(c, n, 0, 42);
  reference::SmallGroupBy want(c.key_type, c.key_min, c.slots, c.aggs);
  want.Update(in.keys.data(), n, nullptr, in.columns.data(), 0);
  for (size_t cut : {size_t{1}, size_t{63}, size_t{64}, size_t{1027}, size_t{20010}}) {
    SmallGroupBy got(c.key_type, c.key_min, c.slots, c.aggs);
    for (size_t begin = 0; begin < n; begin += cut) {
      const size_t rows = std::min(cut, n - begin);
      std::vector<std::vector<uint64_t>> validity(c.aggs.size());
      std::vector<SmallGroupColumn> cols(c.aggs.size());
      for (size_t a = 0; a < c.aggs.size(); ++a) {
        const size_t bytes = SmallGroupTypeBytes(c.aggs[a].type);
        cols[a].values = static_cast<const uint8_t*>(in.columns[a].values) + begin * bytes;
        if (in.columns[a].validity != nullptr) {
          validity[a].assign(BitmaskWords(rows), 0);
          for (size_t i = 0; i < rows; ++i) {
            if (BitmaskGet(in.columns[a].validity, begin + i)) BitmaskSet(validity[a].data(), i);
          }
          cols[a].validity = validity[a].data();
        }
      }
      got.Update(static_cast<const int32_t*>(in.keys.data()) + begin, rows, nullptr, cols.data(),
                 begin);
    }
    EXPECT_TRUE(SameResults(got, want, c.aggs)) << "cut " << cut;
  }
}

TEST_P(SmallGroupTest, MergeOfTwoRanges) {
  Case c{T::kUInt16, 10, 5000, 10, 5000, Keys::kSkewed, AllAggregates()};
  c.values = Values::kCancellation;
  c.validity = Bits::kRandom;
  c.selection = Bits::kRandom;
  const Inputs first = MakeInputs(c, 7777, 0, 1);
  const Inputs second = MakeInputs(c, 3001, 1, 2);
  reference::SmallGroupBy want(c.key_type, c.key_min, c.slots, c.aggs);
  reference::SmallGroupBy want_later(c.key_type, c.key_min, c.slots, c.aggs);
  want.Update(first.keys.data(), 7777, first.selection.data(), first.columns.data(), 0);
  want_later.Update(second.keys.data(), 3001, second.selection.data(), second.columns.data(), 7777);
  want.Merge(want_later);
  for (size_t k1 : {size_t{1}, size_t{8}}) {
    for (size_t k2 : {size_t{2}, size_t{8}}) {
      SmallGroupBy got(c.key_type, c.key_min, c.slots, c.aggs, k1);
      SmallGroupBy got_later(c.key_type, c.key_min, c.slots, c.aggs, k2);
      got.Update(first.keys.data(), 7777, first.selection.data(), first.columns.data(), 0);
      got_later.Update(second.keys.data(), 3001, second.selection.data(), second.columns.data(),
                       7777);
      got.Merge(got_later);
      EXPECT_TRUE(SameResults(got, want, c.aggs)) << "K " << k1 << " + " << k2;
    }
  }
}

TEST_P(SmallGroupTest, FoldsKeepIntegerSumsExact) {
  // Integer partial sums fold into 128-bit totals every 64 rows here instead of every 2^31:
  // the results must not change, and int64 extremes must still sum exactly (with carries).
  Case c{T::kUInt8, 0, 4, 0, 4, Keys::kSkewed, AllAggregates()};
  c.values = Values::kExtremes;
  c.validity = Bits::kRandom;
  for (uint64_t flush : {uint64_t{64}, uint64_t{1000}, uint64_t{4096}}) {
    const size_t n = 50001;
    const Inputs in = MakeInputs(c, n, 1, flush);
    SmallGroupBy got(c.key_type, c.key_min, c.slots, c.aggs, 2);
    got.SetFlushRowsForTesting(flush);
    reference::SmallGroupBy want(c.key_type, c.key_min, c.slots, c.aggs);
    got.Update(in.keys.data(), n, nullptr, in.columns.data(), 0);
    got.Update(in.keys.data(), n, nullptr, in.columns.data(), n);
    want.Update(in.keys.data(), n, nullptr, in.columns.data(), 0);
    want.Update(in.keys.data(), n, nullptr, in.columns.data(), n);
    EXPECT_TRUE(SameResults(got, want, c.aggs)) << "flush every " << flush;
  }
  // n * INT64_MAX in one group: far beyond 64 bits.
  const size_t n = 10000;
  std::vector<uint8_t> keys(n, 0);
  std::vector<int64_t> big(n, std::numeric_limits<int64_t>::max());
  std::vector<SmallGroupAggregate> aggs = {{T::kInt64, false, false}};
  SmallGroupColumn col{big.data(), nullptr};
  SmallGroupBy got(T::kUInt8, 0, 256, aggs);
  got.Update(keys.data(), n, nullptr, &col, 0);
  EXPECT_EQ(Str(static_cast<Int128>(n) * std::numeric_limits<int64_t>::max()),
            Str(got.SumInt(0, 0)));
}

TEST_P(SmallGroupTest, EmptyAndNoAggregates) {
  // COUNT(*) alone (GROUP BY AdvEngineID) and an all-nullable list both need the row counts.
  const std::vector<std::vector<SmallGroupAggregate>> lists = {
      {}, {{T::kFloat64, true, false}}, {{T::kInt32, true, true}, {T::kInt16, true, false}}};
  for (const auto& aggs : lists) {
    Case c{T::kUInt8, 0, 256, 0, 256, Keys::kSkewed, aggs};
    c.selection = Bits::kRandom;
    c.validity = Bits::kRandom;
    for (size_t n : kSizes) EXPECT_TRUE(RunCase(c, n, 0, n, 0)) << aggs.size() << " n=" << n;
  }
  SmallGroupBy empty(T::kInt32, 5, 10, AllAggregates());
  EXPECT_TRUE(empty.GroupSlots().empty());
  empty.Update(nullptr, 0, nullptr, nullptr, 0);
  EXPECT_TRUE(empty.GroupSlots().empty());
}

TEST_P(SmallGroupTest, GroupsAreListedInKeyOrder) {
  const std::vector<int16_t> keys = {5, -3, 5, 100, -3, -3, 0};
  const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7};
  const std::vector<SmallGroupAggregate> aggs = {{T::kFloat64, false, true}};
  SmallGroupColumn col{values.data(), nullptr};
  SmallGroupBy g(T::kInt16, -3, 104, aggs);
  g.Update(keys.data(), keys.size(), nullptr, &col, 0);
  std::vector<int64_t> listed;
  for (uint32_t slot : g.GroupSlots()) listed.push_back(g.KeyOfSlot(slot));
  EXPECT_EQ((std::vector<int64_t>{-3, 0, 5, 100}), listed);
  EXPECT_EQ(3u, g.RowCount(0));                        // key -3
  EXPECT_EQ(13.0, g.SumFloat(0, 0));
  EXPECT_EQ(2.0, g.MinFloat(0, 0));
  EXPECT_EQ(6.0, g.MaxFloat(0, 0));
  EXPECT_EQ(2.0, g.Avg(0, 8));                         // key 5: (1 + 3) / 2
}

TEST_P(SmallGroupTest, FloatMinMaxTotalOrder) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Expect {
    std::vector<double> values;
    double min, max;
  };
  const std::vector<Expect> cases = {
      {{0.0, -0.0}, -0.0, 0.0},   {{-0.0, 0.0}, -0.0, 0.0},    {{nan, 1.0}, 1.0, nan},
      {{-nan, -inf}, -inf, nan},  {{nan}, nan, nan},           {{inf, -inf, 3.0}, -inf, inf},
  };
  const std::vector<SmallGroupAggregate> aggs = {{T::kFloat64, false, true}};
  for (const Expect& e : cases) {
    const std::vector<uint8_t> keys(e.values.size(), 1);
    SmallGroupColumn col{e.values.data(), nullptr};
    SmallGroupBy g(T::kUInt8, 0, 2, aggs);
    g.Update(keys.data(), keys.size(), nullptr, &col, 0);
    EXPECT_TRUE(SameDouble(e.min, g.MinFloat(0, 1))) << g.MinFloat(0, 1);
    EXPECT_TRUE(SameDouble(e.max, g.MaxFloat(0, 1))) << g.MaxFloat(0, 1);
    if (std::isnan(e.max)) {  // the canonical quiet NaN, whatever the input's sign or payload
      const double got = g.MaxFloat(0, 1);
      uint64_t bits;
      std::memcpy(&bits, &got, sizeof bits);
      EXPECT_EQ(0x7FF8000000000000u, bits);
    }
  }
}

TEST_P(SmallGroupTest, KeyRangeMatchesScalar) {
  std::mt19937_64 rng(3);
  for (SmallGroupType kt : {T::kInt8, T::kUInt8, T::kInt16, T::kUInt16, T::kInt32, T::kUInt32,
                            T::kInt64, T::kUInt64}) {
    for (size_t n : kSizes) {
      if (n == 0) continue;
      for (size_t pad : {size_t{0}, size_t{1}, size_t{3}}) {
        const bool wide = SmallGroupTypeBytes(kt) == 8;
        Column keys = MakeKeys(kt, n, pad, wide ? -(int64_t{1} << 50) : -100, 60000,
                               Keys::kUniform, rng);
        const size_t bits = 8 * SmallGroupTypeBytes(kt);
        const bool is_signed = kt == T::kInt8 || kt == T::kInt16 || kt == T::kInt32 ||
                               kt == T::kInt64;
        // The type's extremes at random positions, the last row included.
        const uint64_t ones = ~uint64_t{0} >> (64 - bits);
        if (n > 2) keys.Set(rng() % n, is_signed ? static_cast<int64_t>(~(ones >> 1)) : 0);
        if (n > 3) keys.Set(n - 1, static_cast<int64_t>(is_signed ? ones >> 1 : ones));
        int64_t want_min = 0, want_max = 0;
        for (size_t i = 0; i < n; ++i) {
          uint64_t raw = 0;  // little-endian, as every target we build for
          std::memcpy(&raw, static_cast<const uint8_t*>(keys.data()) + i * (bits / 8), bits / 8);
          int64_t v = static_cast<int64_t>(raw);
          if (is_signed && bits < 64) v = static_cast<int64_t>(raw << (64 - bits)) >> (64 - bits);
          const bool less_min = kt == T::kUInt64 ? static_cast<uint64_t>(v) <
                                                       static_cast<uint64_t>(want_min)
                                                 : v < want_min;
          const bool more_max = kt == T::kUInt64 ? static_cast<uint64_t>(v) >
                                                       static_cast<uint64_t>(want_max)
                                                 : v > want_max;
          if (i == 0 || less_min) want_min = v;
          if (i == 0 || more_max) want_max = v;
        }
        int64_t got_min = 1, got_max = 1;
        ASSERT_TRUE(SmallGroupKeyRange(keys.data(), kt, n, &got_min, &got_max));
        EXPECT_EQ(want_min, got_min) << static_cast<int>(kt) << " n=" << n;
        EXPECT_EQ(want_max, got_max) << static_cast<int>(kt) << " n=" << n;
      }
    }
  }
  int64_t lo, hi;
  EXPECT_FALSE(SmallGroupKeyRange(nullptr, T::kInt32, 0, &lo, &hi));
  EXPECT_EQ(65536u, SmallGroupSlotsForRange(T::kInt32, 1000, 66535));
  EXPECT_EQ(0u, SmallGroupSlotsForRange(T::kInt32, 1000, 66536));
  EXPECT_EQ(1u, SmallGroupSlotsForRange(T::kUInt64, -1, -1));
  EXPECT_EQ(0u, SmallGroupSlotsForRange(T::kInt64, std::numeric_limits<int64_t>::min(),
                                        std::numeric_limits<int64_t>::max()));
}

TEST_P(SmallGroupTest, DefaultInterleave) {
  for (size_t slots : {size_t{1}, size_t{256}, size_t{1000}, size_t{4096}, size_t{65536}}) {
    const size_t k = SmallGroupDefaultInterleave(slots);
    EXPECT_TRUE(k == 1 || k == 2 || k == 4 || k == 8) << k;
    EXPECT_EQ(k, SmallGroupBy(T::kUInt16, 0, slots, {}).interleave());
  }
  EXPECT_EQ(4u, SmallGroupDefaultInterleave(256));   // a hot key needs copies
  EXPECT_EQ(1u, SmallGroupDefaultInterleave(65536)); // a big table needs its cache
}

TEST(SmallGroupOrder, TestDataIsOrderSensitive) {
  // Guards the float tests: with this data, sums in another order (one plain accumulator per
  // group, or the second half of the rows placed as if it started at row 0) give different bits
  // for some group, so a kernel that ignored the defined order or first_row could not pass.
  Case c{T::kUInt8, 0, 4, 0, 4, Keys::kSkewed, {{T::kFloat64, false, false}}};
  c.values = Values::kCancellation;
  const size_t n = 4002, half = 2001;
  const Inputs in = MakeInputs(c, n, 0, 11);
  reference::SmallGroupBy defined(c.key_type, 0, 4, c.aggs), restarted(c.key_type, 0, 4, c.aggs);
  defined.Update(in.keys.data(), n, nullptr, in.columns.data(), 0);
  const SmallGroupColumn second{static_cast<const double*>(in.values[0].data()) + half, nullptr};
  restarted.Update(in.keys.data(), half, nullptr, in.columns.data(), 0);
  restarted.Update(static_cast<const uint8_t*>(in.keys.data()) + half, n - half, nullptr, &second,
                   0);
  std::vector<double> plain(4, 0.0);
  for (size_t i = 0; i < n; ++i) {
    plain[static_cast<const uint8_t*>(in.keys.data())[i]] +=
        static_cast<const double*>(in.values[0].data())[i];
  }
  bool plain_differs = false, restart_differs = false;
  for (size_t s = 0; s < 4; ++s) {
    plain_differs |= !SameDouble(plain[s], defined.SumFloat(0, s));
    restart_differs |= !SameDouble(restarted.SumFloat(0, s), defined.SumFloat(0, s));
  }
  EXPECT_TRUE(plain_differs);
  EXPECT_TRUE(restart_differs);
}

}  // namespace
}  // namespace laneql
