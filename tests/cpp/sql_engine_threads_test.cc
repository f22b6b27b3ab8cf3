// The morsel-parallel executor: every thread count gives the one-thread result bit for bit
// (float sums and ORDER BY ties included), and errors still come back as errors.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result_printers.h"
#include "laneql/aggregate.h"
#include "result_rows.h"
#include "test_threads.h"

namespace laneql {
namespace {

const int kThreadCounts[] = {2, 3, 8};

// How a parallel GROUP BY is split and merged: as the database chooses (for tables this small,
// by rows, merged one thread after another), by rows merged two-level, or by keys (owned scan).
enum class Split { kChosen, kTwoLevel, kKeys };

DatabaseOptions Options(int threads, Split split = Split::kChosen) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;  // small tables must take the parallel paths too
  if (split == Split::kTwoLevel) options.two_level_min_groups = 0;
  if (split == Split::kKeys) options.group_split = DatabaseOptions::GroupSplit::kKeys;
  return options;
}

// Bit-identical: names, types, validity, the bytes of fixed-width values, string contents.
// With any_string_width, a string column may have either offset width (string, large_string).
void ExpectIdentical(const Result& expected, const Result& actual, const std::string& what,
                     bool any_string_width = false) {
  ASSERT_EQ(expected.ok(), actual.ok()) << what << ": " << expected.error() << " / " << actual.error();
  if (!expected.ok()) {
    EXPECT_EQ(expected.error(), actual.error()) << what;
    return;
  }
  ASSERT_EQ(expected.num_columns(), actual.num_columns()) << what;
  ASSERT_EQ(expected.num_rows(), actual.num_rows()) << what;
  for (size_t c = 0; c < expected.num_columns(); ++c) {
    const Column& e = expected.column(c);
    const Column& a = actual.column(c);
    if (!(any_string_width && PhysicalType(e.type()) == TypeId::kString && a.type() == TypeId::kLargeString)) {
      ASSERT_EQ(e.type(), a.type()) << what << " column " << c;
    }
    for (size_t r = 0; r < e.length(); ++r) {
      ASSERT_EQ(e.IsValid(r), a.IsValid(r)) << what << " column " << c << " row " << r;
      if (IsString(e.type())) {
        ASSERT_EQ(e.StringAt(r), a.StringAt(r)) << what << " column " << c << " row " << r;
      } else {
        const size_t w = TypeByteWidth(e.type());
        ASSERT_EQ(0, std::memcmp(e.values_buffer().data() + r * w, a.values_buffer().data() + r * w, w))
            << what << " column " << c << " row " << r << ": " << FormatValue(e, r, ValueStyle::kText)
            << " vs " << FormatValue(a, r, ValueStyle::kText);
      }
    }
  }
}

std::vector<std::string> ClickBenchQueries() {
  std::vector<std::string> queries;
  std::ifstream in(std::string(LANEQL_CLICKBENCH_DIR) + "/queries.sql");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) queries.push_back(line);
  }
  return queries;
}

TEST(SqlEngineThreads, ClickBenchQueriesGiveTheOneThreadResult) {
  const std::vector<std::string> queries = ClickBenchQueries();
  if (queries.empty()) GTEST_SKIP() << "no ClickBench queries under " LANEQL_CLICKBENCH_DIR;
  HitsOptions hits;
  hits.rows = 80'000;  // 5 batches: several morsels per thread
  auto table = std::make_shared<Table>();
  std::string error;
  ASSERT_TRUE(GenerateHits(hits, table.get(), &error)) << error;
  Database one(Options(1));
  ASSERT_TRUE(one.Register("hits", table, &error));
  std::vector<Result> expected;
  for (const std::string& sql : queries) expected.push_back(one.Query(sql));
  size_t answered = 0;
  for (const Result& r : expected) answered += r.ok() && r.num_rows() > 0;
  // The comparison must mean something: most queries return rows (a few filters, such as
  // Q36-Q42's CounterID = 62 with a date range, match nothing in a table this small).
  EXPECT_GE(answered, queries.size() - 8);
  for (Split split : {Split::kChosen, Split::kTwoLevel, Split::kKeys}) {
    for (int threads : kThreadCounts) {
      Database many(Options(threads, split));
      ASSERT_EQ(many.threads(), threads);
      ASSERT_TRUE(many.Register("hits", table, &error));
      for (size_t q = 0; q < queries.size(); ++q) {
        ExpectIdentical(expected[q], many.Query(queries[q]),
                        "Q" + std::to_string(q) + " at " + std::to_string(threads) + " threads" +
                            (split == Split::kTwoLevel ? ", two-level merge"
                             : split == Split::kKeys   ? ", split by keys"
                                                       : ""));
      }
    }
  }
}

