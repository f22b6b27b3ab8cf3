// Parses and binds one SELECT over `table` (named anything in FROM) for tests that look at the
// plan or run it through exec::Execute; parse and bind errors fail the test. The plan is the
// one queries run: the optimizer's rules over one SELECT applied (unless `optimize` is false).
#ifndef LANEQL_TESTS_CPP_BIND_SQL_H_
#define LANEQL_TESTS_CPP_BIND_SQL_H_

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "laneql/table.h"
#include "src/optimize/optimizer.h"
#include "src/plan/binder.h"
#include "src/sql/parser.h"

namespace laneql {

inline plan::Plan BindSql(const Table& table, const std::string& sql, bool optimize = true) {
  sql::SelectStatement statement;
  sql::ParseError parse_error;
  EXPECT_TRUE(sql::ParseSelect(sql, &statement, &parse_error)) << parse_error.ToString();
  plan::Plan plan;
  plan::BindError bind_error;
  EXPECT_TRUE(plan::BindSelect(statement, [&](std::string_view) { return &table; }, &plan, &bind_error))
      << bind_error.message;
  if (optimize) optimize::OptimizeSelect(&plan);
  return plan;
}

}  // namespace laneql

#endif  // LANEQL_TESTS_CPP_BIND_SQL_H_
