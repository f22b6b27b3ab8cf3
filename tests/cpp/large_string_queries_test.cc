// Columns of large_string (int64 offsets: what a column of over 2 GiB of text is, from the
// generator, CSV, Parquet or a .laneql file) answer ClickBench's 43 queries as the same
// columns with int32 offsets do, on one thread and several. The sizes that need int64 offsets
// are tests/large's (make test-large-strings); the SQL corpus runs with them too
// (sql_corpus_large_strings.*).
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result_printers.h"

namespace laneql {
namespace {

std::vector<std::string> ClickBenchQueries() {
  std::vector<std::string> queries;
  std::ifstream in(std::string(LANEQL_CLICKBENCH_DIR) + "/queries.sql");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) queries.push_back(line);
  }
  return queries;
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

// The same rows, column names and values; a string column may come back with either offset
// width (a large_string column selected as it is stays one).
void ExpectSameRows(const Result& expected, const Result& actual, const std::string& what) {
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
    EXPECT_EQ(expected.name(c), actual.name(c)) << what;
    ASSERT_EQ(DuckDbTypeName(e.type()), DuckDbTypeName(a.type())) << what << " column " << c;
    for (size_t r = 0; r < e.length(); ++r) {
      ASSERT_EQ(FormatValue(e, r, ValueStyle::kText), FormatValue(a, r, ValueStyle::kText))
          << what << " column " << c << " row " << r;
    }
  }
}

TEST(LargeStringQueries, ClickBenchAnswersAsWithInt32Offsets) {
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
      ExpectSameRows(expected, wide_db.Query(queries[q]),
                     "Q" + std::to_string(q) + " at " + std::to_string(threads) + " threads");
    }
    EXPECT_GE(answered, queries.size() - 8);  // the comparison means something
  }
}

}  // namespace
}  // namespace laneql