// `table` with every VARCHAR column's offsets widened to int64 (the hits table's other columns
// are all fixed-width: copied as they are).
std::shared_ptr<Table> WithLargeStrings(const Table& table) {
  auto wide = std::make_shared<Table>();
  std::string error;
  for (size_t c = 0; c < table.num_columns(); ++c) {
    const Column& column = table.column(c);
    Column copy;
    if (column.type() == TypeId::kString) {
      std::vector<int64_t> offsets(column.Offsets32(), column.Offsets32() + column.length() + 1);
      EXPECT_TRUE(Column::FromLargeStrings(offsets.data(), column.StringData(), column.length(),
                                           column.validity(), &copy, &error)) << error;
    } else {
      EXPECT_TRUE(Column::FromFixed(column.type(), column.values_buffer().data(), column.length(),
                                    column.validity(), &copy, &error)) << error;
    }
    EXPECT_TRUE(wide->AddColumn(table.column_name(c), std::move(copy), &error)) << error;
  }
  return wide;
}

// Columns of large_string (int64 offsets: what a column of over 2 GiB of text is, from the
// generator, CSV, Parquet or a .laneql file) answer ClickBench's queries as the same columns
// with int32 offsets do, on one thread and two. (The sizes that need int64 offsets are
// tests/large's, make test-large-strings; the SQL corpus runs on them too,
// sql_corpus_large_strings.*.)
TEST(SqlEngineThreads, ClickBenchOnLargeStringColumnsGivesTheSameRows) {
  const std::vector<std::string> queries = ClickBenchQueries();
  if (queries.empty()) GTEST_SKIP() << "no ClickBench queries under " LANEQL_CLICKBENCH_DIR;
  HitsOptions hits;
  hits.rows = 70'000;  // several batches
  auto table = std::make_shared<Table>();
  std::string error;
  ASSERT_TRUE(GenerateHits(hits, table.get(), &error)) << error;
  const std::shared_ptr<Table> wide = WithLargeStrings(*table);
  size_t large = 0;
  for (size_t c = 0; c < wide->num_columns(); ++c) large += wide->column(c).type() == TypeId::kLargeString;
  ASSERT_EQ(large, 28u);  // every VARCHAR column of hits
  for (int threads : {1, 2}) {
    DatabaseOptions options;
    options.threads = threads;
    options.min_parallel_rows = 0;
    Database narrow_db(options), wide_db(options);
    ASSERT_TRUE(narrow_db.Register("hits", table, &error)) << error;
    ASSERT_TRUE(wide_db.Register("hits", wide, &error)) << error;
    size_t answered = 0;
    for (size_t q = 0; q < queries.size(); ++q) {
      const Result expected = narrow_db.Query(queries[q]);
      answered += expected.ok() && expected.num_rows() > 0;
      ExpectIdentical(expected, wide_db.Query(queries[q]),
                      "Q" + std::to_string(q) + " on large_string columns at " + std::to_string(threads) + " threads",
                      true);
    }
    EXPECT_GE(answered, queries.size() - 8);  // the comparison means something
  }
}

// Doubles of every magnitude and sign (so the addition order shows in the low bits), NaN, ±0,
// NULLs, and few distinct keys so ORDER BY has ties.
Table FloatTable(size_t rows) {
  std::mt19937_64 rng(7);
  Column x(TypeId::kFloat64), k(TypeId::kInt32), s(TypeId::kString);
  std::string error;
  for (size_t i = 0; i < rows; ++i) {
    const int kind = static_cast<int>(rng() % 100);
    bool ok;
    if (kind == 0) ok = x.AppendNull(&error);
    else if (kind == 1) ok = x.Append<double>(-0.0, &error);
    else if (kind == 2) ok = x.Append<double>(0.0, &error);
    else if (kind == 3 && i > rows / 2) ok = x.Append<double>(std::numeric_limits<double>::quiet_NaN(), &error);
    else ok = x.Append<double>(std::ldexp(static_cast<double>(rng() % 1000003) - 500000.0, static_cast<int>(rng() % 80) - 40), &error);
    EXPECT_TRUE(ok) << error;
    EXPECT_TRUE(k.Append<int32_t>(static_cast<int32_t>(rng() % 50), &error)) << error;
    EXPECT_TRUE(s.AppendString(std::string(1, static_cast<char>('a' + rng() % 5)), &error)) << error;
  }
  Table table;
  EXPECT_TRUE(table.AddColumn("x", std::move(x), &error)) << error;
  EXPECT_TRUE(table.AddColumn("k", std::move(k), &error)) << error;
  EXPECT_TRUE(table.AddColumn("s", std::move(s), &error)) << error;
  return table;
}

