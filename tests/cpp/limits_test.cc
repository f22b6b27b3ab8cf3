// The limits of one query: the memory limit (DatabaseOptions / QueryOptions
// memory_limit_bytes), the timeout (QueryOptions::timeout_ms) and Database::Interrupt from
// another thread. A query over a limit fails with a message that says which limit and what grew,
// and the database answers the next query as before. No test asserts a tight timing: they run on
// a loaded 2-core machine.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"
#include "laneql/system_info.h"
#include "src/common/query_budget.h"
#include "src/exec/sort_rows.h"
#include "test_threads.h"

namespace laneql {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

// `rows` rows: k = i (all distinct), s = "key-<i * 7919 % rows>" (distinct, not in row order),
// m = i % 10.
std::shared_ptr<const Table> Keys(size_t rows) {
  std::vector<int64_t> k(rows), m(rows);
  std::vector<int32_t> offsets(rows + 1, 0);
  std::string text;
  for (size_t i = 0; i < rows; ++i) {
    k[i] = static_cast<int64_t>(i);
    m[i] = static_cast<int64_t>(i % 10);
    text += "key-" + std::to_string(i * 7919 % rows);
    offsets[i + 1] = static_cast<int32_t>(text.size());
  }
  auto table = std::make_shared<Table>();
  std::string error;
  Column kc, mc, sc;
  EXPECT_TRUE(Column::FromFixed(TypeId::kInt64, k.data(), rows, nullptr, &kc, &error)) << error;
  EXPECT_TRUE(Column::FromFixed(TypeId::kInt64, m.data(), rows, nullptr, &mc, &error)) << error;
  EXPECT_TRUE(Column::FromStrings(offsets.data(), reinterpret_cast<const uint8_t*>(text.data()),
                                  rows, nullptr, &sc, &error))
      << error;
  EXPECT_TRUE(table->AddColumn("k", std::move(kc), &error)) << error;
  EXPECT_TRUE(table->AddColumn("m", std::move(mc), &error)) << error;
  EXPECT_TRUE(table->AddColumn("s", std::move(sc), &error)) << error;
  return table;
}

DatabaseOptions Options(int threads, int64_t memory_limit_bytes) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;  // the parallel paths, too
  options.memory_limit_bytes = memory_limit_bytes;
  return options;
}

// A small query whose answer is known: the database still works after a failed one.
void ExpectSmallQueryWorks(const Database& db) {
  const Result r = db.Query("SELECT m, count(*) AS c FROM t GROUP BY m ORDER BY m LIMIT 3");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(PrintCsv(r), "m,c\n0,50000\n1,50000\n2,50000\n");
}

std::string LimitMessage(const char* activity) {
  return std::string("out of memory: the query needs more than the memory limit of 4 MiB (while ") +
         activity + ")";
}

class MemoryLimitTest : public ::testing::TestWithParam<int> {};

TEST_P(MemoryLimitTest, LargeQueriesFailWithTheLimitAndWhatGrew) {
  Database db(Options(GetParam(), 4 * kMiB));
  std::string error;
  ASSERT_TRUE(db.Register("t", Keys(500000), &error)) << error;
  EXPECT_EQ(db.memory_limit_bytes(), static_cast<uint64_t>(4 * kMiB));
  struct Case {
    const char* sql;
    const char* activity;
  };
  // 500,000 distinct keys: a hash table, a COUNT(DISTINCT) set, and a computed sort key with
  // the sort's position lists, far over 4 MiB.
  for (const Case& c : {Case{"SELECT k FROM t GROUP BY k", "growing the GROUP BY hash table"},
                        Case{"SELECT count(DISTINCT k) FROM t", "growing a COUNT(DISTINCT) set"},
                        Case{"SELECT k FROM t ORDER BY k - 1 DESC", "sorting"}}) {
    SCOPED_TRACE(c.sql);
    const Result r = db.Query(c.sql);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), LimitMessage(c.activity));
    ExpectSmallQueryWorks(db);
  }
  // A GROUP BY with aggregates and string keys fails too (where exactly depends on which of
  // its structures crosses the limit first).
  const Result r = db.Query("SELECT s, sum(k), min(s) FROM t GROUP BY s");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rfind("out of memory: the query needs more than the memory limit of 4 MiB", 0), 0u)
      << r.error();
  // The same queries pass with the limit raised for one query, or turned off.
  QueryOptions raised;
  raised.memory_limit_bytes = 1024 * kMiB;
  QueryOptions off;
  off.memory_limit_bytes = 0;
  for (const QueryOptions& options : {raised, off}) {
    const Result counted = db.Query("SELECT count(DISTINCT k), count(DISTINCT s) FROM t", options);
    ASSERT_TRUE(counted.ok()) << counted.error();
    EXPECT_EQ(PrintCsv(counted), "count(DISTINCT k),count(DISTINCT s)\n500000,500000\n");
    const Result sorted = db.Query("SELECT k FROM t ORDER BY s DESC LIMIT 2 OFFSET 100", options);
    ASSERT_TRUE(sorted.ok()) << sorted.error();
  }
  // A query-level limit lower than the database's applies too.
  QueryOptions lowered;
  lowered.memory_limit_bytes = kMiB;
  const Result low = Database(Options(GetParam(), 0)).Query("SELECT 1", lowered);
  ASSERT_TRUE(low.ok()) << low.error();
}

