// The library aggregates (plan/aggregate_functions.h) over a table large enough for every
// parallel path: the same bits on 1, 2 and 4 threads, and values against plain references
// computed here (two-pass variance, a sorted median, exact distinct counts).
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"
#include "result_rows.h"

namespace laneql {
namespace {

constexpr int kRows = 200'000;

struct Data {
  std::vector<int32_t> g;
  std::vector<double> x;     // NaN marks NULL
  std::vector<int64_t> i;
  std::vector<std::string> s;
};

const Data& TheData() {
  static const Data data = [] {
    Data d;
    std::mt19937_64 rng(43);
    for (int r = 0; r < kRows; ++r) {
      const uint64_t v = rng();
      d.g.push_back(static_cast<int32_t>(v % 997));
      d.x.push_back(v % 17 == 0 ? std::nan("") : static_cast<double>((v >> 20) % 100000) / 7.0 - 5000.0);
      d.i.push_back(static_cast<int64_t>((v >> 8) % 50000) - 100);
      d.s.push_back("s" + std::to_string((v >> 30) % 3000));
    }
    return d;
  }();
  return data;
}

std::shared_ptr<const Table> MakeTable() {
  const Data& d = TheData();
  Column g(TypeId::kInt32), x(TypeId::kFloat64), i(TypeId::kInt64), s(TypeId::kString);
  std::string error;
  for (int r = 0; r < kRows; ++r) {
    EXPECT_TRUE(g.Append<int32_t>(d.g[r], &error));
    EXPECT_TRUE(std::isnan(d.x[r]) ? x.AppendNull(&error) : x.Append<double>(d.x[r], &error));
    EXPECT_TRUE(i.Append<int64_t>(d.i[r], &error));
    EXPECT_TRUE(s.AppendString(d.s[r], &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("g", std::move(g), &error)) << error;
  EXPECT_TRUE(table->AddColumn("x", std::move(x), &error)) << error;
  EXPECT_TRUE(table->AddColumn("i", std::move(i), &error)) << error;
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error)) << error;
  return table;
}

DatabaseOptions Threads(int threads) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;  // the parallel paths, too
  return options;
}

std::string Csv(const Result& result) {
  EXPECT_TRUE(result.ok()) << result.error();
  return PrintCsv(result);
}

const char* const kAggregates =
    "stddev_samp(x), var_pop(i), covar_pop(x, i), corr(i, x), regr_slope(x, i), regr_intercept(x, i), "
    "regr_r2(x, i), regr_count(x, i), median(x), quantile_cont(i, 0.9), quantile_disc(s, 0.25), "
    "approx_quantile(i, 0.5), mode(s), arg_min(s, x), arg_max(i, x), any_value(x), first(x), last(s), "
    "bit_xor(i), bit_or(i), sum(DISTINCT x), avg(DISTINCT i), approx_count_distinct(s), "
    "length(string_agg(s, ',')), md5(string_agg(s, '' ORDER BY i, x DESC)), first(s ORDER BY x DESC), "
    "length(string_agg(DISTINCT s, ','))";

const char* const kBatchFolded =
    "stddev_samp(x), var_pop(i), covar_samp(x, i), corr(i, x), regr_slope(x, i), regr_intercept(x, i), "
    "arg_min(s, x), arg_max(i, x), min_by(x, s), max_by(s, i), any_value(x), first(x), last(s), "
    "md5(string_agg(s, ','))";

const char* const kBatchFoldedGrouped =
    "stddev_samp(x), var_pop(i), covar_samp(x, i), corr(i, x), regr_slope(x, i), regr_intercept(x, i), "
    "arg_min(s, x), arg_max(i, x), min_by(x, s), max_by(s, i), any_value(x), first(x), last(s)";

TEST(AggregateFunctionsTest, SameBitsOnEveryThreadCount) {
  const auto table = MakeTable();
  const std::string queries[] = {
      std::string("SELECT ") + kAggregates + " FROM t",
      std::string("SELECT g, ") + kAggregates + " FROM t GROUP BY g ORDER BY g",
      std::string("SELECT g % 3 AS k, ") + kAggregates + " FROM t WHERE i > 0 GROUP BY k ORDER BY k",
      // Only aggregates that fold batch by batch (FoldsByBatches) or merge by their rows (the
      // picks): ungrouped, on every thread.
      std::string("SELECT ") + kBatchFolded + " FROM t",
      std::string("SELECT ") + kBatchFolded + ", sum(x), count(*) FROM t WHERE i % 5 <> 1",
      // Grouped over few groups (by batch partials on tables large enough to be sampled:
      // sql_engine_threads_test.cc).
      std::string("SELECT g % 7 AS k, ") + kBatchFoldedGrouped + " FROM t GROUP BY k ORDER BY k",
      std::string("SELECT g % 40 AS k, ") + kBatchFoldedGrouped + ", sum(x) FROM t WHERE i > 9 GROUP BY k ORDER BY k",
  };
  for (const std::string& sql : queries) {
    std::string expected;
    for (int threads : {1, 2, 4}) {
      std::string error;
      Database db(Threads(threads));
      ASSERT_TRUE(db.Register("t", table, &error)) << error;
      const std::string got = Csv(db.Query(sql));
      if (threads == 1) expected = got;
      else EXPECT_EQ(got, expected) << threads << " threads: " << sql;
    }
  }
}

TEST(AggregateFunctionsTest, MatchPlainReferences) {
  const Data& d = TheData();
  std::string error;
  Database db(Threads(2));
  ASSERT_TRUE(db.Register("t", MakeTable(), &error)) << error;
  const auto rows = testing::ResultRows(db.Query(
      "SELECT stddev_samp(x), median(x), quantile_disc(i, 0.3), approx_count_distinct(i), "
      "count(DISTINCT i), sum(DISTINCT i), var_pop(i) FROM t"));
  ASSERT_EQ(rows.size(), 1u) << rows[0];
  std::vector<double> xs;
  for (double v : d.x) {
    if (!std::isnan(v)) xs.push_back(v);
  }
  double mean = 0;
  for (double v : xs) mean += v;
  mean /= static_cast<double>(xs.size());
  double squares = 0;
  for (double v : xs) squares += (v - mean) * (v - mean);
  const double stddev = std::sqrt(squares / static_cast<double>(xs.size() - 1));
  std::sort(xs.begin(), xs.end());
  const size_t n = xs.size();
  const double position = static_cast<double>(n - 1) * 0.5;
  const size_t lo = static_cast<size_t>(position);
  const double median = xs[lo] + (position - static_cast<double>(lo)) * (xs[std::min(lo + 1, n - 1)] - xs[lo]);
  std::vector<int64_t> is = d.i;
  std::sort(is.begin(), is.end());
  const int64_t disc = is[static_cast<size_t>(std::ceil(0.3 * static_cast<double>(is.size()))) - 1];
  const std::set<int64_t> distinct(d.i.begin(), d.i.end());
  long double distinct_sum = 0;
  for (int64_t v : distinct) distinct_sum += static_cast<long double>(v);

  std::vector<std::string> cells;
  size_t start = 0;
  for (size_t bar; (bar = rows[0].find('|', start)) != std::string::npos; start = bar + 1) {
    cells.push_back(rows[0].substr(start, bar - start));
  }
  cells.push_back(rows[0].substr(start));
  ASSERT_EQ(cells.size(), 7u);
  EXPECT_NEAR(std::stod(cells[0]), stddev, 1e-9 * stddev);
  EXPECT_DOUBLE_EQ(std::stod(cells[1]), median);
  EXPECT_EQ(std::stoll(cells[2]), disc);
  // HyperLogLog with 4,096 registers: a standard error of 1.6 %; 5 % is three of them.
  const double exact = static_cast<double>(distinct.size());
  EXPECT_NEAR(std::stod(cells[3]), exact, 0.05 * exact);
  EXPECT_EQ(std::stoll(cells[4]), static_cast<long long>(distinct.size()));
  EXPECT_EQ(cells[5], std::to_string(static_cast<long long>(distinct_sum)));
  EXPECT_GT(std::stod(cells[6]), 0);
}

// Ungrouped picks (which keep their rows and merge by them) and string_agg (folded batch by
// batch, FoldsByBatches) on several threads: the rows' order is kept, ties going to the
// earliest row.
TEST(AggregateFunctionsTest, PicksAndStringAggKeepRowOrderOnEveryThreadCount) {
  const Data& d = TheData();
  size_t min_x = 0, max_i = 0;  // the first row of the least x (NULLs skipped) and of the most i
  for (size_t r = 0; r < d.x.size(); ++r) {
    if (!std::isnan(d.x[r]) && (std::isnan(d.x[min_x]) || d.x[r] < d.x[min_x])) min_x = r;
    if (d.i[r] > d.i[max_i]) max_i = r;
  }
  std::string joined;
  for (const std::string& v : d.s) joined += (joined.empty() ? "" : ",") + v;
  const std::string expected = d.s[min_x] + "|" + d.s[max_i] + "|" + d.s.front() + "|" + d.s.back() + "|" +
                               std::to_string(joined.size());
  for (int threads : {1, 2, 3}) {
    std::string error;
    Database db(Threads(threads));
    ASSERT_TRUE(db.Register("t", MakeTable(), &error)) << error;
    const Result result =
        db.Query("SELECT arg_min(s, x), arg_max(s, i), first(s), last(s), strlen(string_agg(s, ',')), "
                 "string_agg(s, ',') FROM t");
    ASSERT_TRUE(result.ok()) << result.error();
    const auto rows = testing::ResultRows(result);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].substr(0, expected.size() + 1), expected + "|") << threads << " threads";
    EXPECT_EQ(rows[0].substr(expected.size() + 1), joined) << threads << " threads";
  }
}

