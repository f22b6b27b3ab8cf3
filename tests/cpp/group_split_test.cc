// How a parallel hash GROUP BY splits its work (DatabaseOptions::group_split): by keys when
// nearly every row starts a group, by rows otherwise; and the large-block cache its tables and
// state arrays come from.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <unordered_set>

#include "gtest/gtest.h"
#include "laneql/aligned_buffer.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"
#include "profile_spans.h"
#include "src/common/large_blocks.h"
#include "test_threads.h"

#if defined(__GLIBC__) && !defined(__EMSCRIPTEN__)
#include <sys/resource.h>
#endif

namespace laneql {
namespace {

// `rows` rows: u unique per row, m = row % 100 (few groups), x = row % 7, p unique per row
// except that every fifth row repeats the one before (80 % of rows start a group); f a double
// and s a string of the row, so that every kind of aggregate state is merged.
std::shared_ptr<Table> KeysTable(size_t rows) {
  Column u(TypeId::kInt64), m(TypeId::kInt64), x(TypeId::kInt32), p(TypeId::kInt64);
  Column f(TypeId::kFloat64), s(TypeId::kString);
  std::string error;
  for (size_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(u.Append<int64_t>(static_cast<int64_t>(i * 2654435761u % 1000000007u), &error));
    EXPECT_TRUE(m.Append<int64_t>(static_cast<int64_t>(i % 100), &error));
    EXPECT_TRUE(x.Append<int32_t>(static_cast<int32_t>(i % 7), &error));
    // Rows 5k + 3 and 5k + 4 share a key (k = 0: 3), in no order (keys in ascending order
    // would take segments of batches, group_key_ranges.h).
    const uint64_t five = uint64_t{i} / 5 * 2654435761u % 1000000007u;
    EXPECT_TRUE(p.Append<int64_t>(static_cast<int64_t>(five * 5 + std::min<uint64_t>(i % 5, 3)), &error));
    EXPECT_TRUE(f.Append<double>(static_cast<double>(i % 13) * 0.1 - 0.35, &error));
    EXPECT_TRUE(s.AppendString("s" + std::to_string(i % 11), &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("u", std::move(u), &error)) << error;
  EXPECT_TRUE(table->AddColumn("m", std::move(m), &error)) << error;
  EXPECT_TRUE(table->AddColumn("x", std::move(x), &error)) << error;
  EXPECT_TRUE(table->AddColumn("p", std::move(p), &error)) << error;
  EXPECT_TRUE(table->AddColumn("f", std::move(f), &error)) << error;
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error)) << error;
  return table;
}

DatabaseOptions OneThread() {
  DatabaseOptions options;
  options.threads = 1;
  return options;
}

using testing::HasSpan;

TEST(GroupSplit, AutoSplitsByKeysWhenEveryRowIsAGroupAndByRowsOtherwise) {
  LANEQL_SKIP_WITHOUT_THREADS();
  // 40 batches of 16,384 rows: enough for the sample (4 batches) to be a small part.
  auto table = KeysTable(40 * 16384);
  DatabaseOptions options;
  options.threads = 2;
  options.profile = true;
  // The split's own choice: p's repeated keys would now go to radix partitions
  // (group_partitions_test.cc).
  options.partitioned_group_min_rows = SIZE_MAX;
  Database db(options);
  std::string error;
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  Database one(OneThread());
  ASSERT_TRUE(one.Register("t", table, &error)) << error;

  const std::string unique = "SELECT u, count(*) AS c, sum(x) FROM t GROUP BY u ORDER BY c DESC, u LIMIT 5";
  Result r = db.Query(unique);
  ASSERT_TRUE(r.ok()) << r.error();
  std::string json = db.LastProfileJson();
  // Owned scan: each thread's groups laid side by side, no partitioning (convert) step.
  EXPECT_TRUE(HasSpan(json, "merge states")) << json.substr(0, 2000);
  EXPECT_FALSE(HasSpan(json, "convert"));
  Result expected = one.Query(unique);
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(expected.num_rows(), r.num_rows());
  // Its sample was taken once; run again, the query chooses the same path from the sample's
  // summary, which the database kept (group_size_hints.h), without a sample.
  EXPECT_EQ(1u, testing::SpanCount(json, "sample"));
  const Result again = db.Query(unique);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(PrintCsv(r), PrintCsv(again));
  EXPECT_TRUE(HasSpan(db.LastProfileJson(), "merge states"));
  EXPECT_FALSE(HasSpan(db.LastProfileJson(), "sample"));

  // With a WHERE, the owners share one evaluation of it instead of each evaluating it for every
  // row: the thread that prepares a batch's keys for all owners evaluates it there (no "filter"
  // pass over the whole table first, which left its columns out of the cache by the time the
  // keys were gathered).
  const std::string filtered =
      "SELECT u, count(*) AS c, sum(x) FROM t WHERE x <> 3 AND m < 90 GROUP BY u";  // every group
  r = db.Query(filtered);
  ASSERT_TRUE(r.ok()) << r.error();
  json = db.LastProfileJson();
  EXPECT_TRUE(HasSpan(json, "merge states"));
  EXPECT_TRUE(HasSpan(json, "prepare keys"));
  EXPECT_FALSE(HasSpan(json, "filter"));
  expected = one.Query(filtered);
  ASSERT_TRUE(expected.ok());
  ASSERT_EQ(expected.num_rows(), r.num_rows());
  for (size_t c = 0; c < r.num_columns(); ++c) {
    EXPECT_EQ(0, std::memcmp(expected.column(c).values_buffer().data(), r.column(c).values_buffer().data(),
                             r.num_rows() * TypeByteWidth(r.column(c).type())));
  }

  // About 80 % of the sampled rows start a group: more than half, so split by keys, with a
  // WHERE too (since the owners share the keys' preparation, the same share is asked there).
  const std::string most = "SELECT p, count(*) AS c FROM t GROUP BY p ORDER BY c DESC, p LIMIT 3";
  const std::string most_filtered =
      "SELECT p, count(*) AS c FROM t WHERE m <> 7 GROUP BY p ORDER BY c DESC, p LIMIT 3";
  for (const std::string& sql : {most, most_filtered}) {
    r = db.Query(sql);
    ASSERT_TRUE(r.ok()) << r.error();
    json = db.LastProfileJson();
    EXPECT_TRUE(HasSpan(json, "prepare keys")) << sql;  // owned_scan.h
    EXPECT_FALSE(HasSpan(json, "convert")) << sql;
    ASSERT_EQ(r.num_rows(), 3u);
    EXPECT_EQ(r.column(0).Values<int64_t>()[0], 3);  // rows 3 and 4
    EXPECT_EQ(r.column(1).Values<int64_t>()[0], 2);
  }
  // 20,000 keys: the sample of 4 batches (65,536 rows) sees about 15,000, under half its rows:
  // split by rows, and the WHERE evaluated by each thread on its own rows (no shared pass).
  const std::string fewer_filtered =
      "SELECT u % 20000 AS k, count(*) AS c FROM t WHERE m <> 7 GROUP BY k ORDER BY c DESC, k LIMIT 3";
  r = db.Query(fewer_filtered);
  ASSERT_TRUE(r.ok()) << r.error();
  json = db.LastProfileJson();
  EXPECT_FALSE(HasSpan(json, "prepare keys"));
  EXPECT_FALSE(HasSpan(json, "filter"));  // the shared WHERE pass belongs to the split by keys
  expected = one.Query(fewer_filtered);
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(PrintCsv(expected), PrintCsv(r));

  // A grouped float SUM over more groups than GroupBatchPartials::kMaxGroups: split by keys,
  // so that each group's values are added in row order by one thread (as on one thread), not
  // on one thread alone. Over 100 groups: split by rows, the sums added by batch partials
  // (no owners' merge). Both give one thread's bits.
  for (const auto& [float_sums, groups] : {std::pair<std::string, size_t>{
                                               "SELECT u % 3000 AS k, sum(f) AS s FROM t GROUP BY k ORDER BY k", 3000},
                                           {"SELECT m, sum(f) AS s FROM t GROUP BY m ORDER BY m", 100}}) {
    r = db.Query(float_sums);
    ASSERT_TRUE(r.ok()) << r.error();
    json = db.LastProfileJson();
    EXPECT_EQ(groups > 1000, HasSpan(json, "merge states")) << float_sums;
    expected = one.Query(float_sums);
    ASSERT_TRUE(expected.ok());
    ASSERT_EQ(groups, r.num_rows());
    EXPECT_EQ(0, std::memcmp(expected.column(1).values_buffer().data(), r.column(1).values_buffer().data(),
                             groups * sizeof(double)))
        << float_sums;
  }

  // Ungrouped COUNT(DISTINCT) of nearly unique integers: counted by radix partitions (no union
  // of the threads' sets); of 100 values: split by rows, each thread its own small set. (Of
  // unique strings: split by value, UngroupedStringDistinctCountsOnEveryPath.)
  for (const char* distinct : {"SELECT count(DISTINCT u) FROM t", "SELECT count(DISTINCT m) FROM t"}) {
    r = db.Query(distinct);
    ASSERT_TRUE(r.ok()) << r.error();
    json = db.LastProfileJson();
    const bool unique = std::string(distinct).find("(DISTINCT u)") != std::string::npos;
    EXPECT_EQ(unique, HasSpan(json, "count distinct")) << distinct;
    EXPECT_FALSE(HasSpan(json, "merge states")) << distinct;
    ASSERT_EQ(1u, r.num_rows());
    EXPECT_EQ(unique ? 40 * 16384 : 100, r.column(0).Values<int64_t>()[0]) << distinct;
  }

  const std::string few = "SELECT m, count(*) AS c FROM t GROUP BY m ORDER BY m";
  r = db.Query(few);
  ASSERT_TRUE(r.ok()) << r.error();
  json = db.LastProfileJson();
  EXPECT_TRUE(HasSpan(json, "merge"));  // rows split: the threads' tables merged
  EXPECT_FALSE(HasSpan(json, "merge states"));
  ASSERT_EQ(r.num_rows(), 100u);
  for (size_t g = 0; g < 100; ++g) {
    EXPECT_EQ(r.column(0).Values<int64_t>()[g], static_cast<int64_t>(g));
    EXPECT_EQ(r.column(1).Values<int64_t>()[g], g < (40 * 16384) % 100 ? 6554 : 6553) << g;
  }
}

TEST(GroupSplit, EveryModeGivesTheSameGroupsAndSums) {
  auto table = KeysTable(100'000);
  const char* queries[] = {
      "SELECT u, count(*), sum(x), min(x), max(m), avg(x), count(DISTINCT x) FROM t GROUP BY u",
      "SELECT m, x, count(*), count(DISTINCT u) FROM t GROUP BY m, x",
      "SELECT u % 1000 AS k, sum(u) FROM t WHERE x <> 3 GROUP BY k HAVING count(*) > 50",
      // A WHERE that keeps no row, and one that keeps every seventh.
      "SELECT u, count(*) FROM t WHERE m > 1000 GROUP BY u",
      "SELECT u, sum(m), count(*) FROM t WHERE x = 4 GROUP BY u",
      // Float and string states: MIN / MAX of doubles and of strings.
      "SELECT u, min(f), max(f), min(s), max(s), count(s) FROM t GROUP BY u",
      "SELECT p, max(f), max(s), sum(x) FROM t GROUP BY p",
      // Grouped float SUM / AVG add each group's values in row order: split by keys they run on
      // every thread, split by rows and with a direct (16-bit) key on one; the same bits always.
      "SELECT u, sum(f), avg(f), count(*) FROM t GROUP BY u",
      "SELECT m, sum(f), avg(f) FROM t WHERE x <> 2 GROUP BY m",
      "SELECT CAST(x AS SMALLINT) AS k, sum(f) FROM t GROUP BY k",
      // Ungrouped COUNT(DISTINCT)s, split by value or by rows: integers, doubles, strings, a
      // 128-bit product, under a WHERE; and one beside another aggregate (always by rows).
      "SELECT count(DISTINCT u) FROM t",
      "SELECT count(DISTINCT u), count(DISTINCT f), count(DISTINCT s), count(DISTINCT u * u) FROM t "
      "WHERE x <> 3",
      "SELECT count(DISTINCT p), count(*) FROM t",
  };
  std::string error;
  Database one(OneThread());
  ASSERT_TRUE(one.Register("t", table, &error)) << error;
  for (auto split : {DatabaseOptions::GroupSplit::kRows, DatabaseOptions::GroupSplit::kKeys}) {
    for (int threads : {2, 3, 4}) {
      DatabaseOptions options;
      options.threads = threads;
      options.min_parallel_rows = 0;
      options.group_split = split;
      Database many(options);
      ASSERT_TRUE(many.Register("t", table, &error)) << error;
      for (const char* sql : queries) {
        const Result a = one.Query(sql);
        const Result b = many.Query(sql);
        ASSERT_TRUE(a.ok() && b.ok()) << a.error() << b.error();
        ASSERT_EQ(a.num_rows(), b.num_rows()) << sql;
        // First-seen group order, whatever the split: the same rows in the same order (numbers
        // as bytes, floats too; strings as printed).
        for (size_t c = 0; c < a.num_columns(); ++c) {
          if (IsString(a.column(c).type())) continue;
          const size_t w = TypeByteWidth(a.column(c).type());
          ASSERT_EQ(0, std::memcmp(a.column(c).values_buffer().data(),
                                   b.column(c).values_buffer().data(), a.num_rows() * w))
              << sql << " column " << c << " at " << threads << " threads";
        }
        ASSERT_EQ(PrintCsv(a), PrintCsv(b)) << sql << " at " << threads << " threads";
      }
    }
  }
}

// Ungrouped COUNT(DISTINCT) of strings keys its set on the rows' bytes alone (no group id in
// front, no copy of the rows): one thread; the row split, whose sets are merged; the split by
// value (nearly unique strings), whose counts are added; with NULLs and '' among the rows.
TEST(GroupSplit, UngroupedStringDistinctCountsOnEveryPath) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const size_t rows = 40 * 16384;
  Column unique(TypeId::kString), few(TypeId::kString);
  std::unordered_set<std::string> unique_seen, few_seen;
  std::string error;
  for (size_t i = 0; i < rows; ++i) {
    if (i % 9 == 0) {
      ASSERT_TRUE(unique.AppendNull(&error)) << error;
      ASSERT_TRUE(few.AppendNull(&error)) << error;
      continue;
    }
    const std::string u = i % 9 == 1 ? "" : "v" + std::to_string(i * 2654435761u % 1000003u);
    const std::string f = i % 9 == 1 ? "" : "w" + std::to_string(i % 1000);
    ASSERT_TRUE(unique.AppendString(u, &error)) << error;
    ASSERT_TRUE(few.AppendString(f, &error)) << error;
    unique_seen.insert(u);
    few_seen.insert(f);
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("u", std::move(unique), &error)) << error;
  ASSERT_TRUE(table->AddColumn("f", std::move(few), &error)) << error;
  for (size_t threads : {1, 2, 3}) {
    DatabaseOptions options;
    options.threads = threads;
    options.profile = true;
    Database db(options);
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    for (const bool is_unique : {true, false}) {
      const Result r = db.Query(is_unique ? "SELECT count(DISTINCT u) FROM t"
                                          : "SELECT count(DISTINCT f), count(DISTINCT 'x') FROM t");
      ASSERT_TRUE(r.ok()) << r.error();
      ASSERT_EQ(1u, r.num_rows());
      const size_t expected = is_unique ? unique_seen.size() : few_seen.size();
      EXPECT_EQ(static_cast<int64_t>(expected), r.column(0).Values<int64_t>()[0])
          << threads << " threads, unique " << is_unique;
      if (!is_unique) {
        EXPECT_EQ(1, r.column(1).Values<int64_t>()[0]);
      }
      // The nearly unique strings are split by value on more than one thread.
      EXPECT_EQ(is_unique && threads > 1, HasSpan(db.LastProfileJson(), "merge states"))
          << threads << " threads, unique " << is_unique;
    }
  }
}

// Rows of the last query's spans named `name`, all threads together.
uint64_t SpanRows(const std::string& json, const std::string& name) {
  const std::regex span("\"name\": ?\"" + name + "\"[^}]*\"rows\": ?([0-9]+)");
  uint64_t rows = 0;
  for (auto it = std::sregex_iterator(json.begin(), json.end(), span); it != std::sregex_iterator(); ++it) {
    rows += std::stoull((*it)[1].str());
  }
  return rows;
}
// Rows the "scan" spans read: the table's rows when the threads split the rows, a multiple of
// them when each thread takes every batch.
uint64_t ScannedRows(const std::string& json) { return SpanRows(json, "scan"); }
// Rows the "prepare keys" spans prepared: the shared preparation of the split by keys or values.
uint64_t PreparedRows(const std::string& json) { return SpanRows(json, "prepare keys"); }

// Few groups and a COUNT(DISTINCT) of nearly unique values: the rows split by that value, every
// thread reading every batch and holding every group. The answers (with NULL values, a WHERE,
// and the other kinds of aggregate beside) match one thread's; few values split by rows.
TEST(GroupSplit, FewGroupsWithManyDistinctValuesSplitByValue) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const size_t rows = 40 * 16384;
  auto table = KeysTable(rows);
  std::string error;
  Database one(OneThread());
  ASSERT_TRUE(one.Register("t", table, &error)) << error;
  const std::string nulls = "count(DISTINCT CASE WHEN x = 0 THEN NULL ELSE u END)";
  const struct {
    std::string sql;
    bool by_value;
  } cases[] = {
      {"SELECT m, count(DISTINCT u) AS d, count(*), sum(x), min(s), max(p) FROM t GROUP BY m ORDER BY m", true},
      {"SELECT m % 7 AS k, " + nulls + ", count(*), avg(x) FROM t WHERE x <> 3 GROUP BY k ORDER BY k", true},
      {"SELECT m, count(DISTINCT x), count(*) FROM t GROUP BY m ORDER BY m", false},
  };
  for (const auto& c : cases) {
    const Result expected = one.Query(c.sql);
    ASSERT_TRUE(expected.ok()) << expected.error();
    for (int threads : {2, 3}) {
      // Integers' pairs are counted by radix partitions unless that is turned off
      // (distinct_partitions.h): then the split by value, which strings' pairs keep.
      for (const bool partitions : {false, true}) {
        DatabaseOptions options;
        options.threads = threads;
        options.profile = true;
        if (!partitions) options.partitioned_distinct_min_values = SIZE_MAX;
        Database db(options);
        ASSERT_TRUE(db.Register("t", table, &error)) << error;
        const Result r = db.Query(c.sql);
        ASSERT_TRUE(r.ok()) << r.error();
        EXPECT_EQ(PrintCsv(expected), PrintCsv(r)) << c.sql << " at " << threads << " threads";
        const bool by_value = c.by_value && !partitions;
        const std::string json = db.LastProfileJson();
        EXPECT_EQ(by_value ? rows * threads : rows, ScannedRows(json)) << c.sql << " at " << threads << " threads";
        // The values are hashed once, for all threads (owned_scan.h).
        EXPECT_EQ(by_value ? rows : 0, PreparedRows(json)) << c.sql << " at " << threads << " threads";
        EXPECT_EQ(c.by_value && partitions, HasSpan(json, "count distinct")) << c.sql;
        // Every choice (partitioned groups or pairs, split by keys or values, the first run's
        // sizes) reads one sample.
        EXPECT_EQ(1u, testing::SpanCount(json, "sample")) << c.sql;
      }
    }
  }
}

// The split by keys prepares each batch's keys once for all owners (owned_scan.h): on more
// batches than its ring has slots, with each kind of key (one 8-byte word, wide words, with a
// NULL flag, one string, serialised; u % 20011 can be NULL, so it takes wide words), behind a
// WHERE and not, and with more owners than cores.
// Every batch is prepared exactly once, every owner takes every batch, and the answers are
// byte for byte one thread's (the same groups in the same order, float sums in row order).
TEST(GroupSplit, OwnersShareEachBatchsPreparedKeys) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const size_t rows = 66 * 16384;  // more batches than the ring's 64 slots
  auto table = KeysTable(rows);
  std::string error;
  Database one(OneThread());
  ASSERT_TRUE(one.Register("t", table, &error)) << error;
  const char* queries[] = {
      // (m alone, a column of 100 values, would take the direct table, which no owner splits.)
      "SELECT m + 0 AS k, count(*), sum(x), max(s) FROM t WHERE x <> 5 GROUP BY k",
      "SELECT u % 20011 AS k, p % 3 AS q, count(*), min(f) FROM t WHERE x <> 3 GROUP BY k, q",
      "SELECT CASE WHEN x = 0 THEN NULL ELSE u % 20011 END AS k, count(*) FROM t GROUP BY k",
      "SELECT CAST(u % 20011 AS VARCHAR) AS k, count(*), avg(x) FROM t WHERE m <> 7 GROUP BY k",
      "SELECT u % 2003 AS k, s, count(*), sum(f) FROM t GROUP BY k, s",
      "SELECT u, count(*) FROM t WHERE m > 1000 GROUP BY u",  // no row passes
      // Behind a WHERE the arguments are evaluated once, as the keys, and each owner compresses
      // out its own (PreparedBatch::args): NULLs, a constant, an expression, a float sum, a
      // COUNT(DISTINCT), a string (still evaluated by each owner); a WHERE dense in the batch and
      // a sparse one.
      "SELECT u % 100003 AS k, count(DISTINCT m), sum(CASE WHEN x = 0 THEN NULL ELSE p END), sum(f), "
      "avg(x * 2 + m), count(x), max(3), min(s) FROM t WHERE x <> 4 GROUP BY k",
      "SELECT p % 200003 AS k, sum(u), count(CASE WHEN m > 50 THEN NULL ELSE 1 END), sum(f) FROM t "
      "WHERE x = 1 AND m < 5 GROUP BY k",
  };
  for (const char* sql : queries) {
    const Result expected = one.Query(sql);
    ASSERT_TRUE(expected.ok()) << expected.error();
    for (int threads : {2, 4}) {
      DatabaseOptions options;
      options.threads = threads;
      options.profile = true;
      options.group_split = DatabaseOptions::GroupSplit::kKeys;
      Database db(options);
      ASSERT_TRUE(db.Register("t", table, &error)) << error;
      const Result r = db.Query(sql);
      ASSERT_TRUE(r.ok()) << r.error();
      ASSERT_EQ(expected.num_rows(), r.num_rows()) << sql;
      for (size_t c = 0; c < r.num_columns(); ++c) {
        // Buffers compared whole: the same bytes, floats too, in the same group order.
        const Column& want = expected.column(c);
        const Column& got = r.column(c);
        ASSERT_EQ(want.values_buffer().size(), got.values_buffer().size()) << sql << " column " << c;
        ASSERT_EQ(want.offsets_buffer().size(), got.offsets_buffer().size()) << sql << " column " << c;
        ASSERT_EQ(want.null_count(), got.null_count()) << sql << " column " << c;
        EXPECT_EQ(0, std::memcmp(want.values_buffer().data(), got.values_buffer().data(), want.values_buffer().size()))
            << sql << " column " << c << " at " << threads << " threads";
        EXPECT_EQ(0, std::memcmp(want.offsets_buffer().data(), got.offsets_buffer().data(),
                                 want.offsets_buffer().size()))
            << sql << " column " << c << " at " << threads << " threads";
      }
      const std::string json = db.LastProfileJson();
      EXPECT_EQ(rows, PreparedRows(json)) << sql << " at " << threads << " threads";
      EXPECT_EQ(rows * threads, ScannedRows(json)) << sql << " at " << threads << " threads";
    }
  }
  // A key that fails to evaluate in batch 61 (at row 1,000,000's u; while preparing, on
  // whichever thread): the query fails with one thread's message, and the owners waiting on
  // that batch stop. (u is read from the table: its values differ where size_t is 32 bits.)
  const int64_t bad_u = table->column(0).Values<int64_t>()[1000000];
  const std::string failing = "SELECT CAST(CASE WHEN u = " + std::to_string(bad_u) +
                              " THEN 'bad' ELSE '1' END AS INTEGER) AS k, u, count(*) FROM t GROUP BY k, u";
  const Result expected = one.Query(failing);
  ASSERT_FALSE(expected.ok());
  for (int threads : {2, 4}) {
    DatabaseOptions options;
    options.threads = threads;
    options.group_split = DatabaseOptions::GroupSplit::kKeys;
    Database db(options);
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    const Result r = db.Query(failing);
    ASSERT_FALSE(r.ok()) << threads << " threads";
    EXPECT_EQ(expected.error(), r.error()) << threads << " threads";
  }
}

