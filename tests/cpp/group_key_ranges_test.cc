// GROUP BY a key stored in ascending order (kernel/src/exec/group_key_ranges.h): the threads take
// segments of batches that share no key, and the answers, float sums' bits and ORDER BY ties
// included, are those of one thread; keys out of order, with NULLs or cut too rarely take the
// other paths.
#include <cstdint>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"
#include "profile_spans.h"
#include "test_threads.h"

namespace laneql {
namespace {

using testing::ExpectSamePathAnswer;
using testing::HasSpan;

constexpr size_t kRows = 40 * 16384;  // enough batches for the sample (TableSample::kMinBatches)

// o: ascending, 1 to 3 rows a key, so groups straddle about half the batch boundaries; a: ascending, 4 rows a
// key (every batch boundary a cut); u: the same keys scrambled; n: ascending with one NULL;
// d: descending; f: floats whose sums depend on the order of the additions; i: integers.
std::shared_ptr<Table> OrderedTable() {
  Column o(TypeId::kInt64), a(TypeId::kInt32), u(TypeId::kInt64), n(TypeId::kInt64), d(TypeId::kInt64);
  Column f(TypeId::kFloat64), i(TypeId::kInt32);
  std::string error;
  int64_t key = 1000;
  size_t left = 1;
  for (size_t r = 0; r < kRows; ++r) {
    if (--left == 0) {
      key += 1 + static_cast<int64_t>(r % 3);  // gaps between keys, as l_orderkey has
      left = 1 + static_cast<size_t>((uint64_t{r} * 0x9E3779B97F4A7C15ull) >> 60) % 3;
    }
    EXPECT_TRUE(o.Append<int64_t>(key, &error));
    EXPECT_TRUE(a.Append<int32_t>(static_cast<int32_t>(r / 4) - 50000, &error));
    EXPECT_TRUE(u.Append<int64_t>(static_cast<int64_t>(uint64_t{r} * 2654435761u % (kRows / 4)), &error));
    EXPECT_TRUE(r == kRows / 2 ? n.AppendNull(&error) : n.Append<int64_t>(static_cast<int64_t>(r / 4), &error));
    EXPECT_TRUE(d.Append<int64_t>(static_cast<int64_t>((kRows - r) / 4), &error));
    const double value = r % 5 == 0 ? 1e16 : r % 5 == 1 ? -1e16 : static_cast<double>(r % 1000) * 0.37;
    EXPECT_TRUE(f.Append<double>(value, &error));
    EXPECT_TRUE(i.Append<int32_t>(static_cast<int32_t>(r % 1009) - 500, &error));
  }
  auto table = std::make_shared<Table>();
  const std::pair<const char*, Column*> columns[] = {{"o", &o}, {"a", &a}, {"u", &u}, {"n", &n},
                                                     {"d", &d}, {"f", &f}, {"i", &i}};
  for (const auto& [name, column] : columns) EXPECT_TRUE(table->AddColumn(name, std::move(*column), &error)) << error;
  return table;
}

DatabaseOptions Options(int threads) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;
  options.profile = true;
  return options;
}

TEST(KeySegmentGroupBy, AnswersAsOneThreadDoes) {
  LANEQL_SKIP_WITHOUT_THREADS();
  auto table = OrderedTable();
  std::string error;
  Database reference(Options(1));
  ASSERT_TRUE(reference.Register("t", table, &error)) << error;
  // Float sums and averages (whose bits need each group's rows added in row order), ties of
  // ORDER BY (by each group's first row), HAVING, a WHERE, a second key and COUNT(DISTINCT).
  const char* on_o[] = {
      "SELECT o, count(*) AS c, sum(f), avg(f), sum(i), min(i), max(f) FROM t GROUP BY o ORDER BY c DESC LIMIT 40",
      "SELECT o, sum(f) AS s FROM t GROUP BY o ORDER BY s DESC, o LIMIT 25",
      "SELECT o, sum(i) FROM t WHERE i > 0 GROUP BY o HAVING count(*) > 3 ORDER BY 2 DESC LIMIT 30",
      "SELECT o, i % 2 AS odd, count(*), sum(f) FROM t GROUP BY o, odd ORDER BY 3 DESC, 4 LIMIT 30",
      "SELECT o, count(DISTINCT i % 3) AS k FROM t GROUP BY o ORDER BY k DESC, o LIMIT 20",
      // Every group's float sum and average, by the hash of their bits.
      "SELECT count(*), sum(c), sum(hash(x)), sum(hash(y)) FROM (SELECT o, count(*) AS c, sum(f) AS x, avg(f) AS y "
      "FROM t GROUP BY o)",
  };
  for (int threads : {2, 3}) {
    Database db(Options(threads));
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    for (const char* sql : on_o) ExpectSamePathAnswer(reference, db, sql, "key segments", threads);
  }
  // Cut at every batch: on many threads too.
  for (int threads : {2, 5, 8}) {
    Database db(Options(threads));
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    ExpectSamePathAnswer(reference, db, "SELECT a, sum(f), count(*) AS c FROM t GROUP BY a ORDER BY 2, a LIMIT 30",
                         "key segments", threads);
  }
}

TEST(KeySegmentGroupBy, CountsAreThoseOfTheDefinition) {
  LANEQL_SKIP_WITHOUT_THREADS();
  auto table = OrderedTable();
  std::string error;
  Database db(Options(3));
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  // a = r / 4 - 50000: every key 4 rows, kRows / 4 keys.
  const Result r = db.Query("SELECT count(*), min(c), max(c), min(a), max(a) FROM (SELECT a, count(*) AS c FROM t GROUP BY a)");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(PrintCsv(r), "count_star(),min(c),max(c),min(a),max(a)\n" + std::to_string(kRows / 4) + ",4,4,-50000," +
                             std::to_string(static_cast<int64_t>(kRows / 4) - 1 - 50000) + "\n");
  // The inner GROUP BY took the segments (the profile is the whole statement's).
  EXPECT_TRUE(HasSpan(db.LastProfileJson(), "key segments"));
}

TEST(KeySegmentGroupBy, OnlyForAscendingKeysWithoutNulls) {
  LANEQL_SKIP_WITHOUT_THREADS();
  auto table = OrderedTable();
  std::string error;
  Database reference(Options(1));
  ASSERT_TRUE(reference.Register("t", table, &error)) << error;
  Database db(Options(3));
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  const char* queries[] = {
      "SELECT u, count(*) AS c, sum(f) FROM t GROUP BY u ORDER BY c DESC, u LIMIT 10",  // out of order
      "SELECT n, count(*) AS c FROM t GROUP BY n ORDER BY c, n LIMIT 10",               // a NULL among them
      "SELECT d, count(*) AS c FROM t GROUP BY d ORDER BY c, d LIMIT 10",               // descending
      "SELECT o + 1 AS k, count(*) AS c FROM t GROUP BY k ORDER BY c DESC, k LIMIT 10", // an expression
      "SELECT i, count(*) FROM t GROUP BY i ORDER BY i LIMIT 10",                       // few groups
  };
  for (const char* sql : queries) {
    const Result expected = reference.Query(sql);
    const Result got = db.Query(sql);
    ASSERT_TRUE(expected.ok() && got.ok()) << sql << ": " << expected.error() << got.error();
    EXPECT_EQ(PrintCsv(expected), PrintCsv(got)) << sql;
    EXPECT_FALSE(HasSpan(db.LastProfileJson(), "key segments")) << sql;
  }
  // Too few segments for the threads (o is cut at 20 of its 40 batches' boundaries).
  Database many(Options(16));
  ASSERT_TRUE(many.Register("t", table, &error)) << error;
  const Result r = many.Query("SELECT o, count(*) FROM t GROUP BY o");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_FALSE(HasSpan(many.LastProfileJson(), "key segments"));
}

}  // namespace
}  // namespace laneql