// The same grouped over few groups (picks merged by row across threads): each group's first,
// last and least.
TEST(AggregateFunctionsTest, GroupedPicksKeepRowOrderOnEveryThreadCount) {
  const Data& d = TheData();
  constexpr int kGroups = 5;
  std::vector<int> first(kGroups, -1), last(kGroups, -1), min_x(kGroups, -1);
  for (int r = 0; r < kRows; ++r) {
    const int k = d.g[r] % kGroups;
    if (first[k] < 0) first[k] = r;
    last[k] = r;
    if (!std::isnan(d.x[r]) && (min_x[k] < 0 || d.x[r] < d.x[min_x[k]])) min_x[k] = r;
  }
  std::vector<std::string> expected;
  for (int k = 0; k < kGroups; ++k) {
    expected.push_back(std::to_string(k) + "|" + d.s[first[k]] + "|" + d.s[last[k]] + "|" + d.s[min_x[k]]);
  }
  for (int threads : {1, 2, 3}) {
    std::string error;
    Database db(Threads(threads));
    ASSERT_TRUE(db.Register("t", MakeTable(), &error)) << error;
    EXPECT_EQ(testing::ResultRows(db.Query("SELECT g % 5 AS k, first(s), last(s), arg_min(s, x) FROM t "
                                           "GROUP BY k ORDER BY k")),
              expected)
        << threads << " threads";
  }
}