// Keys stored together, a few rows each (TPC-H's lineitem by l_orderkey): every sampled batch
// repeats its keys but shares none with the others, so the table holds many groups although
// the sample's rows per group say few. Split by keys on 2 to 4 threads (a split by rows would
// merge every group again); by rows past 4, not partitioned (the rows reach one table in
// order); groups of 64 rows are few enough to split by rows. The answers are one thread's. (The
// keys of four rows come in no order: ascending, the threads would take segments of batches
// that share no key, group_key_ranges_test.cc.)
TEST(GroupSplit, KeysStoredTogetherSplitByKeys) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const size_t rows = 40 * 16384;
  Column k4(TypeId::kInt64), k64(TypeId::kInt64), v(TypeId::kInt64);
  std::string error;
  for (size_t i = 0; i < rows; ++i) {
    ASSERT_TRUE(k4.Append<int64_t>(static_cast<int64_t>(uint64_t{i} / 4 * 2654435761u % 1000000007u * 3 + 1), &error));
    ASSERT_TRUE(k64.Append<int64_t>(static_cast<int64_t>(i / 64), &error));
    ASSERT_TRUE(v.Append<int64_t>(static_cast<int64_t>(i * 2654435761u % 51), &error));
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("k4", std::move(k4), &error)) << error;
  ASSERT_TRUE(table->AddColumn("k64", std::move(k64), &error)) << error;
  ASSERT_TRUE(table->AddColumn("v", std::move(v), &error)) << error;
  DatabaseOptions one_options = OneThread();
  one_options.profile = true;
  Database one(one_options);
  ASSERT_TRUE(one.Register("t", table, &error)) << error;
  struct Case {
    const char* sql;
    bool by_keys;  // on 2 and 4 threads
  };
  const Case cases[] = {
      {"SELECT k4, sum(v) AS s, count(*) FROM t GROUP BY k4 HAVING sum(v) > 120", true},
      {"SELECT k4, max(v) FROM t WHERE v <> 7 GROUP BY k4", true},
      {"SELECT k64, sum(v) FROM t GROUP BY k64", false},
  };
  for (const Case& c : cases) {
    const Result expected = one.Query(c.sql);
    ASSERT_TRUE(expected.ok()) << expected.error();
    EXPECT_FALSE(HasSpan(one.LastProfileJson(), "aggregate partition")) << c.sql;
    for (int threads : {2, 4, 8}) {
      DatabaseOptions options;
      options.threads = threads;
      options.profile = true;
      Database db(options);
      ASSERT_TRUE(db.Register("t", table, &error)) << error;
      const Result r = db.Query(c.sql);
      ASSERT_TRUE(r.ok()) << r.error();
      EXPECT_EQ(PrintCsv(expected), PrintCsv(r)) << c.sql << " at " << threads << " threads";
      const std::string json = db.LastProfileJson();
      EXPECT_EQ(HasSpan(json, "prepare keys"), c.by_keys && threads <= 4) << c.sql << " at " << threads;
      EXPECT_FALSE(HasSpan(json, "aggregate partition")) << c.sql << " at " << threads;
    }
  }
}

