// ParseCreateTable: ClickBench's create.sql (when the workload folder is there), quoting,
// comments, constraints, and errors with line:column.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/csv.h"
#include "laneql/hits_generator.h"

namespace laneql {
namespace {

TEST(CreateTable, ParsesColumnsTypesAndConstraints) {
  std::string name, error;
  std::vector<ColumnSpec> columns;
  ASSERT_TRUE(ParseCreateTable(
      "-- a comment\nCREATE OR REPLACE TABLE main.\"My Table\" (\n"
      "  id BIGINT NOT NULL PRIMARY KEY,  -- trailing comment\n"
      "  \"odd \"\"name\"\"\" VARCHAR(255) NULL,\n"
      "  c CHAR(2), /* block */ d Date, e DOUBLE PRECISION, f UBIGINT,\n"
      "  PRIMARY KEY (id, c)\n);",
      &name, &columns, &error))
      << error;
  EXPECT_EQ(name, "My Table");
  ASSERT_EQ(columns.size(), 6u);
  EXPECT_EQ(columns[0].name, "id");
  EXPECT_EQ(columns[0].type, TypeId::kInt64);
  EXPECT_EQ(columns[1].name, "odd \"name\"");
  EXPECT_EQ(columns[1].type, TypeId::kString);
  EXPECT_EQ(columns[2].type, TypeId::kString);
  EXPECT_EQ(columns[3].type, TypeId::kDate32);
  EXPECT_EQ(columns[4].type, TypeId::kFloat64);
  EXPECT_EQ(columns[5].type, TypeId::kUInt64);
}

TEST(CreateTable, ErrorsSayLineAndColumn) {
  std::string name, error;
  std::vector<ColumnSpec> columns;
  EXPECT_FALSE(ParseCreateTable("CREATE TABLE t (\n  a INTEGR\n)", &name, &columns, &error));
  EXPECT_EQ(error, "2:5: unknown type 'INTEGR' of column a");
  EXPECT_FALSE(ParseCreateTable("CREATE VIEW v", &name, &columns, &error));
  EXPECT_EQ(error, "1:8: expected TABLE, found 'VIEW'");
  EXPECT_FALSE(ParseCreateTable("CREATE TABLE t (a INT", &name, &columns, &error));
  EXPECT_EQ(error, "1:22: expected ',' or ')' after a column, found the end of the statement");
  EXPECT_FALSE(ParseCreateTable("CREATE TABLE t (a INT, a TEXT)", &name, &columns, &error));
  EXPECT_EQ(error, "1:24: column 'a' is defined twice");
  EXPECT_FALSE(ParseCreateTable("CREATE TABLE t (\"a INT)", &name, &columns, &error));
  EXPECT_EQ(error, "1:17: unterminated quoted identifier");
  EXPECT_FALSE(ParseCreateTable("", &name, &columns, &error));
}

TEST(CreateTable, ClickBenchCreateSql) {
  const std::string path = std::string(LANEQL_CLICKBENCH_DIR) + "/create.sql";
  std::ifstream in(path);
  if (!in) GTEST_SKIP() << "no " << path;
  std::stringstream sql;
  sql << in.rdbuf();
  std::string name, error;
  std::vector<ColumnSpec> columns;
  ASSERT_TRUE(ParseCreateTable(sql.str(), &name, &columns, &error)) << error;
  EXPECT_EQ(name, "hits");
  ASSERT_EQ(columns.size(), 105u);
  const auto type_of = [&](const std::string& column) {
    for (const ColumnSpec& c : columns) {
      if (c.name == column) return c.type;
    }
    ADD_FAILURE() << "no column " << column;
    return TypeId::kBool;
  };
  EXPECT_EQ(type_of("EventTime"), TypeId::kTimestampMicros);
  EXPECT_EQ(type_of("EventDate"), TypeId::kDate32);
  EXPECT_EQ(type_of("Title"), TypeId::kString);
  EXPECT_EQ(type_of("WatchID"), TypeId::kInt64);
  // The generator's schema is the same columns with the same types, in the same order.
  const std::vector<HitsColumnSpec>& hits = HitsSchema();
  ASSERT_EQ(hits.size(), columns.size());
  for (size_t i = 0; i < hits.size(); ++i) {
    EXPECT_EQ(hits[i].name, columns[i].name);
    EXPECT_EQ(hits[i].type, columns[i].type) << hits[i].name;
  }
}

}  // namespace
}  // namespace laneql