TEST(AggregateFunctionsTest, ApproxCountDistinctIsExactForFewValues) {
  Database db;
  // Values 0 .. n-1 through a recursive CTE: exact below the sketch's 256 kept hashes.
  for (int n : {1, 2, 100, 256}) {
    const auto rows = testing::ResultRows(db.Query(
        "WITH RECURSIVE r(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM r WHERE v + 1 < " + std::to_string(n) +
        ") SELECT approx_count_distinct(v), approx_count_distinct(v % 7) FROM r"));
    EXPECT_EQ(rows, std::vector<std::string>{std::to_string(n) + "|" + std::to_string(std::min(n, 7))}) << n;
  }
}

TEST(AggregateFunctionsTest, ModeTiesGoToTheValueSeenFirst) {
  Database db;
  EXPECT_EQ(testing::ResultRows(db.Query("SELECT mode(x) FROM (VALUES (3), (1), (1), (3), (2)) v(x)")),
            std::vector<std::string>{"3"});
  EXPECT_EQ(testing::ResultRows(db.Query("SELECT mode(x) FROM (VALUES (1), (3), (3), (1), (2)) v(x)")),
            std::vector<std::string>{"1"});
  EXPECT_EQ(testing::ResultRows(db.Query("SELECT mode(x) FROM (VALUES ('b'), ('a'), (NULL), (NULL), ('a')) v(x)")),
            std::vector<std::string>{"a"});
}

}  // namespace
}  // namespace laneql