TEST(LargeBlocks, FreedBlocksAreReusedAndReleased) {
  ReleaseLargeBlocks();
  EXPECT_EQ(KeptLargeBlockBytes(), 0u);
  const size_t bytes = kLargeBlockMinBytes + 12345;
  void* a = AllocateLargeBlock(bytes);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  std::memset(a, 0x5a, bytes);  // every byte writable
  FreeLargeBlock(a, bytes);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  EXPECT_GE(KeptLargeBlockBytes(), bytes);
  void* b = AllocateLargeBlock(bytes - 1000);  // a nearby size takes the kept block
  EXPECT_EQ(a, b);
  EXPECT_EQ(KeptLargeBlockBytes(), 0u);
  FreeLargeBlock(b, bytes - 1000);
  void* big = AllocateLargeBlock(8 * bytes);  // far larger: a fresh block
  EXPECT_NE(big, b);
  FreeLargeBlock(big, 8 * bytes);
#endif
  ReleaseLargeBlocks();
  EXPECT_EQ(KeptLargeBlockBytes(), 0u);
}

// A kept block handed out for a somewhat smaller request goes whole (no unmapping of its
// surplus, which takes the memory map lock other threads' page faults need) and is kept whole
// again when freed with the request's size.
TEST(LargeBlocks, ABlockHandedOutLargerIsKeptWholeAgain) {
  ReleaseLargeBlocks();
  const size_t bytes = kLargeBlockMinBytes + kLargeBlockMinBytes / 2;  // 1.5 MiB
  void* block = AllocateLargeBlock(bytes);
  ASSERT_NE(block, nullptr);
  FreeLargeBlock(block, bytes);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  const size_t kept = KeptLargeBlockBytes();
  EXPECT_GE(kept, bytes);
  const size_t smaller = bytes - bytes / 8;  // within a quarter of the kept size
  void* again = AllocateLargeBlock(smaller);
  EXPECT_EQ(again, block);
  EXPECT_EQ(KeptLargeBlockBytes(), 0u);
  std::memset(again, 0x33, kept);  // all of it still mapped and writable
  FreeLargeBlock(again, smaller);
  EXPECT_EQ(KeptLargeBlockBytes(), kept);  // the whole block, not the request's size
  void* whole = AllocateLargeBlock(bytes);  // and the full size finds it again
  EXPECT_EQ(whole, block);
  FreeLargeBlock(whole, bytes);
#endif
  ReleaseLargeBlocks();
  EXPECT_EQ(KeptLargeBlockBytes(), 0u);
}