TEST_P(MemoryLimitTest, SmallQueriesAndNoLimitChangeNothing) {
  const std::shared_ptr<const Table> table = Keys(500000);
  const char* const kQueries[] = {
      "SELECT m, count(*), sum(k), min(s), max(s) FROM t GROUP BY m ORDER BY m",
      "SELECT count(DISTINCT m), avg(k) FROM t WHERE k % 3 = 0",
      "SELECT k, s FROM t WHERE k < 2000 ORDER BY s LIMIT 5",
      "SELECT s, count(*) AS c FROM t GROUP BY s ORDER BY c DESC, s LIMIT 3",
      "SELECT k FROM t WHERE s LIKE '%99%' ORDER BY k DESC LIMIT 4",
  };
  // The default (80 % of physical memory), off, huge and a limit these queries fit under (the
  // 500,000 string groups take some 70 MiB on two threads).
  std::vector<std::string> reference;
  for (int64_t limit : {int64_t{-1}, int64_t{0}, int64_t{1} << 50, int64_t{256} * kMiB}) {
    SCOPED_TRACE(limit);
    Database db(Options(GetParam(), limit));
    std::string error;
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    for (size_t q = 0; q < std::size(kQueries); ++q) {
      const Result r = db.Query(kQueries[q]);
      ASSERT_TRUE(r.ok()) << kQueries[q] << ": " << r.error();
      if (reference.size() <= q) {
        reference.push_back(PrintCsv(r));
      } else {
        EXPECT_EQ(PrintCsv(r), reference[q]) << kQueries[q];
      }
    }
  }
  const uint64_t physical = PhysicalMemoryBytes();
  if (physical != 0) {
    EXPECT_EQ(Database().memory_limit_bytes(), physical / 5 * 4);
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, MemoryLimitTest, ::testing::Values(1, 2));

TEST(QueryTimeoutTest, ASlowQueryTimesOutAndTheNextRuns) {
  Database db(Options(2, 0));
  std::string error;
  ASSERT_TRUE(db.Register("t", Keys(500000), &error)) << error;
  QueryOptions options;
  options.timeout_ms = 1;
  // Tens of milliseconds of work at least (half a million string groups, then a sort).
  const char* const kSlow = "SELECT s, count(*) FROM t GROUP BY s ORDER BY s DESC";
  const auto start = std::chrono::steady_clock::now();
  const Result r = db.Query(kSlow, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "query timed out after 1 ms");
  EXPECT_LT(seconds, 20.0);  // bounded; the real figure is milliseconds
  ExpectSmallQueryWorks(db);
  // A generous timeout changes nothing.
  options.timeout_ms = 600000;
  const Result full = db.Query(kSlow, options);
  ASSERT_TRUE(full.ok()) << full.error();
  EXPECT_EQ(full.num_rows(), 500000u);
}

TEST(QueryInterruptTest, InterruptFromAnotherThreadStopsTheQuery) {
  LANEQL_SKIP_WITHOUT_THREADS();
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    Database db(Options(threads, 0));
    std::string error;
    ASSERT_TRUE(db.Register("t", Keys(500000), &error)) << error;
    // The query asks the provider for `p` once it runs; from then on another thread interrupts
    // every millisecond until the query has returned, so the test does not depend on timing.
    std::atomic<bool> started{false}, finished{false};
    db.SetTableProvider([&](std::string_view) -> std::shared_ptr<const Table> {
      started.store(true);
      return nullptr;
    });
    std::thread interrupter([&] {
      while (!started.load()) std::this_thread::sleep_for(std::chrono::microseconds(200));
      while (!finished.load()) {
        db.Interrupt();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    // `p` is unknown: the provider runs at bind time, before the slow part; t is the data.
    Result r = db.Query("SELECT 1 FROM p");
    EXPECT_FALSE(r.ok());  // an unknown table, but the provider has now said "started"
    r = db.Query("SELECT s, count(*) FROM t GROUP BY s ORDER BY s DESC");
    finished.store(true);
    interrupter.join();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), "query interrupted");
    ExpectSmallQueryWorks(db);
  }
}

// The sort checks for a stop inside its comparisons: a query stopped before a long sort throws
// out of it rather than finishing it.
TEST(QueryInterruptTest, SortStopsInsideItsComparisons) {
  std::atomic<uint64_t> interrupts{0};
  QueryBudget budget(0, &interrupts, 0);
  std::vector<int64_t> values(300000);
  std::iota(values.rbegin(), values.rend(), 0);
  exec::Vec keys;
  keys.type = TypeId::kInt64;
  keys.count = values.size();
  keys.values = reinterpret_cast<const uint8_t*>(values.data());
  const std::vector<exec::SortColumn> columns = {{&keys, false, false}};
  const ScopedQueryBudget scope(&budget);
  EXPECT_EQ(exec::SortPositions(columns, values.size(), values.size()).front(), values.size() - 1);
  interrupts.fetch_add(1);
  bool stopped = false;
  try {
    exec::SortPositions(columns, values.size(), values.size());
  } catch (...) {  // not by type: the wasm pthread runtime matches only catch (...) (QueryAbort)
    stopped = true;
  }
  EXPECT_TRUE(stopped) << "the sort did not stop";
  EXPECT_EQ(budget.AbortMessage(), "query interrupted");
  EXPECT_EQ(CurrentQueryAbortMessage(), "query interrupted");
}

TEST(QueryBudgetTest, ChargesReleasesAndFormats) {
  QueryBudget budget(4 * kMiB, nullptr, 0);
  std::string error;
  EXPECT_TRUE(budget.Charge(3 * kMiB, true, "testing", &error));
  EXPECT_FALSE(budget.Charge(2 * kMiB, true, "testing", &error));
  EXPECT_EQ(error, "out of memory: the query needs more than the memory limit of 4 MiB (while testing)");
  EXPECT_EQ(budget.used_bytes(), 3 * kMiB);  // the refused bytes were not kept
  budget.Release(3 * kMiB);
  EXPECT_TRUE(budget.Charge(4 * kMiB, true, "testing", &error));
  EXPECT_EQ(budget.peak_bytes(), 4 * kMiB);
  EXPECT_EQ(FormatBytes(512), "512 bytes");
  EXPECT_EQ(FormatBytes(1536 * kMiB), "1.5 GiB");
  EXPECT_EQ(FormatBytes(64 * 1024), "64 KiB");
  // AlignedBuffer's allocations are accounted while a budget is installed on the thread.
  {
    const ScopedQueryBudget scope(&budget);
    AlignedBuffer buffer;
    EXPECT_FALSE(buffer.Resize(1024, &error));
    EXPECT_NE(error.find("memory limit of 4 MiB"), std::string::npos) << error;
    budget.Release(4 * kMiB);
    ASSERT_TRUE(buffer.Resize(kMiB, &error)) << error;
    EXPECT_EQ(budget.used_bytes(), kMiB);
  }
  EXPECT_EQ(budget.used_bytes(), 0);  // freed when the buffer went
}

}  // namespace
}  // namespace laneql