// Each query on table t at every thread count and split gives the one-thread answer bit for
// bit; the one-thread answers must have more than `min_rows` rows.
template <size_t N>
void ExpectSameOnEveryThreadCount(const std::shared_ptr<Table>& table, const char* const (&queries)[N],
                                  size_t min_rows) {
  std::string error;
  Database one(Options(1));
  ASSERT_TRUE(one.Register("t", table, &error));
  for (Split split : {Split::kChosen, Split::kTwoLevel, Split::kKeys}) {
    for (int threads : kThreadCounts) {
      Database many(Options(threads, split));
      ASSERT_TRUE(many.Register("t", table, &error));
      for (const char* sql : queries) {
        const Result expected = one.Query(sql);
        ASSERT_TRUE(expected.ok()) << sql << ": " << expected.error();
        ASSERT_GT(expected.num_rows(), min_rows) << sql;
        ExpectIdentical(expected, many.Query(sql), std::string(sql) + " at " + std::to_string(threads) +
                                                       " threads" + (split == Split::kTwoLevel ? ", two-level"
                                                                     : split == Split::kKeys ? ", by keys" : ""));
      }
    }
  }
}

TEST(SqlEngineThreads, FloatAggregatesAndTiesAreBitIdentical) {
  auto table = std::make_shared<Table>(FloatTable(150'000));
  const char* const queries[] = {
      "SELECT sum(x), avg(x), min(x), max(x), count(x), count(*) FROM t",
      "SELECT sum(x * 3.5 - 1), avg(x / 7) FROM t WHERE k < 25",
      "SELECT sum(x) FROM t WHERE x < 0",  // no NaN: the low bits carry the order
      "SELECT k, sum(x), avg(x), min(x), max(x) FROM t GROUP BY k ORDER BY k",
      "SELECT s, k, count(*) AS c FROM t GROUP BY s, k ORDER BY c DESC LIMIT 7",
      "SELECT k, count(*) FROM t GROUP BY k",  // no ORDER BY: first appearance, as one thread
      "SELECT k, count(DISTINCT s), min(s) FROM t GROUP BY k HAVING count(*) > 10 ORDER BY 2 LIMIT 9",
      "SELECT k, x FROM t WHERE s = 'b' ORDER BY k LIMIT 40",  // ties between rows
      "SELECT x FROM t WHERE k = 3 AND s <> 'a'",
      // Over 65,536 positions: sorted in runs per thread, then merged.
      "SELECT k, s, x FROM t ORDER BY k, s",   // full sort, many ties
      "SELECT k, x FROM t ORDER BY x DESC LIMIT 100",  // top-N, NaN and -0.0 among the keys
  };
  ExpectSameOnEveryThreadCount(table, queries, 0);
}

// Grouped float sums over few groups on a table large enough to be sampled (at least 32
// batches): added by batches (group_batch_partials.h), the same bits on every thread count and
// split, and exactly the documented order: per fold unit of 4 batches (65,536 rows,
// GroupBatchPartials::kUnitBatches) each group's values in row order from +0.0, the units'
// partials added in unit order.
constexpr size_t kSampledRows = 40 * 16384 + 123;  // 40 batches and a part of one
constexpr size_t kFoldUnitRows = 4 * 16384;

TEST(SqlEngineThreads, FewGroupFloatSumsGoByBatchPartials) {
  constexpr size_t kRows = kSampledRows;
  auto table = std::make_shared<Table>(FloatTable(kRows));
  const char* const queries[] = {
      // Arguments without NULLs and COUNT(*): folded in one pass (UpdateFloatSums).
      "SELECT k, sum(coalesce(x, -1.0)), count(*), avg(coalesce(x, -2.0) * 2) FROM t "
      "WHERE x < 0 OR x IS NULL GROUP BY k ORDER BY k",
      "SELECT k, sum(x), avg(x), count(x) FROM t WHERE x < 0 GROUP BY k ORDER BY k",
      "SELECT s, k % 3 AS m, sum(x * 1.5), avg(x), min(x) FROM t GROUP BY s, m ORDER BY s, m",
      "SELECT k, sum(x) FROM t GROUP BY k",  // first-appearance order, NaN in later rows
  };
  ExpectSameOnEveryThreadCount(table, queries, 2);
  std::string error;
  Database one(Options(1));
  ASSERT_TRUE(one.Register("t", table, &error));
  // The order itself, computed here from the column.
  const Column& x = table->column(0);
  const double* xs = x.Values<double>();
  const int32_t* ks = table->column(1).Values<int32_t>();
  std::vector<double> total(50, 0.0), partial(50, 0.0), with_nulls(50, 0.0), partial_nulls(50, 0.0);
  std::vector<int64_t> rows(50, 0);
  for (size_t begin = 0; begin < kRows; begin += kFoldUnitRows) {
    std::fill(partial.begin(), partial.end(), 0.0);
    std::fill(partial_nulls.begin(), partial_nulls.end(), 0.0);
    for (size_t r = begin; r < std::min(kRows, begin + kFoldUnitRows); ++r) {
      const size_t g = static_cast<size_t>(ks[r]);
      if (!x.IsValid(r)) {
        partial_nulls[g] += -1.0;
        ++rows[g];
      } else if (xs[r] < 0) {
        partial[g] += xs[r];
        partial_nulls[g] += xs[r];
        ++rows[g];
      }
    }
    for (size_t g = 0; g < 50; ++g) {
      total[g] += partial[g];
      with_nulls[g] += partial_nulls[g];
    }
  }
  const Result folded = one.Query(queries[0]);
  const Result sums = one.Query(queries[1]);
  ASSERT_EQ(folded.num_rows(), 50u);
  ASSERT_EQ(sums.num_rows(), 50u);
  for (size_t g = 0; g < 50; ++g) {
    ASSERT_EQ(sums.column(0).Values<int32_t>()[g], static_cast<int32_t>(g));
    ASSERT_EQ(folded.column(0).Values<int32_t>()[g], static_cast<int32_t>(g));
    const double got = sums.column(1).Values<double>()[g];
    EXPECT_EQ(0, std::memcmp(&got, &total[g], sizeof got)) << "group " << g << ": " << got << " vs " << total[g];
    const double got_folded = folded.column(1).Values<double>()[g];
    EXPECT_EQ(0, std::memcmp(&got_folded, &with_nulls[g], sizeof got_folded))
        << "group " << g << ": " << got_folded << " vs " << with_nulls[g];
    EXPECT_EQ(folded.column(2).Values<int64_t>()[g], rows[g]) << "group " << g;
  }
}

// Row-order library aggregates grouped over few groups (group_batch_partials.h): each fold
// unit's rows of a group folded into an entry of their own, merged in unit order, so the same
// bits on every thread count and split. The picks (first, last, arg_min, ...) and mode of numbers keep
// their rows and merge by them on every path, over few groups or many: those of row order.
TEST(SqlEngineThreads, LibraryAggregatesAndPicksOnEveryPath) {
  const auto table = std::make_shared<Table>(FloatTable(kSampledRows));
  const char* const queries[] = {
      "SELECT k, stddev_samp(x), corr(x, k), first(s), last(x), arg_min(s, x), arg_max(k, x), any_value(x), "
      "sum(x) FROM t GROUP BY k ORDER BY k",
      "SELECT s, var_pop(x), regr_slope(x, k), first(x), min_by(k, x), count(*) FROM t WHERE x < 0 GROUP BY s "
      "ORDER BY s",
      // Groups first met in a later batch of a fold unit (a few hundred rare ones beside a large
      // one), which get their entries then.
      "SELECT CASE WHEN x > 2e17 THEN hash(x) % 300 ELSE 0 END AS h, stddev_samp(x), sum(x), count(*) FROM t "
      "GROUP BY h ORDER BY h",
      // Many groups: the picks alone split by rows, two-level or by keys alike.
      "SELECT hash(x) % 20011 AS h, first(s), last(k), arg_min(s, x), arg_max(k, x), any_value(x), count(*) "
      "FROM t GROUP BY h ORDER BY h",
      "SELECT first(x), last(s), arg_max(s, k), min_by(x, s), any_value(s) FROM t WHERE k <> 3",
      // mode of numbers counts with each value's first row (ties: the earliest), on any split:
      // NaNs each once, -0 and +0 one value shown as the earliest zero.
      "SELECT k % 7 AS m, mode(k), mode(x), mode(CAST(x > 0 AS INTEGER)) FROM t GROUP BY m ORDER BY m",
      "SELECT hash(x) % 5003 AS h, mode(k), mode(x) FROM t GROUP BY h ORDER BY h",
      "SELECT mode(k), mode(x), mode(k % 2) FROM t WHERE s <> 'c'",
  };
  ExpectSameOnEveryThreadCount(table, queries, 0);
  // Each group's first and last row, and the first row of its least x (NULLs skipped, -0 before
  // +0, NaN last), computed here.
  const Column& x = table->column(0);
  const int32_t* ks = table->column(1).Values<int32_t>();
  const Column& s = table->column(2);
  std::vector<long> first(50, -1), last(50, -1), least(50, -1);
  for (size_t r = 0; r < kSampledRows; ++r) {
    const size_t g = static_cast<size_t>(ks[r]);
    if (first[g] < 0) first[g] = static_cast<long>(r);
    last[g] = static_cast<long>(r);
    if (x.IsValid(r) && (least[g] < 0 || AggLess(x.Values<double>()[r], x.Values<double>()[least[g]]))) {
      least[g] = static_cast<long>(r);
    }
  }
  std::vector<std::string> expected;
  for (size_t g = 0; g < 50; ++g) {
    expected.push_back(std::to_string(g) + "|" + std::string(s.StringAt(static_cast<size_t>(first[g]))) + "|" +
                       std::string(s.StringAt(static_cast<size_t>(last[g]))) + "|" +
                       std::string(s.StringAt(static_cast<size_t>(least[g]))));
  }
  std::string error;
  for (int threads : {1, 2, 5}) {
    Database db(Options(threads));
    ASSERT_TRUE(db.Register("t", table, &error));
    EXPECT_EQ(testing::ResultRows(db.Query("SELECT k, first(s), last(s), arg_min(s, x) FROM t GROUP BY k ORDER BY k")),
              expected)
        << threads << " threads";
  }
}

// GROUP BY ... LIMIT n without ORDER BY keeps the first n groups in row order: one thread finds
// them, then every thread counts the rest of the table into them alone.
TEST(SqlEngineThreads, GroupByLimitKeepsTheFirstGroupsAndCountsEveryRow) {
  constexpr int64_t kRows = 200'000;  // 13 batches of 16,384
  constexpr int64_t kLate = 50'000;   // `late` is 0 up to here (batch 3), then row % 1000
  Column late(TypeId::kInt32), u(TypeId::kInt64), w(TypeId::kInt32), s(TypeId::kString);
  std::string error;
  for (int64_t r = 0; r < kRows; ++r) {
    ASSERT_TRUE(late.Append<int32_t>(r < kLate ? 0 : static_cast<int32_t>(r % 1000), &error));
    ASSERT_TRUE(u.Append<int64_t>(r * 7919 % 100'003, &error));
    ASSERT_TRUE(w.Append<int32_t>(static_cast<int32_t>(r % 10), &error));
    ASSERT_TRUE(s.AppendString(std::string(1, static_cast<char>('a' + r % 3)), &error));
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("late", std::move(late), &error));
  ASSERT_TRUE(table->AddColumn("u", std::move(u), &error));
  ASSERT_TRUE(table->AddColumn("w", std::move(w), &error));
  ASSERT_TRUE(table->AddColumn("s", std::move(s), &error));
  Database one(Options(1));
  ASSERT_TRUE(one.Register("t", table, &error));
  // The cap reached in the first batch, in the fourth, never (10 groups), behind a WHERE, with
  // an OFFSET, with strings among the keys and COUNT(DISTINCT).
  const char* queries[] = {
      "SELECT u, count(*), sum(w) FROM t GROUP BY u LIMIT 10",
      "SELECT late, count(*), min(s), max(u), count(DISTINCT w) FROM t GROUP BY late LIMIT 5",
      "SELECT w, count(*) FROM t GROUP BY w LIMIT 1000",
      "SELECT late, s, count(*) FROM t WHERE w > 3 GROUP BY late, s LIMIT 20",
      "SELECT late, count(*) FROM t GROUP BY late LIMIT 3 OFFSET 4",
  };
  for (int threads : kThreadCounts) {
    Database many(Options(threads));
    ASSERT_TRUE(many.Register("t", table, &error));
    for (const char* sql : queries) {
      const Result expected = one.Query(sql);
      ASSERT_TRUE(expected.ok()) << sql << ": " << expected.error();
      ExpectIdentical(expected, many.Query(sql), std::string(sql) + " at " + std::to_string(threads) + " threads");
    }
  }
  // The numbers themselves: group 0 of `late` holds rows 0 .. kLate - 1 and every later row
  // that is a multiple of 1000; 1 .. 4 first appear at rows kLate + 1 .. kLate + 4.
  Database two(Options(2));
  ASSERT_TRUE(two.Register("t", table, &error));
  const Result r = two.Query("SELECT late, count(*) FROM t GROUP BY late LIMIT 5");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r.num_rows(), 5u);
  const int64_t multiples = (kRows - kLate) / 1000;  // 150 later rows with late = 0
  const int64_t each = (kRows - kLate) / 1000;       // 150 rows of each of 1 .. 999
  for (size_t g = 0; g < 5; ++g) {
    EXPECT_EQ(FormatValue(r.column(0), g, ValueStyle::kText), std::to_string(g));
    EXPECT_EQ(FormatValue(r.column(1), g, ValueStyle::kText), std::to_string(g == 0 ? kLate + multiples : each));
  }
}

// From 2^20 groups on, the counts that HAVING and ORDER BY read are copied out of the states
// by slices on the query's threads: every slice must land in its place. k repeats for rows
// 1,050,000 on (k = row - 1,050,000 < 50,000), so exactly those groups count 2.
TEST(SqlEngineThreads, CountsOfAMillionGroupsAreCopiedOutWhole) {
  constexpr int64_t kGroups = 1'050'000, kRows = 1'100'000;
  Column k(TypeId::kInt64);
  std::string error;
  for (int64_t r = 0; r < kRows; ++r) ASSERT_TRUE(k.Append<int64_t>(r % kGroups, &error));
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("k", std::move(k), &error));
  const char* queries[] = {
      "SELECT k, count(*) AS c FROM t GROUP BY k HAVING count(*) > 1 ORDER BY k DESC LIMIT 2",
      "SELECT k, count(*) AS c FROM t GROUP BY k ORDER BY c DESC, k DESC LIMIT 2",
      "SELECT k, count(*) AS c FROM t GROUP BY k HAVING count(*) = 1 ORDER BY k LIMIT 2",
  };
  const char* expected[] = {"k,c\n49999,2\n49998,2\n", "k,c\n49999,2\n49998,2\n", "k,c\n50000,1\n50001,1\n"};
  for (int threads : {1, 2, 3}) {
    for (Split split : {Split::kChosen, Split::kKeys}) {
      Database db(Options(threads, split));
      ASSERT_TRUE(db.Register("t", table, &error));
      for (size_t q = 0; q < 3; ++q) {
        const Result r = db.Query(queries[q]);
        ASSERT_TRUE(r.ok()) << queries[q] << ": " << r.error();
        EXPECT_EQ(PrintCsv(r), expected[q]) << queries[q] << " on " << threads << " threads";
      }
    }
  }
}

// Past a million groups the aggregates are finished in slices on the threads and the slices'
// columns joined (AggregateStates::FinishParts): sums, averages, string and integer minima and
// maxima with NULL groups, read by HAVING (every group finished) and output for every group
// unordered (the chosen groups, in first-row order), give the one-thread columns.
TEST(SqlEngineThreads, AggregatesOfAMillionGroupsAreFinishedInSlices) {
  constexpr int64_t kGroups = 1'100'000, kRows = 1'150'000;
  Column k(TypeId::kInt64), v(TypeId::kInt64), s(TypeId::kString);
  std::string error;
  for (int64_t r = 0; r < kRows; ++r) {
    ASSERT_TRUE(k.Append<int64_t>((r * 7919) % kGroups, &error));
    ASSERT_TRUE(r % 7 == 0 ? v.AppendNull(&error) : v.Append<int64_t>(r * 3 - 1'000'000, &error));
    ASSERT_TRUE(r % 11 == 0 ? s.AppendNull(&error) : s.AppendString(std::string(1 + r % 5, 'a' + r % 23), &error));
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("k", std::move(k), &error));
  ASSERT_TRUE(table->AddColumn("v", std::move(v), &error));
  ASSERT_TRUE(table->AddColumn("s", std::move(s), &error));
  const char* const queries[] = {
      "SELECT k, sum(v), avg(v), min(s), max(v) FROM t GROUP BY k HAVING sum(v) IS NULL OR sum(v) % 3 <> 1",
      "SELECT k, count(v), min(v), max(s), sum(v) FROM t GROUP BY k",
  };
  Database one(Options(1));
  ASSERT_TRUE(one.Register("t", table, &error));
  for (const char* sql : queries) {
    const Result expected = one.Query(sql);
    ASSERT_TRUE(expected.ok()) << sql << ": " << expected.error();
    ASSERT_GT(expected.num_rows(), size_t{700'000}) << sql;
    for (int threads : {2, 4}) {
      Database many(Options(threads));
      ASSERT_TRUE(many.Register("t", table, &error));
      ExpectIdentical(expected, many.Query(sql), std::string(sql) + " at " + std::to_string(threads) + " threads");
    }
  }
}

// The keys of many groups that are not packed in one word (strings, several keys with NULLs)
// are copied out in slices on the threads (GroupStage::KeyColumns): for every group, for the
// groups HAVING keeps, and for the chosen groups of an unordered GROUP BY.
TEST(SqlEngineThreads, KeysOfManyGroupsAreCopiedOnTheThreads) {
  auto table = std::make_shared<Table>(FloatTable(150'000));
  const char* const queries[] = {
      "SELECT s, k, x, count(*) FROM t GROUP BY s, k, x",
      "SELECT s, x FROM t GROUP BY s, x HAVING x IS NULL OR x > 0 OR s = 'c'",
      "SELECT s || k AS sk, max(x) FROM t GROUP BY x, sk HAVING sk <> 'a1'",
  };
  ExpectSameOnEveryThreadCount(table, queries, 50'000);
}

// Grouped SUM / AVG of 1- and 2-byte integers keep 64-bit sums (AggregateStates::narrow_sum):
// exact at the types' extremes, for few groups and for a group per two rows (the split by
// keys, whose states the output reads side by side), on every split and thread count.
TEST(SqlEngineThreads, SumsOfSmallIntegersAtTheirExtremesAreExact) {
  constexpr int64_t kRows = 300'000;
  std::string error;
  Column few(TypeId::kInt64), many(TypeId::kInt64), a(TypeId::kInt16), b(TypeId::kUInt16),
      c(TypeId::kInt8);
  for (int64_t r = 0; r < kRows; ++r) {
    ASSERT_TRUE(few.Append<int64_t>(r % 7, &error));
    ASSERT_TRUE(many.Append<int64_t>(r / 2, &error));
    ASSERT_TRUE(a.Append<int16_t>(r % 3 == 0 ? INT16_MIN : INT16_MAX, &error));
    ASSERT_TRUE(b.Append<uint16_t>(UINT16_MAX, &error));
    ASSERT_TRUE(r % 5 == 0 ? c.AppendNull(&error) : c.Append<int8_t>(INT8_MIN, &error));
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("few", std::move(few), &error));
  ASSERT_TRUE(table->AddColumn("many", std::move(many), &error));
  ASSERT_TRUE(table->AddColumn("a", std::move(a), &error));
  ASSERT_TRUE(table->AddColumn("b", std::move(b), &error));
  ASSERT_TRUE(table->AddColumn("c", std::move(c), &error));
  // The expected sums of group k of GROUP BY few, and of GROUP BY many's groups 0 and 1.
  std::vector<int64_t> sum_a(7), sum_b(7), sum_c(7), rows(7);
  for (int64_t r = 0; r < kRows; ++r) {
    sum_a[r % 7] += r % 3 == 0 ? INT16_MIN : INT16_MAX;
    sum_b[r % 7] += UINT16_MAX;
    if (r % 5 != 0) sum_c[r % 7] += INT8_MIN;
    ++rows[r % 7];
  }
  const auto sum = [](const Result& r, size_t column, size_t row) {
    return FormatValue(r.column(column), row, ValueStyle::kText);
  };
  const auto avg = [](const Result& r, size_t column, size_t row) {
    return r.column(column).values_buffer().As<double>()[row];
  };
  Result one;
  for (int threads : {1, 2, 3}) {
    for (Split split : {Split::kChosen, Split::kTwoLevel, Split::kKeys}) {
      Database db(Options(threads, split));
      ASSERT_TRUE(db.Register("t", table, &error));
      const Result r = db.Query("SELECT few, sum(a), avg(a), sum(b), sum(c), avg(c) FROM t GROUP BY few ORDER BY few");
      ASSERT_TRUE(r.ok()) << r.error();
      ASSERT_EQ(r.num_rows(), 7u);
      for (size_t k = 0; k < 7; ++k) {
        EXPECT_EQ(sum(r, 1, k), std::to_string(sum_a[k])) << threads << " threads, group " << k;
        EXPECT_EQ(avg(r, 2, k), static_cast<double>(static_cast<long double>(sum_a[k]) / rows[k]));
        EXPECT_EQ(sum(r, 3, k), std::to_string(sum_b[k]));
        EXPECT_EQ(sum(r, 4, k), std::to_string(sum_c[k]));
      }
      // A group per two rows, ordered by a sum read for every group: group 0 holds rows 0
      // and 1 (INT16_MIN + INT16_MAX = -1), and the sums of 2 * INT16_MAX come first.
      Result m = db.Query(
          "SELECT many, sum(a) AS s, avg(b), count(*) FROM t GROUP BY many ORDER BY s DESC, many LIMIT 3");
      ASSERT_TRUE(m.ok()) << m.error();
      ASSERT_EQ(m.num_rows(), 3u);
      EXPECT_EQ(sum(m, 1, 0), std::to_string(2 * INT16_MAX)) << threads << " threads";
      EXPECT_EQ(avg(m, 2, 0), static_cast<double>(UINT16_MAX));
      if (threads == 1 && split == Split::kChosen) one = std::move(m);
      else ExpectIdentical(one, m, std::to_string(threads) + " threads");
    }
  }
}

// SELECT lists over many rows are computed in chunks on every thread (parallel_project.h):
// each thread count gives the one-thread columns, NULLs and strings included, and the error a
// single thread reports first (the earlier output's, then the earlier row's).
TEST(SqlEngineThreads, ProjectionsOfManyRowsAreTheOneThreadColumns) {
  auto table = std::make_shared<Table>(FloatTable(150'000));
  const char* const queries[] = {
      "SELECT x * 2, k + 1, s || '-' || k, CASE WHEN k < 10 THEN NULL ELSE s END, 'c', NULL FROM t",
      "SELECT x, s FROM t WHERE k % 3 = 1",        // the rows of a WHERE: ids, not a range
      "SELECT k, upper(s), x IS NULL FROM t LIMIT 100000 OFFSET 777",  // a range not on 64 rows
      "SELECT nullif(s, 'c'), coalesce(x, -1) FROM t ORDER BY k, x LIMIT 120000",
      "SELECT u.k, u.x * g.n FROM (SELECT k, count(*) AS n FROM t GROUP BY k) AS g, t AS u WHERE g.k = u.k",
  };
  ExpectSameOnEveryThreadCount(table, queries, 40'000);
  // Errors: the row numbers i say where each text that is no integer lies.
  auto numbered = std::make_shared<Table>();
  Column i(TypeId::kInt64);
  std::string error;
  for (int64_t r = 0; r < 150'000; ++r) ASSERT_TRUE(i.Append<int64_t>(r, &error)) << error;
  ASSERT_TRUE(numbered->AddColumn("i", std::move(i), &error)) << error;
  Database one(Options(1));
  ASSERT_TRUE(one.Register("u", numbered, &error));
  const char* const failing[] = {
      // Only the last chunk fails.
      "SELECT CAST(CASE WHEN i = 140000 THEN 'late' ELSE '1' END AS INTEGER) FROM u",
      // The second output fails in the first chunk, the first output only in the last: one
      // thread reports the first output's.
      "SELECT CAST(CASE WHEN i = 140000 THEN 'late' ELSE '1' END AS INTEGER), "
      "CAST(CASE WHEN i = 5 THEN 'early' ELSE '2' END AS INTEGER) FROM u",
      // Two rows of one output fail: the earlier row's text.
      "SELECT CAST(CASE WHEN i IN (5, 140000) THEN 'r' || i ELSE '1' END AS INTEGER) FROM u",
  };
  for (const char* sql : failing) {
    const Result expected = one.Query(sql);
    ASSERT_FALSE(expected.ok()) << sql;
    for (int threads : kThreadCounts) {
      Database many(Options(threads));
      ASSERT_TRUE(many.Register("u", numbered, &error));
      ExpectIdentical(expected, many.Query(sql), std::string(sql) + " at " + std::to_string(threads) + " threads");
    }
  }
  EXPECT_NE(one.Query(failing[1]).error().find("late"), std::string::npos) << one.Query(failing[1]).error();
  EXPECT_NE(one.Query(failing[2]).error().find("r5"), std::string::npos) << one.Query(failing[2]).error();
}

TEST(SqlEngineThreads, ErrorsInWorkersComeBackAsErrors) {
  auto table = std::make_shared<Table>(FloatTable(100'000));
  std::string error;
  Database many(Options(4));
  ASSERT_TRUE(many.Register("t", table, &error));
  // 'a'..'e' are not integers: the conversion fails in every thread's first batch.
  const Result r = many.Query("SELECT sum(CAST(s AS INTEGER)) FROM t GROUP BY k");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("conversion error"), std::string::npos) << r.error();
  // The database stays usable.
  const Result ok = many.Query("SELECT count(*) FROM t WHERE k >= 0");
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(FormatValue(ok.column(0), 0, ValueStyle::kText), "100000");
}

TEST(SqlEngineThreads, ThreadCountOption) {
  LANEQL_SKIP_WITHOUT_THREADS();
  DatabaseOptions options;
  options.threads = 3;
  EXPECT_EQ(Database(options).threads(), 3);
  EXPECT_GE(Database().threads(), 1);
}

// A SUM of 16-byte values (DECIMAL(38), HUGEINT) that leaves 128 bits only when the threads'
// partial sums meet, on every split, fails as on one thread instead of wrapping around; one
// that fits gives the one-thread answer.
TEST(SqlEngineThreads, WideSumsOverflowAsOnOneThread) {
  const char* kQueries[] = {
      // Each half of the rows sums to 1e38 (fits), the whole to 2e38 (does not).
      "SELECT sum(x) FROM (SELECT 1000000000000000000000000000000000::DECIMAL(38,0) AS x FROM range(200000) t(r)) s",
      // 1e38 a group: within 128 bits, past 38 digits.
      "SELECT r % 3 AS g, sum(x) FROM (SELECT r, 1000000000000000000000000000000000::DECIMAL(38,0) AS x FROM "
      "range(300000) t(r)) s GROUP BY g",
      // 2e38 a group.
      "SELECT r % 5 AS g, sum(CAST(x AS HUGEINT)) FROM (SELECT r, 1000000000000000000000000000000000 AS x FROM "
      "range(1000000) t(r)) s GROUP BY g",
      // Fits: 1.5e38 within 128 bits.
      "SELECT sum(CAST(x AS HUGEINT)) FROM (SELECT 1000000000000000000000000000000000 AS x FROM range(150000) t(r)) s",
  };
  Database one(Options(1));
  for (const char* sql : kQueries) {
    const Result expected = one.Query(sql);
    for (Split split : {Split::kChosen, Split::kTwoLevel, Split::kKeys}) {
      for (int threads : kThreadCounts) {
        Database many(Options(threads, split));
        ExpectIdentical(expected, many.Query(sql), std::string(sql) + " at " + std::to_string(threads) + " threads");
      }
    }
  }
  EXPECT_NE(one.Query(kQueries[0]).error().find("Overflow in HUGEINT addition"), std::string::npos);
  EXPECT_NE(one.Query(kQueries[1]).error().find("does not fit in DECIMAL(38)"), std::string::npos);
  EXPECT_NE(one.Query(kQueries[2]).error().find("Overflow in HUGEINT addition"), std::string::npos);
  EXPECT_TRUE(one.Query(kQueries[3]).ok());
}

}  // namespace
}  // namespace laneql