// A kept block goes only to requests of nearly its size: a half-size request maps a block of
// its own and leaves the kept one whole for the next request of the full size (queries of two
// sizes in turn, e.g. on 1 and on 2 threads, each find their blocks again).
TEST(LargeBlocks, HalfSizeRequestLeavesALargerKeptBlockWhole) {
  ReleaseLargeBlocks();
  const size_t bytes = 4 * kLargeBlockMinBytes;
  void* large = AllocateLargeBlock(bytes);
  ASSERT_NE(large, nullptr);
  FreeLargeBlock(large, bytes);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  const size_t kept = KeptLargeBlockBytes();
  EXPECT_GE(kept, bytes);
  void* half = AllocateLargeBlock(bytes / 2);
  ASSERT_NE(half, nullptr);
  EXPECT_NE(half, large);
  EXPECT_EQ(KeptLargeBlockBytes(), kept);  // not taken, not trimmed
  void* again = AllocateLargeBlock(bytes);
  EXPECT_EQ(again, large);
  FreeLargeBlock(again, bytes);
  FreeLargeBlock(half, bytes / 2);
#endif
  ReleaseLargeBlocks();
  EXPECT_EQ(KeptLargeBlockBytes(), 0u);
}

// Blocks under 4 MiB are kept too (a million rows of int32 are 4 MB, just under it), mapped in
// 64 KiB steps rather than whole 2 MiB huge pages, which would waste up to half of them; from
// 4 MiB on they are whole huge pages.
TEST(LargeBlocks, BlocksUnderFourMiBAreKeptInSixtyFourKiBSteps) {
  ReleaseLargeBlocks();
  const size_t small = kLargeBlockMinBytes + 1;  // 1 MiB + 1: 17 steps of 64 KiB
  const size_t four_million = 4000000;             // the int32 column of a million rows
  const size_t huge = (size_t{4} << 20) + 1;       // just over 4 MiB: three huge pages
  void* a = AllocateLargeBlock(small);
  void* b = AllocateLargeBlock(four_million);
  void* c = AllocateLargeBlock(huge);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(c, nullptr);
  std::memset(a, 1, small);
  std::memset(b, 2, four_million);
  std::memset(c, 3, huge);
  FreeLargeBlock(a, small);
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  EXPECT_EQ(KeptLargeBlockBytes(), size_t{17} << 16);
  FreeLargeBlock(b, four_million);
  EXPECT_EQ(KeptLargeBlockBytes(), (size_t{17} << 16) + (size_t{62} << 16));  // 4,063,232
  FreeLargeBlock(c, huge);
  EXPECT_EQ(KeptLargeBlockBytes(), (size_t{17} << 16) + (size_t{62} << 16) + (size_t{6} << 20));
  // The next table's column of the same size finds its block again.
  void* again = AllocateLargeBlock(four_million);
  EXPECT_EQ(again, b);
  FreeLargeBlock(again, four_million);
#else
  FreeLargeBlock(b, four_million);
  FreeLargeBlock(c, huge);
#endif
  ReleaseLargeBlocks();
  EXPECT_EQ(KeptLargeBlockBytes(), 0u);
}

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
// A full cache unmaps the blocks freed longest ago to keep the one freed now: the next run of a
// query asks for what its last run freed, not for what a table's growth left long before.
TEST(LargeBlocks, AFullCacheGivesUpTheBlocksFreedLongestAgo) {
  ReleaseLargeBlocks();
  const size_t saved_budget = LargeBlockBudget();
  constexpr size_t kMiB = size_t{1} << 20;
  SetLargeBlockBudget(28 * kMiB);
  // Sizes more than a quarter apart, so that no request takes another size's block.
  void* a = AllocateLargeBlock(4 * kMiB);
  void* b = AllocateLargeBlock(8 * kMiB);
  void* c = AllocateLargeBlock(16 * kMiB);
  void* e = AllocateLargeBlock(6 * kMiB);
  ASSERT_TRUE(a && b && c && e);
  FreeLargeBlock(a, 4 * kMiB);
  FreeLargeBlock(b, 8 * kMiB);
  FreeLargeBlock(c, 16 * kMiB);
  EXPECT_EQ(KeptLargeBlockBytes(), 28 * kMiB);
  // Taking c and freeing it again makes it the newest: e's room comes from a, then b.
  void* c_again = AllocateLargeBlock(16 * kMiB);
  EXPECT_EQ(c_again, c);
  FreeLargeBlock(c_again, 16 * kMiB);
  FreeLargeBlock(e, 6 * kMiB);
  EXPECT_EQ(KeptLargeBlockBytes(), 22 * kMiB);  // c and e; a and b unmapped
  void* fresh = AllocateLargeBlock(8 * kMiB);   // b is gone: nothing kept is taken
  EXPECT_EQ(KeptLargeBlockBytes(), 22 * kMiB);
  EXPECT_EQ(AllocateLargeBlock(6 * kMiB), e);
  EXPECT_EQ(KeptLargeBlockBytes(), 16 * kMiB);
  FreeLargeBlock(e, 6 * kMiB);
  // A block larger than the whole budget is unmapped, and evicts nothing.
  void* over = AllocateLargeBlock(30 * kMiB);
  ASSERT_NE(over, nullptr);
  FreeLargeBlock(over, 30 * kMiB);
  EXPECT_EQ(KeptLargeBlockBytes(), 22 * kMiB);
  // A smaller budget gives up the oldest blocks at once: c (freed before e) goes.
  SetLargeBlockBudget(10 * kMiB);
  EXPECT_EQ(KeptLargeBlockBytes(), 6 * kMiB);
  EXPECT_EQ(AllocateLargeBlock(6 * kMiB), e);
  FreeLargeBlock(e, 6 * kMiB);
  FreeLargeBlock(fresh, 8 * kMiB);  // 6 + 8 > 10: e, the older, goes
  EXPECT_EQ(KeptLargeBlockBytes(), 8 * kMiB);
  SetLargeBlockBudget(saved_budget);
  ReleaseLargeBlocks();
  EXPECT_EQ(KeptLargeBlockBytes(), 0u);
}
#endif

