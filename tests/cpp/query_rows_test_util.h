// A query's rows as text, for tests that compare answers across thread counts or with rows
// made by plain loops.
#ifndef LANEQL_TESTS_CPP_QUERY_ROWS_TEST_UTIL_H_
#define LANEQL_TESTS_CPP_QUERY_ROWS_TEST_UTIL_H_

#include <string>

#include "gtest/gtest.h"
#include "laneql/database.h"

namespace laneql {

// Every row of `sql` on `threads` threads, in the order it came: each value as text followed
// by a tab, each row by a newline. A failed query fails the test and gives "".
inline std::string QueryRowsText(const Database& db, const std::string& sql, int threads) {
  QueryOptions options;
  options.threads = threads;
  const Result r = db.Query(sql, options);
  EXPECT_TRUE(r.ok()) << r.error() << "\n" << sql;
  std::string text;
  for (size_t i = 0; r.ok() && i < r.num_rows(); ++i) {
    for (size_t c = 0; c < r.num_columns(); ++c) text += FormatValue(r.column(c), i, ValueStyle::kText) + "\t";
    text += "\n";
  }
  return text;
}

}  // namespace laneql

#endif  // LANEQL_TESTS_CPP_QUERY_ROWS_TEST_UTIL_H_
