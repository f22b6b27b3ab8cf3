// The SQL engine end to end (Database::Query) on small tables whose answers are worked out by
// hand or by a plain C++ loop here, plus the plan rewrites and the lightweight-query path.
// The engine-neutral corpus (tests/sql) and the DuckDB oracle (tests/diff) test it further.
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "bind_sql.h"

#include "laneql/database.h"
#include "laneql/result.h"
#include "result_rows.h"
#include "src/plan/binder.h"
#include "src/sql/parser.h"

namespace laneql {
namespace {

Column Ints(const std::vector<int64_t>& values, const std::vector<bool>& nulls = {}) {
  Column column(TypeId::kInt64);
  std::string error;
  for (size_t i = 0; i < values.size(); ++i) {
    const bool ok = (i < nulls.size() && nulls[i]) ? column.AppendNull(&error)
                                                   : column.Append<int64_t>(values[i], &error);
    EXPECT_TRUE(ok) << error;
  }
  return column;
}

template <class T>
Column Typed(TypeId type, const std::vector<T>& values) {
  Column column(type);
  std::string error;
  for (T v : values) EXPECT_TRUE(column.Append<T>(v, &error)) << error;
  return column;
}

Column Strings(const std::vector<std::string>& values, const std::vector<bool>& nulls = {}) {
  Column column(TypeId::kString);
  std::string error;
  for (size_t i = 0; i < values.size(); ++i) {
    const bool ok = (i < nulls.size() && nulls[i]) ? column.AppendNull(&error)
                                                   : column.AppendString(values[i], &error);
    EXPECT_TRUE(ok) << error;
  }
  return column;
}

std::vector<std::string> Rows(const Result& result) { return testing::ResultRows(result); }

class SqlEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Table t;
    std::string error;
    // k: group key with a NULL; x: ints with a NULL; s: strings; d: dates; f: doubles.
    ASSERT_TRUE(t.AddColumn("k", Ints({1, 2, 1, 3, 2, 1, 0}, {false, false, false, false, false, false, true}), &error));
    ASSERT_TRUE(t.AddColumn("x", Ints({10, 20, 30, 40, 50, 60, 70}, {false, false, false, true, false, false, false}), &error));
    ASSERT_TRUE(t.AddColumn("s", Strings({"apple", "", "google.com", "Яндекс", "apple", "b", "x"}), &error));
    ASSERT_TRUE(t.AddColumn("d", Typed<int32_t>(TypeId::kDate32, {15887, 15888, 15889, 15900, 15917, 15918, 15887}), &error));
    ASSERT_TRUE(t.AddColumn("f", Typed<double>(TypeId::kFloat64, {0.5, -0.0, 0.0, NAN, 2.5, 1e300, -1}), &error));
    ASSERT_TRUE(t.AddColumn("sm", Typed<int16_t>(TypeId::kInt16, {32767, 1, 2, 3, 4, 5, 6}), &error));
    ASSERT_TRUE(db_.Register("t", std::move(t), &error)) << error;
  }
  std::vector<std::string> Query(const std::string& sql) {
    Result r = db_.Query(sql);
    EXPECT_TRUE(r.ok()) << sql << "\n" << r.error();
    return Rows(r);
  }
  std::string Error(const std::string& sql) {
    Result r = db_.Query(sql);
    EXPECT_FALSE(r.ok()) << sql;
    return r.error();
  }
  Database db_;
};

TEST_F(SqlEngineTest, UngroupedAggregatesAndTypes) {
  Result r = db_.Query("SELECT count(*), count(x), sum(x), avg(x), min(x), max(s), min(d), sum(f) FROM t WHERE k IS NOT NULL");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(Rows(r), std::vector<std::string>({"6|5|170|34.0|10|Яндекс|2013-07-01|nan"}));
  const char* types[] = {"BIGINT", "BIGINT", "HUGEINT", "DOUBLE", "BIGINT", "VARCHAR", "DATE", "DOUBLE"};
  for (size_t c = 0; c < 8; ++c) EXPECT_STREQ(DuckDbTypeName(r.type(c)), types[c]) << c;
  EXPECT_EQ(r.name(0), "count_star()");
}

TEST_F(SqlEngineTest, EmptyInputGivesOneRowOfNulls) {
  EXPECT_EQ(Query("SELECT count(*), sum(x), min(s), avg(f) FROM t WHERE x > 1000"),
            std::vector<std::string>({"0|NULL|NULL|NULL"}));
  EXPECT_TRUE(Query("SELECT k, count(*) FROM t WHERE x > 1000 GROUP BY k").empty());
}

