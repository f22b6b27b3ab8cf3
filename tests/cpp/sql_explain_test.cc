// EXPLAIN and EXPLAIN ANALYZE through Database::Query, and what the optimized plans must keep
// from the SQL: the FROM clause's column order whatever the join order, the answers of joins
// whose conditions moved.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "result_rows.h"

namespace laneql {
namespace {

using testing::ResultRows;
using Rows = std::vector<std::string>;

void MakeTables(Database* db) {
  ASSERT_EQ(ResultRows(db->Query("CREATE TABLE big AS SELECT * FROM (VALUES (1, 10), (2, 20), (2, 21), (3, 30), "
                                 "(4, 40), (NULL, 50)) t(k, v)")),
            Rows{});
  ASSERT_EQ(ResultRows(db->Query("CREATE TABLE small AS SELECT * FROM (VALUES (2, 'two'), (3, 'three')) t(k, name)")),
            Rows{});
}

// The explain_value column, one line per row.
Rows PlanLines(Database* db, const std::string& sql) {
  Result result = db->Query(sql);
  EXPECT_TRUE(result.ok()) << result.error();
  Rows lines;
  if (!result.ok()) return lines;
  EXPECT_EQ(result.num_columns(), 2u);
  EXPECT_EQ(result.name(0), "explain_key");
  EXPECT_EQ(result.name(1), "explain_value");
  for (size_t r = 0; r < result.num_rows(); ++r) lines.push_back(std::string(result.column(1).StringAt(r)));
  return lines;
}

TEST(SqlExplain, ShowsTheOptimizedPlan) {
  Database db;
  MakeTables(&db);
  const Rows lines = PlanLines(&db, "EXPLAIN SELECT name, sum(v) FROM big, small WHERE big.k = small.k AND v > 15 "
                                    "GROUP BY name ORDER BY name");
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0].rfind("ORDER name (A)", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("  PROJECT name, sum(v)", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("    AGGREGATE name", 0), 0u) << lines[2];
  // The WHERE equality became the join's key, the other condition moved into big's scan, and
  // the smaller side (small, 2 rows) builds.
  EXPECT_EQ(lines[3].rfind("      INNER JOIN ON big.k = small.k", 0), 0u) << lines[3];
  EXPECT_EQ(lines[4].rfind("        GET big filters: (v > 15)", 0), 0u) << lines[4];
  EXPECT_EQ(lines[5].rfind("        GET small", 0), 0u) << lines[5];
}

TEST(SqlExplain, AnalyzeAddsRowsAndTimes) {
  Database db;
  MakeTables(&db);
  const Rows lines = PlanLines(&db, "EXPLAIN ANALYZE SELECT big.k FROM big JOIN small ON big.k = small.k");
  ASSERT_GE(lines.size(), 4u);
  EXPECT_NE(lines[0].find("[3 rows, "), std::string::npos) << lines[0];   // the answer
  EXPECT_NE(lines[1].find("INNER JOIN ON big.k = small.k"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("[3 rows, "), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("GET big"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("[6 rows, "), std::string::npos) << lines[2];
}

// A set operation is an operator of the plan: its branches below it (a set operation branch
// without its own ORDER BY / LIMIT as an operator too), the whole query's ORDER BY and LIMIT
// above it, rows and times under ANALYZE.
TEST(SqlExplain, SetOperationsAreOperators) {
  Database db;
  MakeTables(&db);
  const std::string sql = "SELECT k FROM big INTERSECT SELECT k FROM small UNION ALL VALUES (7) ORDER BY ALL LIMIT 2";
  const Rows lines = PlanLines(&db, "EXPLAIN ANALYZE " + sql);
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  ASSERT_GE(lines.size(), 10u) << text;
  EXPECT_EQ(lines[0].rfind("LIMIT 2", 0), 0u) << text;
  EXPECT_NE(lines[0].find("[2 rows, "), std::string::npos) << text;
  EXPECT_EQ(lines[1].rfind("  ORDER ALL (A)", 0), 0u) << text;
  EXPECT_EQ(lines[2].rfind("    SET OPERATION UNION ALL  (~", 0), 0u) << text;
  EXPECT_NE(lines[2].find("[3 rows, "), std::string::npos) << text;
  EXPECT_EQ(lines[3].rfind("      SET OPERATION INTERSECT  (~2 rows)  [2 rows, ", 0), 0u) << text;
  EXPECT_EQ(lines[4].rfind("        GET branch  (~6 rows)  [6 rows, ", 0), 0u) << text;
  EXPECT_EQ(lines[5].rfind("          PROJECT k", 0), 0u) << text;
  EXPECT_NE(text.find("    GET branch  (~1 rows)  [1 rows, "), std::string::npos) << text;
  EXPECT_NE(text.find("      VALUES 1 rows"), std::string::npos) << text;
  EXPECT_EQ(ResultRows(db.Query(sql)), (Rows{"2", "3"}));
  // A branch with its own LIMIT is made first, its plan under its Get.
  const Rows limited = PlanLines(&db, "EXPLAIN SELECT k FROM big UNION (SELECT 1 UNION SELECT 2 ORDER BY 1 DESC LIMIT 1)");
  text.clear();
  for (const std::string& line : limited) text += line + "\n";
  EXPECT_NE(text.find("  GET branch  (~1 rows)\n    LIMIT 1  (~2 rows)\n      ORDER 1 (D)  (~2 rows)\n        SET OPERATION UNION"),
            std::string::npos) << text;
  EXPECT_EQ(ResultRows(db.Query("SELECT 1 UNION SELECT 1, 2")),
            Rows{"ERROR binder error at line 1, column 16: set operations can only apply to expressions with the "
                 "same number of result columns (1 and 2)"});
}

TEST(SqlExplain, SubqueriesCtesAndSetOperationsShowTheirPlans) {
  Database db;
  MakeTables(&db);
  Rows lines = PlanLines(&db, "EXPLAIN WITH c AS (SELECT k FROM small WHERE k > 2) SELECT * FROM big WHERE k IN "
                              "(SELECT k FROM c) UNION ALL SELECT 1, 2");
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("SET OPERATION UNION ALL  (~", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("  GET branch", 0), 0u) << lines[1];
  lines = PlanLines(&db, "EXPLAIN SELECT * FROM (SELECT k, count(*) AS n FROM big GROUP BY k) AS g JOIN small USING (k)");
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  EXPECT_NE(text.find("GET subquery AS g"), std::string::npos) << text;
  EXPECT_NE(text.find("AGGREGATE k"), std::string::npos) << text;  // the subquery's own plan
  EXPECT_NE(text.find("INNER JOIN ON g.k = small.k"), std::string::npos) << text;
  EXPECT_EQ(ResultRows(db.Query("EXPLAIN SHOW TABLES")),
            Rows{"ERROR binder error at line 1, column 1: EXPLAIN explains queries and CREATE, INSERT and DROP "
                 "statements only"});
  EXPECT_EQ(ResultRows(db.Query("EXPLAIN ANALYZE INSERT INTO big SELECT * FROM big")),
            Rows{"ERROR binder error at line 1, column 1: EXPLAIN ANALYZE explains queries (SELECT, WITH, "
                 "VALUES, set operations) only"});
  // A statement that writes a query's answer: the query's plan under it; nothing is written.
  lines = PlanLines(&db, "EXPLAIN CREATE TABLE copy AS SELECT k FROM big WHERE v > 20");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "CREATE TABLE copy");
  EXPECT_EQ(lines[1].rfind("  PROJECT k", 0), 0u) << lines[1];
  // v is read by the filter alone: never yielded above it.
  EXPECT_EQ(lines[2].rfind("    GET big [1 of 2 columns, 1 more read by the filters] filters: (v > 20)", 0), 0u)
      << lines[2];
  EXPECT_EQ(db.FindTable("copy"), nullptr);
  lines = PlanLines(&db, "EXPLAIN INSERT INTO big SELECT k, v FROM big");
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], "INSERT INTO big");
  EXPECT_EQ(ResultRows(db.Query("SELECT count(*) FROM big")), Rows{"6"});
  // Statements that run no query: their operator alone, and nothing changes.
  EXPECT_EQ(PlanLines(&db, "EXPLAIN CREATE OR REPLACE TABLE x (a INTEGER, b VARCHAR)"),
            Rows{"CREATE TABLE x (a, b) OR REPLACE"});
  EXPECT_EQ(PlanLines(&db, "EXPLAIN CREATE VIEW w (c) AS SELECT k FROM big"), Rows{"CREATE VIEW w (c)"});
  EXPECT_EQ(PlanLines(&db, "EXPLAIN DROP TABLE IF EXISTS big"), Rows{"DROP TABLE big IF EXISTS"});
  EXPECT_EQ(PlanLines(&db, "EXPLAIN DROP VIEW w"), Rows{"DROP VIEW w"});
  lines = PlanLines(&db, "EXPLAIN INSERT INTO small (k) VALUES (4), (5)");
  EXPECT_EQ(lines, (Rows{"INSERT INTO small (k)", "  VALUES 2 rows"}));
  EXPECT_EQ(db.FindTable("x"), nullptr);
  EXPECT_EQ(ResultRows(db.Query("SELECT count(*) FROM big")), Rows{"6"});
  EXPECT_EQ(ResultRows(db.Query("SELECT count(*) FROM small")), Rows{"2"});
  EXPECT_EQ(ResultRows(db.Query("EXPLAIN SELECT nope FROM big, small")),
            Rows{"ERROR binder error at line 1, column 16: column \"nope\" not found in the FROM clause"});
}

TEST(SqlExplain, JoinOrderKeepsTheFromClausesColumns) {
  Database db;
  MakeTables(&db);
  // big is joined last (it is the larger side), but * lists big's columns first.
  EXPECT_EQ(ResultRows(db.Query("SELECT * FROM big, small WHERE big.k = small.k ORDER BY v")),
            (Rows{"2|20|2|two", "2|21|2|two", "3|30|3|three"}));
  EXPECT_EQ(ResultRows(db.Query("SELECT * FROM small, big WHERE big.k = small.k ORDER BY v")),
            (Rows{"2|two|2|20", "2|two|2|21", "3|three|3|30"}));
}

}  // namespace
}  // namespace laneql

namespace laneql {
namespace {

TEST(SqlExplain, TheProfileShowsEachOperator) {
  Database db;
  MakeTables(&db);
  QueryOptions options;
  options.profile = true;
  ASSERT_TRUE(db.Query("SELECT count(*) FROM big JOIN small ON big.k = small.k WHERE v > 0", options).ok());
  const std::string trace = db.LastProfileJson();
  // The count is the join pipeline's sink (exec/join_aggregate_sink.h): its merge and output
  // are an operator of their own.
  for (const char* name : {"\"name\": \"JOIN\"", "\"name\": \"GET\"", "\"name\": \"aggregate sink\"",
                           "\"name\": \"hash join probe\"", "\"cat\": \"operator\""}) {
    EXPECT_NE(trace.find(name), std::string::npos) << name << " in " << trace;
  }
}

}  // namespace
}  // namespace laneql