#if defined(__GLIBC__) && !defined(__EMSCRIPTEN__)
// Once a Database exists, memory freed to the C library's heap stays mapped for the next
// query (RetainFreedHeapMemory): 200 blocks of 256 KiB, written, freed and taken again, fault
// in almost no fresh page the second time (glibc's defaults gave every page back at the free).
// A worker thread's heap (glibc gives each thread an arena of 64 MiB heaps) must keep its
// memory too: 100 MiB spans two of its heaps, and glibc unmapped a heap once it was all free
// (GROUP BY UserID's partitions on 2 threads: 700-6,000 faults in every run on the worker).
void ExpectFreedHeapMemoryKept(size_t count) {
  constexpr size_t kBytes = size_t{256} << 10;
  volatile unsigned sum = 0;
  const auto round = [&]() {
    std::vector<char*> blocks;
    for (size_t i = 0; i < count; ++i) {
      blocks.push_back(static_cast<char*>(std::malloc(kBytes)));
      ASSERT_NE(blocks.back(), nullptr);
      std::memset(blocks.back(), static_cast<int>(i), kBytes);
    }
    for (char* block : blocks) {
      sum = sum + static_cast<unsigned char>(block[kBytes / 2]);
      std::free(block);
    }
  };
  round();
  struct rusage before, after;
  getrusage(RUSAGE_SELF, &before);
  round();
  getrusage(RUSAGE_SELF, &after);
  const long pages = static_cast<long>(count * kBytes / 4096);
  EXPECT_LT(after.ru_minflt - before.ru_minflt, pages / 10) << "of " << pages << " pages";
}