TEST_F(SqlEngineTest, GroupByWithNullKeyOrderAndHaving) {
  EXPECT_EQ(Query("SELECT k, count(*) AS c, sum(x) FROM t GROUP BY k ORDER BY k"),
            std::vector<std::string>({"1|3|100", "2|2|70", "3|1|NULL", "NULL|1|70"}));
  EXPECT_EQ(Query("SELECT k, count(*) AS c FROM t GROUP BY 1 HAVING count(*) > 1 ORDER BY c DESC, k"),
            std::vector<std::string>({"1|3", "2|2"}));
  EXPECT_EQ(Query("SELECT s, count(DISTINCT k) FROM t GROUP BY s ORDER BY s LIMIT 2 OFFSET 1"),
            std::vector<std::string>({"apple|2", "b|1"}));
}

// The highest operator chains the parser accepts, in every clause of a GROUP BY query: the
// binder matches every subtree against the group keys, which once copied each subtree's
// fingerprint into its parent's (cubic in the height: seconds for these, found by the SQL
// fuzzer); the stack must hold the recursion of every pass, natively and in wasm.
TEST_F(SqlEngineTest, DeepChainsInEveryClauseOfAGroupedQuery) {
  std::string ks = "k", xs = "x";
  for (int i = 1; i < 990; ++i) {
    ks += " + k";
    xs += " + x";
  }
  EXPECT_EQ(Query("SELECT k, " + ks + " AS s, max(" + xs + ") FROM t WHERE k IS NOT NULL AND " +
                  ks + " > 0 GROUP BY k HAVING min(" + xs + ") > 0 ORDER BY " + ks + " DESC"),
            std::vector<std::string>({"2|1980|49500", "1|990|59400"}));
  // Over a group key that is itself a chain (300 high: each subtree is compared with the key's
  // fingerprint, built up to the key's length, so this costs height x key).
  std::string key = "k";
  for (int i = 1; i < 300; ++i) key += " + k";
  EXPECT_EQ(Query("SELECT " + key + ", count(*) FROM t GROUP BY " + key + " ORDER BY " + key),
            std::vector<std::string>({"300|3", "600|2", "900|1", "NULL|1"}));
}

TEST_F(SqlEngineTest, ExpressionsFollowDuckDb) {
  EXPECT_EQ(Query("SELECT x / 4, x % 7, -x, x + 1 FROM t WHERE k = 1 ORDER BY x"),
            std::vector<std::string>({"2.5|3|-10|11", "7.5|2|-30|31", "15.0|4|-60|61"}));
  EXPECT_EQ(Query("SELECT CASE WHEN x > 30 THEN 'big' WHEN x IS NULL THEN 'none' ELSE s END FROM t ORDER BY k NULLS FIRST, x"),
            std::vector<std::string>({"big", "apple", "google.com", "big", "", "big", "none"}));
  EXPECT_EQ(Query("SELECT count(*) FROM t WHERE d BETWEEN '2013-07-01' AND '2013-07-03'"),
            std::vector<std::string>({"4"}));
  EXPECT_EQ(Query("SELECT extract(month FROM d), date_trunc('month', d), length(s), strlen(s) FROM t WHERE s = 'Яндекс'"),
            std::vector<std::string>({"7|2013-07-01 00:00:00|6|12"}));
  EXPECT_EQ(Query("SELECT count(*) FROM t WHERE s LIKE '%oo%' OR s ILIKE 'APP%'"), std::vector<std::string>({"3"}));
  EXPECT_EQ(Query("SELECT count(*) FROM t WHERE k IN (1, 3) AND NOT (x = 10)"), std::vector<std::string>({"2"}));
  // NULL in three-valued logic: k IS NULL row is not selected by k <> 1.
  EXPECT_EQ(Query("SELECT count(*) FROM t WHERE k <> 1"), std::vector<std::string>({"3"}));
  // -0.0 = 0.0 and NaN = NaN in DuckDB's comparisons.
  EXPECT_EQ(Query("SELECT count(*) FROM t WHERE f = 0"), std::vector<std::string>({"2"}));
  EXPECT_EQ(Query("SELECT count(*) FROM t WHERE f > 1e300"), std::vector<std::string>({"1"}));
  const std::string regexp =
      "SELECT regexp_replace('https://www.a.com/x', '^https?://(?:www\\.)?([^/]+)/.*$', '\\1') FROM t LIMIT 1";
  EXPECT_EQ(Query(regexp), std::vector<std::string>({"a.com"}));
}

