// Databases made by SQL statements, and a query's rows as text, for tests that compare answers
// across thread counts or with rows made by plain loops.
#ifndef LANEQL_TESTS_CPP_DATABASE_TEST_UTIL_H_
#define LANEQL_TESTS_CPP_DATABASE_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"

namespace laneql {

// A database of 4 threads whose parallel paths run on tables of any size, after `statements`
// (CREATE TABLE ... AS ...), each of which must succeed.
inline std::unique_ptr<Database> OpenWithTables(const std::vector<std::string>& statements) {
  DatabaseOptions options;
  options.threads = 4;
  options.min_parallel_rows = 0;
  auto db = std::make_unique<Database>(options);
  for (const std::string& sql : statements) {
    const Result r = db->Query(sql);
    EXPECT_TRUE(r.ok()) << r.error() << "\n" << sql;
  }
  return db;
}

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

#endif  // LANEQL_TESTS_CPP_DATABASE_TEST_UTIL_H_