TEST(LargeBlocks, ADatabaseKeepsFreedHeapMemoryForTheNextQuery) {
  Database db;
  if (!RetainFreedHeapMemory()) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's malloc";
  ExpectFreedHeapMemoryKept(200);
}

TEST(LargeBlocks, AWorkerThreadKeepsItsFreedHeapMemory) {
  Database db;
  if (!RetainFreedHeapMemory()) GTEST_SKIP() << "a sanitizer's allocator replaces glibc's malloc";
  std::thread worker([] { ExpectFreedHeapMemoryKept(400); });
  worker.join();
}
#endif

TEST(LargeBlocks, BufferGrowingPastTheThresholdKeepsItsBytes) {
  AlignedBuffer buffer;
  std::string error;
  uint64_t next = 1;
  for (size_t i = 0; i < (3 * kLargeBlockMinBytes) / 8; ++i) {
    ASSERT_TRUE(buffer.Append(&next, 8, &error)) << error;
    next = next * 6364136223846793005u + 1442695040888963407u;
  }
  uint64_t check = 1;
  for (size_t i = 0; i < (3 * kLargeBlockMinBytes) / 8; ++i) {
    uint64_t v;
    std::memcpy(&v, buffer.data() + i * 8, 8);
    ASSERT_EQ(v, check) << i;
    check = check * 6364136223846793005u + 1442695040888963407u;
  }
}

}  // namespace
}  // namespace laneql