TEST_F(SqlEngineTest, RuntimeErrorsAreReportedNotWrapped) {
  EXPECT_EQ(Error("SELECT sm + 1 FROM t"),
            "overflow error at line 1, column 8: Overflow in addition of INT16 (32767 + 1)");
  EXPECT_EQ(Error("SELECT count(*) FROM t WHERE d > 'yesterday'"),
            "conversion error at line 1, column 34: invalid date 'yesterday' (expected YYYY-MM-DD)");
  // The database stays usable after an error.
  EXPECT_EQ(Query("SELECT count(*) FROM t"), std::vector<std::string>({"7"}));
}

TEST_F(SqlEngineTest, NameErrorsSuggestClosestColumns) {
  Result r = db_.Query("SELECT kk FROM t");
  EXPECT_EQ(r.error(), "binder error at line 1, column 8: column \"kk\" not found in table \"t\"; did you mean \"k\"?");
  EXPECT_EQ(r.error_line(), 1);
  EXPECT_EQ(r.error_column(), 8);
  EXPECT_EQ(Error("SELECT k, x FROM t GROUP BY k"),
            "binder error at line 1, column 11: column \"x\" must appear in the GROUP BY clause or be used in an aggregate function");
  EXPECT_EQ(Error("SELECT * FROM nope"), "binder error at line 1, column 15: table \"nope\" does not exist");
}

// SUM(x +- k) is rewritten to SUM(x) +- k * COUNT(x): 90 sums over one column become 3 aggregates,
// and the answers equal the sums computed row by row.
TEST(SqlEngineRewrites, SumPlusConstantSharesOneSumAndCount) {
  std::mt19937_64 rng(7);
  std::vector<int64_t> values(5000);
  std::vector<bool> nulls(5000);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<int64_t>(rng() % 2000001) - 1000000;
    nulls[i] = rng() % 10 == 0;
  }
  Table table;
  std::string error;
  ASSERT_TRUE(table.AddColumn("x", Ints(values, nulls), &error));
  Database db;
  ASSERT_TRUE(db.Register("r", std::move(table), &error));
  std::string sql = "SELECT ";
  for (int k = 0; k < 90; ++k) sql += (k ? ", " : "") + std::string("SUM(x ") + (k % 2 ? "- " : "+ ") + std::to_string(k) + ")";
  sql += " FROM r";
  // Bound: 90 sums (SUM(x + 0) and SUM(x - 1) ... are different aggregates). Optimized:
  // SUM(x), COUNT(x), and MIN(x) for the overflow check of the x - k terms.
  EXPECT_EQ(BindSql(*db.FindTable("r"), sql, false).aggregates.size(), 90u);
  EXPECT_EQ(BindSql(*db.FindTable("r"), sql).aggregates.size(), 3u);
  Result r = db.Query(sql);
  ASSERT_TRUE(r.ok()) << r.error();
  for (int k = 0; k < 90; ++k) {
    __int128 expected = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      if (!nulls[i]) expected += values[i] + (k % 2 ? -k : k);
    }
    EXPECT_EQ(FormatValue(r.column(k), 0, ValueStyle::kText), Int128ToString(expected)) << k;
  }
}

// Strings of the rows a WHERE selects are gathered into a batch of their own (offsets first,
// then one copy per row): every length from 0 up, NULLs (whose stored bytes are not copied),
// multi-byte text, across batch boundaries; the same rows as a plain loop picks.
TEST(SqlEngineGather, SelectedStringsKeepTheirBytesAndNulls) {
  const size_t rows = 40000;
  std::vector<std::string> values(rows);
  std::vector<bool> nulls(rows);
  std::vector<int64_t> xs(rows);
  for (size_t i = 0; i < rows; ++i) {
    xs[i] = static_cast<int64_t>(i);
    nulls[i] = i % 7 == 3;
    values[i] = std::string(i % 97, static_cast<char>('a' + i % 26)) + (i % 5 == 0 ? "Яндекс" : "");
  }
  Table t;
  std::string error;
  ASSERT_TRUE(t.AddColumn("x", Ints(xs), &error)) << error;
  ASSERT_TRUE(t.AddColumn("s", Strings(values, nulls), &error)) << error;
  Database db;
  ASSERT_TRUE(db.Register("t", std::move(t), &error)) << error;
  const Result r = db.Query("SELECT x, s, length(s) FROM t WHERE x % 3 = 1 ORDER BY x");
  ASSERT_TRUE(r.ok()) << r.error();
  std::vector<std::string> expected;
  for (size_t i = 0; i < rows; ++i) {
    if (i % 3 != 1) continue;
    if (nulls[i]) {
      expected.push_back(std::to_string(i) + "|NULL|NULL");
      continue;
    }
    const size_t chars = i % 97 + (i % 5 == 0 ? 6 : 0);
    expected.push_back(std::to_string(i) + "|" + values[i] + "|" + std::to_string(chars));
  }
  EXPECT_EQ(Rows(r), expected);
}

