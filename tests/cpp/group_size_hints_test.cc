// Group size hints (src/exec/group_size_hints.h): a GROUP BY notes the most groups one thread
// held, the next run of it sizes its tables for them up front, and no hint, right, too small or
// far too large, changes an answer.
#include <cstdint>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/column.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"
#include "laneql/table.h"
#include "bind_sql.h"
#include "profile_spans.h"
#include "src/exec/exec_context.h"
#include "src/exec/executor.h"
#include "src/exec/group_owned.h"
#include "src/exec/group_size_hints.h"
#include "src/exec/thread_pool.h"
#include "test_threads.h"

namespace laneql {
namespace {

constexpr size_t kRows = 400'000;

// k: 400,000 distinct keys, one per row, in a scrambled order; s: strings of the same keys; f:
// float values (summed in row order); small: 100 values.
std::shared_ptr<const Table> Sample() {
  Column k(TypeId::kInt64), s(TypeId::kString), f(TypeId::kFloat64), small(TypeId::kInt32);
  std::string error;
  for (size_t i = 0; i < kRows; ++i) {
    const int64_t key = static_cast<int64_t>(i * 7919 % kRows);
    EXPECT_TRUE(k.Append<int64_t>(key, &error));
    EXPECT_TRUE(s.AppendString("s" + std::to_string(key), &error));
    EXPECT_TRUE(f.Append<double>(0.1 * static_cast<double>(i % 13), &error));
    EXPECT_TRUE(small.Append<int32_t>(static_cast<int32_t>(i % 100), &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("k", std::move(k), &error));
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error));
  EXPECT_TRUE(table->AddColumn("f", std::move(f), &error));
  EXPECT_TRUE(table->AddColumn("small", std::move(small), &error));
  return table;
}

const char* const kQueries[] = {
    "SELECT k, count(*) AS c, sum(small) FROM t GROUP BY k ORDER BY c DESC, k LIMIT 5",
    "SELECT s, min(k), sum(f) FROM t WHERE small < 70 GROUP BY s ORDER BY s LIMIT 5",
    "SELECT k, small, avg(f) FROM t GROUP BY k, small ORDER BY 3 DESC, k, small LIMIT 5",
    // Every count 1: the ties go by the row each group first appeared in.
    "SELECT k, count(*) AS c FROM t GROUP BY k ORDER BY c DESC LIMIT 5",
    // No ORDER BY: the groups in the order their first rows come (all 360,000 of them).
    "SELECT k, small, count(*) FROM t WHERE small < 90 GROUP BY k, small",
    "SELECT small, count(*) FROM t GROUP BY small ORDER BY small LIMIT 3",
};

TEST(GroupSizeHints, KeepsLargeSizesPerKey) {
  exec::GroupSizeHints hints;
  EXPECT_EQ(hints.Find("a"), 0u);
  hints.Note("a", 1'000'000);
  hints.Note("b", exec::kMinGroupSizeHint - 1);  // small: not kept
  EXPECT_EQ(hints.Find("a"), 1'000'000u);
  EXPECT_EQ(hints.Find("b"), 0u);
  hints.Note("a", 200'000);  // the last run counts
  EXPECT_EQ(hints.Find("a"), 200'000u);
  hints.Note("a", 10);  // grown small: no hint
  EXPECT_EQ(hints.Find("a"), 0u);
  // But seen: a later run does not sample for a first-run size again.
  EXPECT_TRUE(hints.Seen("a"));
  EXPECT_TRUE(hints.Seen("b"));
  EXPECT_FALSE(hints.Seen("c"));
  // String keys' bytes go with their groups: kept and replaced alike, none with a small size.
  EXPECT_EQ(hints.FindKeyBytes("c"), 0u);
  hints.Note("c", 300'000, 12'000'000);
  EXPECT_EQ(hints.Find("c"), 300'000u);
  EXPECT_EQ(hints.FindKeyBytes("c"), 12'000'000u);
  hints.Note("c", 400'000);  // fixed-width keys: no bytes
  EXPECT_EQ(hints.FindKeyBytes("c"), 0u);
  hints.Note("c", 10, 5'000);
  EXPECT_EQ(hints.FindKeyBytes("c"), 0u);
}

// A table of 600,000 rows (37 batches, enough for the sample): u unique keys, q a key per 4
// rows, small 100 keys; all scrambled over the table.
std::shared_ptr<const Table> Larger() {
  constexpr size_t kLargerRows = 600'000;
  Column u(TypeId::kInt64), q(TypeId::kInt64), small(TypeId::kInt32);
  std::string error;
  for (size_t i = 0; i < kLargerRows; ++i) {
    const int64_t key = static_cast<int64_t>(i * 7919 % kLargerRows);
    EXPECT_TRUE(u.Append<int64_t>(key, &error));
    EXPECT_TRUE(q.Append<int64_t>(key / 4, &error));
    EXPECT_TRUE(small.Append<int32_t>(static_cast<int32_t>(i % 100), &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("u", std::move(u), &error));
  EXPECT_TRUE(table->AddColumn("q", std::move(q), &error));
  EXPECT_TRUE(table->AddColumn("small", std::move(small), &error));
  return table;
}

// The first run's size from the sample: a group per row gives the rows, shared by the threads;
// 4 rows a group about a quarter of them (up to a third more here, where the sample is 11 % of
// the table and some groups hold 3 sampled rows, which count as 2 repeats); few groups nothing.
TEST(GroupSizeHints, AFirstRunSizesFromTheSample) {
  const auto table = Larger();
  exec::ThreadPool pool(2);
  exec::ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = 2;
  const size_t batches = (table->num_rows() + exec::kBatchRows - 1) / exec::kBatchRows;
  const auto first_run = [&](const plan::Plan& plan, int threads, size_t table_batches) {
    exec::TableSample sample(plan, ctx, table_batches);
    return exec::FirstRunGroupsPerThread(plan, threads, &sample);
  };
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    const size_t per_thread = 600'000 / static_cast<size_t>(threads);
    const plan::Plan unique = BindSql(*table, "SELECT u, count(*) FROM t GROUP BY u");
    EXPECT_EQ(first_run(unique, threads, batches), per_thread);
    const plan::Plan quarter = BindSql(*table, "SELECT q, count(*) FROM t GROUP BY q");
    const size_t q = first_run(quarter, threads, batches);
    EXPECT_GE(q, per_thread / 4);
    EXPECT_LE(q, per_thread / 4 * 4 / 3);
    const plan::Plan few = BindSql(*table, "SELECT small, count(*) FROM t GROUP BY small");
    EXPECT_EQ(first_run(few, threads, batches), 0u);
    // Behind a WHERE that keeps 30 % of the rows: their groups.
    const plan::Plan filtered = BindSql(*table, "SELECT u, count(*) FROM t WHERE small < 30 GROUP BY u");
    const size_t f = first_run(filtered, threads, batches);
    EXPECT_GE(f, per_thread * 3 / 10 * 9 / 10);
    EXPECT_LE(f, per_thread * 3 / 10 * 11 / 10);
  }
  // Too small a table for a sample: nothing.
  const plan::Plan unique = BindSql(*table, "SELECT u, count(*) FROM t GROUP BY u");
  EXPECT_EQ(first_run(unique, 2, 8), 0u);
}

// Runs `sql` through exec::Execute with `hints` (null: none) on `threads` threads.
std::string RunSql(const Table& table, const std::string& sql, int threads, exec::GroupSizeHints* hints) {
  exec::ThreadPool pool(threads);
  exec::ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = threads;
  ctx.min_parallel_rows = 0;
  ctx.group_size_hints = hints;
  const plan::Plan plan = BindSql(table, sql);
  const Result result = exec::Execute(plan, ctx);
  return result.ok() ? PrintCsv(result) : "error: " + result.error();
}

// A sample's summary is kept per table, keys, WHERE and aggregates (which COUNT(DISTINCT)s it
// counted), not per thread count; a wrong summary (noted by hand here) changes the path, not
// the answer.
TEST(GroupSizeHints, KeepSampleSummariesPerQuery) {
  const auto table = Larger();
  const plan::Plan plain = BindSql(*table, "SELECT u, count(*) FROM t GROUP BY u");
  const std::string key = exec::SampleKey(plain);
  EXPECT_EQ(key, exec::SampleKey(BindSql(*table, "SELECT u AS uu, count(*) AS c FROM t GROUP BY u")));
  for (const char* other : {"SELECT u, count(DISTINCT small) FROM t GROUP BY u",
                            "SELECT u, count(*) FROM t WHERE small < 3 GROUP BY u",
                            "SELECT small, count(*) FROM t GROUP BY small",
                            "SELECT count(DISTINCT u) FROM t", "SELECT count(DISTINCT small) FROM t"}) {
    EXPECT_NE(key, exec::SampleKey(BindSql(*table, other))) << other;
  }
  exec::GroupSizeHints hints;
  exec::SampleSummary summary;
  EXPECT_FALSE(hints.FindSample(key, &summary));
  summary.rows = 65536;
  summary.probes = 60000;
  summary.groups = 50000;
  summary.distinct_pairs = {7};
  hints.NoteSample(key, summary);
  exec::SampleSummary found;
  ASSERT_TRUE(hints.FindSample(key, &found));
  EXPECT_EQ(found.rows, 65536u);
  EXPECT_EQ(found.probes, 60000u);
  EXPECT_EQ(found.groups, 50000u);
  EXPECT_EQ(found.distinct_pairs, std::vector<size_t>{7});
  // A summary saying "few groups" for a key of a group per row: another path (no presizing,
  // split by rows), the same answer.
  const std::string sql = "SELECT u, count(*) AS c FROM t GROUP BY u ORDER BY c DESC, u LIMIT 5";
  const std::string expected = RunSql(*table, sql, 1, nullptr);
  exec::GroupSizeHints wrong;
  exec::SampleSummary few;
  few.rows = few.probes = 65536;
  few.groups = 10;
  few.distinct_values = few.distinct_pairs = {0};
  wrong.NoteSample(exec::SampleKey(BindSql(*table, sql)), few);
  for (int threads : {1, 2, 3}) EXPECT_EQ(RunSql(*table, sql, threads, &wrong), expected) << threads;
}

TEST(GroupSizeHints, NotedByOneRunAndUsedByTheNextWithTheSameAnswers) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const auto table = Sample();
  for (const char* sql : kQueries) {
    SCOPED_TRACE(sql);
    const std::string expected = RunSql(*table, sql, 1, nullptr);
    ASSERT_EQ(expected.rfind("error", 0), std::string::npos) << expected;
    for (int threads : {1, 2, 3}) {
      SCOPED_TRACE(threads);
      exec::GroupSizeHints hints;
      const std::string key = exec::GroupSizeKey(BindSql(*table, sql), threads);
      EXPECT_EQ(RunSql(*table, sql, threads, &hints), expected);
      if (std::string(sql).find("GROUP BY small") != std::string::npos) {
        EXPECT_EQ(hints.Find(key), 0u);  // 100 groups: nothing worth noting
        continue;
      }
      // Split by keys, each thread holds about its share of the groups (280,000 behind the
      // WHERE); by rows (which thread takes which morsel varies from run to run), up to all.
      const size_t least = 250'000 / static_cast<size_t>(threads), most = kRows;
      const auto expect_noted = [&](const char* when) {
        const size_t noted = hints.Find(key);
        EXPECT_TRUE(noted >= least && noted <= most) << when << ": " << noted;
      };
      expect_noted("first run");
      EXPECT_EQ(RunSql(*table, sql, threads, &hints), expected);  // sized from the hint
      expect_noted("second run");
      // Wrong hints: far too small and far too large.
      for (size_t wrong : {exec::kMinGroupSizeHint, size_t{1'000'000}}) {
        hints.Note(key, wrong);
        EXPECT_EQ(RunSql(*table, sql, threads, &hints), expected) << "hint " << wrong;
        expect_noted("after a wrong hint");
      }
    }
  }
}

TEST(GroupSizeHints, ADatabaseUsesThemAndAMemoryLimitStillHolds) {
  const auto table = Sample();
  DatabaseOptions options;
  options.threads = 2;
  options.min_parallel_rows = 0;
  Database db(options);
  std::string error;
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  const std::string sql = kQueries[0];
  const Result first = db.Query(sql);
  ASSERT_TRUE(first.ok()) << first.error();
  const Result second = db.Query(sql);
  ASSERT_TRUE(second.ok()) << second.error();
  EXPECT_EQ(PrintCsv(first), PrintCsv(second));
  // A limit too small for the groups fails the query as before, hint or not; the database
  // then still answers within a normal limit.
  QueryOptions tight;
  tight.memory_limit_bytes = 1 << 20;
  const Result refused = db.Query(sql, tight);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("memory limit"), std::string::npos) << refused.error();
  EXPECT_EQ(PrintCsv(db.Query(sql)), PrintCsv(first));
}

// In a Database, the first run of a GROUP BY of many groups already presizes (a "presize"
// span), and the answers stay those of a run without hints.
TEST(GroupSizeHints, TheFirstRunOfADatabasePresizes) {
  const auto table = Larger();
  const std::string sql = "SELECT u, count(*) AS c, sum(small) FROM t GROUP BY u ORDER BY c DESC, u LIMIT 5";
  const std::string expected = RunSql(*table, sql, 1, nullptr);
  for (int threads : {1, 2}) {
    DatabaseOptions options;
    options.threads = threads;
    options.min_parallel_rows = 0;
    options.profile = true;
    options.partitioned_group_min_rows = SIZE_MAX;  // the hash tables, which the hints size
    Database db(options);
    std::string error;
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    const Result first = db.Query(sql);
    ASSERT_TRUE(first.ok()) << first.error();
    EXPECT_EQ(PrintCsv(first), expected);
    EXPECT_TRUE(testing::HasSpan(db.LastProfileJson(), "presize")) << threads << " threads";
    // Few groups: no presize, first run or later.
    const Result few = db.Query("SELECT small, count(*) FROM t GROUP BY small");
    ASSERT_TRUE(few.ok()) << few.error();
    EXPECT_FALSE(testing::HasSpan(db.LastProfileJson(), "presize"));
  }
}

TEST(GroupSizeHints, KeysTellTablesKeysFiltersAndThreadsApart) {
  const auto table = Sample();
  const auto other = Sample();
  const std::string base = exec::GroupSizeKey(BindSql(*table, "SELECT k FROM t GROUP BY k"), 2);
  EXPECT_EQ(base, exec::GroupSizeKey(BindSql(*table, "SELECT k, count(*) FROM t GROUP BY k"), 2));
  EXPECT_NE(base, exec::GroupSizeKey(BindSql(*table, "SELECT k FROM t GROUP BY k"), 1));
  EXPECT_NE(base, exec::GroupSizeKey(BindSql(*other, "SELECT k FROM t GROUP BY k"), 2));
  EXPECT_NE(base, exec::GroupSizeKey(BindSql(*table, "SELECT s FROM t GROUP BY s"), 2));
  EXPECT_NE(base, exec::GroupSizeKey(BindSql(*table, "SELECT k FROM t WHERE small < 5 GROUP BY k"), 2));
}

}  // namespace
}  // namespace laneql
