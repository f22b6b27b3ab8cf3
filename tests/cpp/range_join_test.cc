// Joins whose condition bounds one side's expression by the other's (exec/query_range_join.cc):
// the sorted side's values searched between each other row's bounds. Answers are checked
// against plain loops that apply SQL's comparisons to the same generated rows (NULLs never
// match; NaN is the largest double and equal to itself; -0 = +0; BIGINT against DOUBLE compares
// as DOUBLE), for BETWEEN on either side, strict and non-strict bounds, one bound alone, band
// conditions over BIGINTs past 2^53 (where doubles round), dates, and LEFT joins, at 1 and 3
// threads.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"

namespace laneql {
namespace {

struct Side {
  std::vector<bool> null_i, null_f;
  std::vector<int64_t> i;  // BIGINT column i
  std::vector<double> f;   // DOUBLE column f
};

// BIGINTs from a small range and around 2^53 (where doubles step by 2), DOUBLEs from a pool
// with NaN, -0, +0 and infinities; about one value in 11 is NULL.
Side MakeSide(size_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int64_t big = int64_t{1} << 53;
  const double pool[] = {std::nan(""), -0.0, 0.0, 1.5, -2.0, 3.0, 7.25, 10.0, 1e300,
                         std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  Side s;
  for (size_t r = 0; r < rows; ++r) {
    s.null_i.push_back(rng() % 11 == 0);
    s.null_f.push_back(rng() % 11 == 0);
    s.i.push_back(rng() % 3 == 0 ? big + static_cast<int64_t>(rng() % 7) : static_cast<int64_t>(rng() % 40) - 20);
    s.f.push_back(rng() % 2 == 0 ? pool[rng() % (sizeof(pool) / sizeof(pool[0]))]
                                 : static_cast<double>(static_cast<int64_t>(rng() % 40) - 20) / 2);
  }
  return s;
}

std::shared_ptr<const Table> ToTable(const Side& s) {
  auto table = std::make_shared<Table>();
  Column id(TypeId::kInt64), i(TypeId::kInt64), f(TypeId::kFloat64), d(TypeId::kDate32);
  std::string error;
  for (size_t r = 0; r < s.i.size(); ++r) {
    EXPECT_TRUE(id.Append(static_cast<int64_t>(r), &error));
    EXPECT_TRUE(s.null_i[r] ? i.AppendNull(&error) : i.Append(s.i[r], &error));
    EXPECT_TRUE(s.null_f[r] ? f.AppendNull(&error) : f.Append(s.f[r], &error));
    // A date: days from the small BIGINTs (NULL with i).
    EXPECT_TRUE(s.null_i[r] ? d.AppendNull(&error) : d.Append(static_cast<int32_t>(s.i[r] % 1000 + 19000), &error));
  }
  EXPECT_TRUE(table->AddColumn("id", std::move(id), &error) && table->AddColumn("i", std::move(i), &error) &&
              table->AddColumn("f", std::move(f), &error) && table->AddColumn("d", std::move(d), &error))
      << error;
  return table;
}

// SQL's order of two doubles: NaN largest and equal to itself, -0 = +0.
int Cmp(double x, double y) {
  const bool xn = std::isnan(x), yn = std::isnan(y);
  if (xn || yn) return xn == yn ? 0 : (xn ? 1 : -1);
  return x < y ? -1 : (x > y ? 1 : 0);
}
int Cmp(int64_t x, int64_t y) { return x < y ? -1 : (x > y ? 1 : 0); }

// A value of a row: NULL or a number, compared as SQL compares its type with the other's.
struct Val {
  bool null;
  bool is_double;
  int64_t i;
  double f;
};
int Cmp(const Val& x, const Val& y) {
  if (!x.is_double && !y.is_double) return Cmp(x.i, y.i);
  return Cmp(x.is_double ? x.f : static_cast<double>(x.i), y.is_double ? y.f : static_cast<double>(y.i));
}

Val AsDouble(Val v) {
  if (!v.is_double) v.f = static_cast<double>(v.i);
  v.is_double = true;
  return v;
}

Val I(const Side& s, size_t r, int64_t plus = 0) { return Val{s.null_i[r], false, s.i[r] + plus, 0}; }
Val F(const Side& s, size_t r) { return Val{s.null_f[r], true, 0, s.f[r]}; }
Val D(const Side& s, size_t r) { return Val{s.null_i[r], false, s.i[r] % 1000 + 19000, 0}; }

// count(*), sum(a.id), sum(b.id) (NULLs as 0) and the a rows without a pair, by plain loops.
struct Expected {
  int64_t pairs = 0, a_sum = 0, b_sum = 0, a_alone = 0;
};

using Condition = std::function<bool(size_t a, size_t b)>;

Expected Loops(const Side& a, const Side& b, const Condition& holds) {
  Expected e;
  for (size_t x = 0; x < a.i.size(); ++x) {
    bool paired = false;
    for (size_t y = 0; y < b.i.size(); ++y) {
      if (!holds(x, y)) continue;
      paired = true;
      ++e.pairs;
      e.a_sum += static_cast<int64_t>(x);
      e.b_sum += static_cast<int64_t>(y);
    }
    e.a_alone += !paired;
  }
  return e;
}

// x op y for non-NULL values (op: "<", "<=", ">", ">=").
bool Holds(const Val& x, const char* op, const Val& y) {
  if (x.null || y.null) return false;
  const int c = Cmp(x, y);
  const std::string o = op;
  return o == "<" ? c < 0 : o == "<=" ? c <= 0 : o == ">" ? c > 0 : c >= 0;
}

int64_t Int(const Result& r, size_t column) {
  const std::string text = FormatValue(r.column(column), 0, ValueStyle::kText);
  return text == "NULL" ? 0 : std::stoll(text);
}

TEST(RangeJoinTest, BoundedConditionsMatchPlainLoops) {
  const Side a = MakeSide(700, 1), b = MakeSide(300, 2);
  const struct {
    std::string on;
    Condition holds;
  } cases[] = {
      {"a.f BETWEEN b.f AND b.i",
       [&](size_t x, size_t y) { return Holds(F(a, x), ">=", F(b, y)) && Holds(F(a, x), "<=", I(b, y)); }},
      {"b.i BETWEEN a.i AND a.f",  // all three compared as DOUBLE (the binder's one type for BETWEEN)
       [&](size_t x, size_t y) {
         return Holds(AsDouble(I(b, y)), ">=", AsDouble(I(a, x))) && Holds(AsDouble(I(b, y)), "<=", F(a, x));
       }},
      {"b.f <= a.f AND a.f < b.f + 4",
       [&](size_t x, size_t y) {
         const Val hi{b.null_f[y], true, 0, b.f[y] + 4};
         return Holds(F(b, y), "<=", F(a, x)) && Holds(F(a, x), "<", hi);
       }},
      {"a.i < b.i AND a.i + 2 >= b.i",  // a band over BIGINTs, some past 2^53
       [&](size_t x, size_t y) { return Holds(I(a, x), "<", I(b, y)) && Holds(I(a, x, 2), ">=", I(b, y)); }},
      {"a.i > b.f", [&](size_t x, size_t y) { return Holds(I(a, x), ">", F(b, y)); }},
      {"a.d BETWEEN b.d AND b.d + 3 AND a.id % 3 <> b.id % 5",  // dates, and a condition on both sides
       [&](size_t x, size_t y) {
         const Val hi{b.null_i[y], false, D(b, y).i + 3, 0};
         return Holds(D(a, x), ">=", D(b, y)) && Holds(D(a, x), "<=", hi) && x % 3 != y % 5;
       }},
  };
  for (int threads : {1, 3}) {
    DatabaseOptions options;
    options.threads = threads;
    options.min_parallel_rows = 0;
    Database db(options);
    std::string error;
    ASSERT_TRUE(db.Register("a", ToTable(a), &error) && db.Register("b", ToTable(b), &error)) << error;
    for (const auto& c : cases) {
      const Expected e = Loops(a, b, c.holds);
      ASSERT_GT(e.pairs, 0) << c.on;
      const Result inner = db.Query("SELECT count(*), sum(a.id), sum(b.id) FROM a JOIN b ON " + c.on);
      ASSERT_TRUE(inner.ok()) << c.on << ": " << inner.error();
      EXPECT_EQ(Int(inner, 0), e.pairs) << c.on << " threads " << threads;
      EXPECT_EQ(Int(inner, 1), e.a_sum) << c.on;
      EXPECT_EQ(Int(inner, 2), e.b_sum) << c.on;
      const Result left = db.Query("SELECT count(*) - count(b.id) FROM a LEFT JOIN b ON " + c.on);
      ASSERT_TRUE(left.ok()) << c.on << ": " << left.error();
      EXPECT_EQ(Int(left, 0), e.a_alone) << c.on << " threads " << threads;
    }
  }
}

}  // namespace
}  // namespace laneql