// length() of an ASCII column reads its offsets (Column::AllAscii, Vec::ascii); beside it a
// column with multi-byte text in some rows must still count code points: over every row and
// over filtered (gathered) rows, on 1 and 3 threads, against counts made here.
TEST(SqlEngineGather, LengthOfAsciiAndOtherColumnsCountsCodePoints) {
  const size_t rows = 70000;
  std::vector<std::string> ascii(rows), mixed(rows);
  std::vector<int64_t> xs(rows);
  int64_t ascii_total = 0, mixed_chars = 0, mixed_bytes = 0, ascii_kept = 0, mixed_kept = 0;
  for (size_t i = 0; i < rows; ++i) {
    xs[i] = static_cast<int64_t>(i);
    ascii[i] = std::string(i % 41, static_cast<char>('a' + i % 26));
    mixed[i] = ascii[i] + (i % 1000 == 999 ? "\xD0\xAF" : "");  // Я: 2 bytes, 1 code point
    ascii_total += static_cast<int64_t>(i % 41);
    mixed_chars += static_cast<int64_t>(i % 41) + (i % 1000 == 999 ? 1 : 0);
    mixed_bytes += static_cast<int64_t>(mixed[i].size());
    if (i % 3 == 2) {
      ascii_kept += static_cast<int64_t>(i % 41);
      mixed_kept += static_cast<int64_t>(i % 41) + (i % 1000 == 999 ? 1 : 0);
    }
  }
  ASSERT_NE(mixed_chars, mixed_bytes);
  Table t;
  std::string error;
  ASSERT_TRUE(t.AddColumn("x", Ints(xs), &error)) << error;
  ASSERT_TRUE(t.AddColumn("a", Strings(ascii), &error)) << error;
  ASSERT_TRUE(t.AddColumn("m", Strings(mixed), &error)) << error;
  auto shared = std::make_shared<const Table>(std::move(t));
  for (int threads : {1, 3}) {
    DatabaseOptions options;
    options.threads = threads;
    Database db(options);
    ASSERT_TRUE(db.Register("t", shared, &error)) << error;
    for (int pass = 0; pass < 2; ++pass) {  // the first works out AllAscii, the second knows it
      EXPECT_EQ(Rows(db.Query("SELECT sum(length(a)), sum(length(m)), sum(strlen(m)) FROM t")),
                std::vector<std::string>{std::to_string(ascii_total) + "|" + std::to_string(mixed_chars) + "|" +
                                         std::to_string(mixed_bytes)})
          << threads << " threads, pass " << pass;
      EXPECT_EQ(Rows(db.Query("SELECT sum(length(a)), sum(length(m)) FROM t WHERE x % 3 = 2")),
                std::vector<std::string>{std::to_string(ascii_kept) + "|" + std::to_string(mixed_kept)})
          << threads << " threads, pass " << pass;
    }
    EXPECT_TRUE(shared->column(1).KnownAscii());
    EXPECT_FALSE(shared->column(2).AllAscii());
  }
}

// A float key beside a string key is serialised canonically: -0.0 groups with 0.0 and every
// NaN with every other, as one-key GROUP BY and DuckDB do.
TEST(SqlEngineGroupKeys, SerialisedFloatKeysAreCanonical) {
  const double minus_nan = -std::nan("");
  Table t;
  std::string error;
  ASSERT_TRUE(t.AddColumn("s", Strings({"a", "a", "a", "a", "a", "b"}), &error)) << error;
  ASSERT_TRUE(t.AddColumn("f", Typed<double>(TypeId::kFloat64, {-0.0, 0.0, NAN, minus_nan, 1.0, 0.0}), &error))
      << error;
  Database db;
  ASSERT_TRUE(db.Register("t", std::move(t), &error)) << error;
  const Result r = db.Query("SELECT s, count(*) AS c FROM t GROUP BY s, f ORDER BY c DESC, s");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(Rows(r), std::vector<std::string>({"a|2", "a|2", "a|1", "b|1"}));
}

}  // namespace
}  // namespace laneql
