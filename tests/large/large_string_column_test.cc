// A string column of over 2 GiB of text, end to end: the hits generator makes URL for 24 M
// rows (about 2.5 GB) as a large_string; queries on it (scan, LIKE, GROUP BY, ORDER BY,
// COUNT(DISTINCT), a join, the whole column as the answer and sorted, a table made from it)
// are checked against answers worked out here from the column's bytes; then the same through
// a .laneql file and a TSV file read back. (Parquet: parquet_over_2gib.py.) About 17 GB of
// memory at its peak (measured) and 6 GB of disk (LANEQL_LARGE_DIR, default /tmp): not part
// of `make test` but of `make test-large-strings`.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result_printers.h"
#include "laneql/table_file.h"

namespace laneql {
namespace {

constexpr size_t kRows = 24'000'000;

// What the queries must answer, from the column's bytes alone.
struct Expected {
  int64_t rows = 0;
  uint64_t bytes = 0;
  int64_t google = 0;  // rows with "google" in them
  size_t distinct = 0;
  std::string min, max;
  std::vector<std::pair<std::string, int64_t>> top;  // the 5 most frequent, ties by text
};

Expected Work(const Column& url) {
  Expected e;
  std::unordered_map<std::string_view, int64_t> counts;
  counts.reserve(url.length() / 2);
  e.rows = static_cast<int64_t>(url.length());
  for (size_t r = 0; r < url.length(); ++r) {
    const std::string_view s = url.StringAt(r);
    e.bytes += s.size();
    e.google += s.find("google") != std::string_view::npos;
    ++counts[s];
    if (r == 0 || s < e.min) e.min = std::string(s);
    if (r == 0 || s > e.max) e.max = std::string(s);
  }
  e.distinct = counts.size();
  std::vector<std::pair<std::string_view, int64_t>> all(counts.begin(), counts.end());
  std::partial_sort(all.begin(), all.begin() + 5, all.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  for (size_t i = 0; i < 5; ++i) e.top.emplace_back(std::string(all[i].first), all[i].second);
  return e;
}

std::string Cell(const Result& result, size_t column, size_t row) {
  return FormatValue(result.column(column), row, ValueStyle::kText);
}

// The queries of the test on table `t` (a URL column) against `e`.
void CheckQueries(Database* db, const Expected& e, const std::string& where) {
  SCOPED_TRACE(where);
  Result r = db->Query("SELECT count(*), sum(strlen(URL)), min(URL), max(URL) FROM t");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(Cell(r, 0, 0), std::to_string(e.rows));
  EXPECT_EQ(Cell(r, 1, 0), std::to_string(e.bytes));
  EXPECT_EQ(Cell(r, 2, 0), e.min);
  EXPECT_EQ(Cell(r, 3, 0), e.max);

  r = db->Query("SELECT count(*) FROM t WHERE URL LIKE '%google%'");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(Cell(r, 0, 0), std::to_string(e.google));

  r = db->Query("SELECT URL, count(*) AS c FROM t GROUP BY URL ORDER BY c DESC, URL LIMIT 5");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r.num_rows(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(Cell(r, 0, i), e.top[i].first) << i;
    EXPECT_EQ(Cell(r, 1, i), std::to_string(e.top[i].second)) << i;
  }

  r = db->Query("SELECT count(DISTINCT URL) FROM t");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(Cell(r, 0, 0), std::to_string(e.distinct));

  r = db->Query("SELECT URL FROM t ORDER BY URL DESC LIMIT 1");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(Cell(r, 0, 0), e.max);

  // A join probed by the large column: the rows of the two most frequent URLs.
  r = db->Query("SELECT count(*) FROM t JOIN (SELECT URL FROM t GROUP BY URL ORDER BY count(*) DESC, URL "
                "LIMIT 2) top USING (URL)");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(Cell(r, 0, 0), std::to_string(e.top[0].second + e.top[1].second));
}

std::string LargeDir() {
  const char* dir = std::getenv("LANEQL_LARGE_DIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

TEST(LargeStringColumn, OverTwoGiBOfText) {
  HitsOptions hits;
  hits.rows = kRows;
  hits.columns = {"URL"};
  auto table = std::make_shared<Table>();
  std::string error;
  ASSERT_TRUE(GenerateHits(hits, table.get(), &error)) << error;
  const Column& url = table->column(0);
  ASSERT_EQ(url.type(), TypeId::kLargeString);
  ASSERT_GT(url.Offsets64()[url.length()], int64_t{INT32_MAX});
  const Expected e = Work(url);

  for (int threads : {1, 2}) {
    DatabaseOptions options;
    options.threads = threads;
    Database db(options);
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    CheckQueries(&db, e, "in memory, " + std::to_string(threads) + " threads");
  }

  DatabaseOptions one_thread;
  one_thread.threads = 1;
  Database db(one_thread);
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  {
    // The whole column as the answer, and an expression over all of it: over 2 GiB of text each.
    Result all = db.Query("SELECT URL, concat(URL, '!') AS marked FROM t");
    ASSERT_TRUE(all.ok()) << all.error();
    ASSERT_EQ(all.num_rows(), kRows);
    EXPECT_EQ(all.column(0).type(), TypeId::kLargeString);
    uint64_t bytes = 0, marked = 0;
    for (size_t row = 0; row < kRows; ++row) {
      bytes += all.column(0).StringAt(row).size();
      marked += all.column(1).StringAt(row).size();
    }
    EXPECT_EQ(bytes, e.bytes);
    EXPECT_EQ(marked, e.bytes + kRows);
    for (size_t row : {size_t{0}, kRows / 2, kRows - 1}) {
      EXPECT_EQ(all.column(0).StringAt(row), url.StringAt(row)) << row;
      EXPECT_EQ(all.column(1).StringAt(row), std::string(url.StringAt(row)) + "!") << row;
    }
  }
  {
    // A full sort by the column: its keys are sorted a chunk at a time and merged.
    Result sorted = db.Query("SELECT URL FROM t ORDER BY URL");
    ASSERT_TRUE(sorted.ok()) << sorted.error();
    ASSERT_EQ(sorted.num_rows(), kRows);
    const Column& column = sorted.column(0);
    uint64_t bytes = 0;
    bool ordered = true;
    for (size_t row = 0; row < kRows; ++row) {
      bytes += column.StringAt(row).size();
      ordered = ordered && (row == 0 || column.StringAt(row - 1) <= column.StringAt(row));
    }
    EXPECT_TRUE(ordered);
    EXPECT_EQ(bytes, e.bytes);
    EXPECT_EQ(column.StringAt(0), e.min);
    EXPECT_EQ(column.StringAt(kRows - 1), e.max);
  }
  // A table made from it holds all of its text too, as does its copy in a .laneql file.
  Result r = db.Query("CREATE TABLE copied AS SELECT URL FROM t");
  ASSERT_TRUE(r.ok()) << r.error();
  r = db.Query("SELECT count(*), sum(strlen(URL)) FROM copied");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(Cell(r, 0, 0), std::to_string(e.rows));
  EXPECT_EQ(Cell(r, 1, 0), std::to_string(e.bytes));
  ASSERT_TRUE(db.Query("DROP TABLE copied").ok());

  const std::string prefix = LargeDir() + "/laneql_large_" + std::to_string(::getpid());
  const std::string file = prefix + ".laneql", tsv = prefix + ".tsv";
  ASSERT_TRUE(WriteTableFile(*table, file, &error)) << error;
  r = db.Query("COPY t TO '" + tsv + "' (DELIMITER '\t')");
  ASSERT_TRUE(r.ok()) << r.error();
  table.reset();
  {
    Table from_file;
    ASSERT_TRUE(OpenTableFile(file, &from_file, &error)) << error;
    ASSERT_EQ(from_file.column(0).type(), TypeId::kLargeString);
    Database file_db;
    ASSERT_TRUE(file_db.Register("t", std::move(from_file), &error)) << error;
    CheckQueries(&file_db, e, "from a .laneql file");
  }
  ::unlink(file.c_str());
  {
    Database tsv_db;
    r = tsv_db.Query("CREATE TABLE t AS SELECT * FROM read_csv('" + tsv + "', delim = '\t')");
    ASSERT_TRUE(r.ok()) << r.error();
    CheckQueries(&tsv_db, e, "from a TSV file");
  }
  ::unlink(tsv.c_str());
}

// A string column built row by row becomes a large_string when it passes 2^31 - 1 bytes, with
// every row as it was.
TEST(LargeStringColumn, AppendingPastTwoGiBWidensTheOffsets) {
  const std::string row(1 << 20, 'x');  // 1 MiB
  Column column(TypeId::kString);
  std::string error;
  ASSERT_TRUE(column.AppendString("first", &error)) << error;
  ASSERT_TRUE(column.AppendNull(&error)) << error;
  for (int i = 0; i < 2048; ++i) {
    ASSERT_TRUE(column.AppendString(row, &error)) << error;
    EXPECT_EQ(column.type(), i < 2047 ? TypeId::kString : TypeId::kLargeString) << i;
  }
  ASSERT_TRUE(column.AppendString("last", &error)) << error;
  EXPECT_EQ(column.length(), 2051u);
  EXPECT_EQ(column.StringAt(0), "first");
  EXPECT_FALSE(column.IsValid(1));
  EXPECT_EQ(column.StringAt(2049), row);
  EXPECT_EQ(column.StringAt(2050), "last");
  EXPECT_EQ(column.Offsets64()[2051], int64_t{5} + 2048 * (int64_t{1} << 20) + 4);
}

}  // namespace
}  // namespace laneql
