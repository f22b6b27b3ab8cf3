// optimize/merge_derived_table.cc: an aggregation over a derived table that projects a join
// becomes the aggregation of the join. The SELECT before and after the rule (as the SQL
// printer writes it), the shapes it must leave alone, and answers with and without it.
#include <cstdio>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "database_test_util.h"
#include "src/optimize/optimizer.h"
#include "src/sql/ast.h"
#include "src/sql/parser.h"

namespace laneql {
namespace {

// The rule applied to the SELECT `sql`: its text after (or "unchanged").
std::string Merged(const std::string& sql) {
  sql::Statement statement;
  sql::ParseError error;
  EXPECT_TRUE(sql::ParseStatement(sql, &statement, &error)) << error.ToString();
  if (statement.query == nullptr) return "";
  sql::SelectStatement& select = statement.query->select;
  const std::string before = sql::ToString(select);
  if (!optimize::MergeDerivedTable(&select)) {
    EXPECT_EQ(sql::ToString(select), before) << "a refusal changed the query";
    return "unchanged";
  }
  return sql::ToString(select);
}

std::string Printed(const std::string& sql) {
  sql::Statement statement;
  sql::ParseError error;
  EXPECT_TRUE(sql::ParseStatement(sql, &statement, &error)) << error.ToString();
  return statement.query != nullptr ? sql::ToString(statement.query->select) : "";
}

TEST(MergeDerivedTable, TheJoinTakesTheAggregationAndEachItemKeepsItsName) {
  EXPECT_EQ(Merged("SELECT nation, y, sum(amount) FROM (SELECT n.name AS nation, o.year AS y, "
                   "o.price * (1 - o.disc) AS amount FROM o JOIN n ON o.k = n.k WHERE o.price > 0) AS t "
                   "WHERE t.y > 1990 GROUP BY nation, y ORDER BY nation, t.y DESC"),
            Printed("SELECT n.name AS nation, o.year AS y, sum(((o.price * (1 - o.disc)))) AS \"sum(amount)\" "
                    "FROM o JOIN n ON o.k = n.k WHERE (o.price > 0) AND (o.year > 1990) "
                    "GROUP BY n.name, o.year ORDER BY n.name, o.year DESC"));
  // A derived column named as the column that makes it is replaced once; the column list renames.
  EXPECT_EQ(Merged("SELECT count(*), max(price) FROM (SELECT price, a.k FROM a, b WHERE a.k = b.k) t"),
            Printed("SELECT count(*) AS \"count_star()\", max(price) AS \"max(price)\" FROM a, b WHERE a.k = b.k"));
  EXPECT_EQ(Merged("SELECT sum(p) FROM (SELECT a.x, b.y FROM a JOIN b ON a.k = b.k) AS t(p, q)"),
            Printed("SELECT sum(a.x) AS \"sum(p)\" FROM a JOIN b ON a.k = b.k"));
}

TEST(MergeDerivedTable, ShapesWhoseAnswerCouldChangeAreLeftAlone) {
  const char* kept[] = {
      // The outer query does not aggregate: its rows' order and count are the derived table's.
      "SELECT x FROM (SELECT a.x FROM a JOIN b ON a.k = b.k) t",
      // The derived table aggregates, is DISTINCT, ordered, limited, or has a WITH.
      "SELECT sum(s) FROM (SELECT a.k, sum(a.x) AS s FROM a JOIN b ON a.k = b.k GROUP BY a.k) t",
      "SELECT count(*) FROM (SELECT DISTINCT a.x FROM a JOIN b ON a.k = b.k) t",
      "SELECT string_agg(x, ',') FROM (SELECT a.x FROM a JOIN b ON a.k = b.k ORDER BY a.x) t",
      "SELECT sum(x) FROM (SELECT a.x FROM a JOIN b ON a.k = b.k LIMIT 5) t",
      "SELECT sum(x) FROM (WITH w AS (SELECT 1) SELECT a.x FROM a JOIN b ON a.k = b.k) t",
      // Over one table: the single-table engine's own paths.
      "SELECT sum(x) FROM (SELECT x FROM a WHERE x > 0) t",
      // A star, a subquery or a window among the derived columns.
      "SELECT count(*) FROM (SELECT * FROM a JOIN b ON a.k = b.k) t",
      "SELECT sum(s) FROM (SELECT (SELECT max(y) FROM b) AS s FROM a JOIN c ON a.k = c.k) t",
      "SELECT sum(r) FROM (SELECT row_number() OVER () AS r FROM a JOIN b ON a.k = b.k) t",
      // Two derived columns of one name.
      "SELECT count(*) FROM (SELECT a.k, b.k FROM a JOIN b ON a.k = b.k) t",
      // The outer query names what is not a derived column (an alias, or a name the joined
      // tables would capture), holds a subquery, or has an alias that is a derived column's name.
      "SELECT sum(x) AS s FROM (SELECT a.x FROM a JOIN b ON a.k = b.k) t ORDER BY s",
      "SELECT sum(x) FROM (SELECT a.x FROM a JOIN b ON a.k = b.k) t WHERE y > 0",
      "SELECT sum(x) FROM (SELECT a.x FROM a JOIN b ON a.k = b.k) t WHERE x IN (SELECT 1)",
      "SELECT sum(x) AS y, max(y) FROM (SELECT a.x, b.y FROM a JOIN b ON a.k = b.k) t",
      "SELECT sum(t.x) FROM (SELECT a.x FROM a JOIN b ON a.k = b.k) u",
      // LATERAL, and a derived table beside another FROM item.
      "SELECT sum(x) FROM LATERAL (SELECT a.x FROM a JOIN b ON a.k = b.k) t",
      "SELECT sum(x) FROM (SELECT a.x FROM a JOIN b ON a.k = b.k) t, c",
  };
  for (const char* sql : kept) EXPECT_EQ(Merged(sql), "unchanged") << sql;
}

TEST(MergeDerivedTable, AnswersAreTheSameAsOverTheDerivedTableMadeWhole) {
  std::unique_ptr<Database> opened = OpenWithTables(
      {"CREATE TABLE o AS SELECT range AS id, range % 97 AS k, CASE WHEN range % 11 = 0 THEN NULL ELSE "
       "(range % 1000) * 0.25 END AS price, 1990 + range % 9 AS year FROM range(100000)",
       "CREATE TABLE n AS SELECT range AS k, 'nation ' || (range % 13) AS name FROM range(90)"});
  Database& db = *opened;
  // The derived table made whole first (LIMIT keeps the rule away; no row is cut) against the
  // merged query, on several thread counts: the same rows, names and order.
  const std::string body = "(SELECT n.name AS nation, o.year AS y, o.price * 2 AS amount FROM o JOIN n ON o.k = n.k "
                           "WHERE o.price > 10 %s) AS t GROUP BY nation, y ORDER BY nation, y DESC";
  const std::string outer = "SELECT nation, y, sum(amount), count(amount), max(amount) FROM ";
  char whole[512], merged[512];
  std::snprintf(whole, sizeof(whole), body.c_str(), "LIMIT 1000000");
  std::snprintf(merged, sizeof(merged), body.c_str(), "");
  const std::string expected = QueryRowsText(db, outer + whole, 1);
  ASSERT_FALSE(expected.empty());
  for (int threads : {1, 2, 4}) EXPECT_EQ(QueryRowsText(db, outer + merged, threads), expected) << threads;
  const Result named = db.Query(outer + merged);
  ASSERT_TRUE(named.ok()) << named.error();
  EXPECT_EQ(named.name(0), "nation");
  EXPECT_EQ(named.name(2), "sum(amount)");
  // The merged query's plan is the join's, its rows folded into the aggregation.
  QueryOptions profiled;
  profiled.profile = true;
  ASSERT_TRUE(db.Query(outer + merged, profiled).ok());
  EXPECT_NE(db.LastProfileJson().find("\"aggregate sink\""), std::string::npos);
}

}  // namespace
}  // namespace laneql
