// ORDER BY ... LIMIT over a join chain, materialized late (exec/query_top_rows.cc): a first pass
// over the WHERE and ORDER BY columns keeps the rows, and the SELECT list's columns are gathered
// for those alone. Answers are checked against plain loops and against the same query over the
// join made whole first (a derived table, which the first pass does not reach), on 1 to 4
// threads, ties and NULLs included.
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "database_test_util.h"

namespace laneql {
namespace {

constexpr int64_t kFactRows = 120000;  // several probe morsels

// fact: amount repeats (ties), k misses dim for k >= 400 (LEFT join NULLs).
std::unique_ptr<Database> Open() {
  return OpenWithTables({"CREATE TABLE fact AS SELECT range AS id, range % 503 AS k, (range * 7919) % 1000 AS amount, "
                         "'note ' || (range % 17) AS note FROM range(120000)",
                         "CREATE TABLE dim AS SELECT range AS k, range % 9 AS grp, 'name ' || range AS name FROM range(400)"});
}

std::string Row(const std::vector<std::string>& values) {
  std::string text;
  for (const std::string& v : values) text += v + "\t";
  return text + "\n";
}

TEST(JoinTopRowsTest, TheRowsKeptMatchLoopsAndTheJoinMadeWhole) {
  std::unique_ptr<Database> db = Open();
  // The 7 largest amounts of the fact rows with a dim row (k < 400), ties by id, after 3.
  std::vector<std::tuple<int64_t, int64_t>> rows;  // (-amount, id)
  for (int64_t i = 0; i < kFactRows; ++i) {
    if (i % 503 < 400) rows.emplace_back(-((i * 7919) % 1000), i);
  }
  std::sort(rows.begin(), rows.end());
  std::string expected;
  for (size_t r = 3; r < 10; ++r) {
    const int64_t id = std::get<1>(rows[r]);
    expected += Row({std::to_string(id), "name " + std::to_string(id % 503), std::to_string(-std::get<0>(rows[r]))});
  }
  const std::string sql = "SELECT f.id, d.name, f.amount FROM fact f JOIN dim d ON f.k = d.k "
                          "ORDER BY f.amount DESC, f.id LIMIT 7 OFFSET 3";
  for (int threads = 1; threads <= 4; ++threads) EXPECT_EQ(QueryRowsText(*db, sql, threads), expected) << threads;
  QueryOptions profiled;
  profiled.profile = true;
  ASSERT_TRUE(db->Query(sql, profiled).ok());
  EXPECT_NE(db->LastProfileJson().find("top rows first pass"), std::string::npos);
  // EXPLAIN ANALYZE counts the join's rows, not the 10 kept.
  const Result analyzed = db->Query("EXPLAIN ANALYZE " + sql);
  ASSERT_TRUE(analyzed.ok()) << analyzed.error();
  std::string text;
  for (size_t i = 0; i < analyzed.num_rows(); ++i) text += FormatValue(analyzed.column(1), i, ValueStyle::kText) + "\n";
  EXPECT_NE(text.find(std::to_string(rows.size()) + " rows"), std::string::npos) << text;
}

TEST(JoinTopRowsTest, AliasesPositionsTiesAndNullsAsOverTheWholeJoin) {
  std::unique_ptr<Database> db = Open();
  const std::string join = "fact f LEFT JOIN dim d ON f.k = d.k";
  // Each query over the join, and the same over the join made whole first.
  const std::vector<std::pair<std::string, std::string>> queries = {
      // An alias and a position naming SELECT items; ties (grp has 9 values) go by join order.
      {"SELECT f.id, d.grp * 10 AS g, f.note FROM %s ORDER BY g DESC NULLS LAST, 1 DESC LIMIT 12",
       "SELECT id, g, note FROM (SELECT f.id, d.grp * 10 AS g, f.note FROM %s) t ORDER BY g DESC NULLS LAST, 1 DESC "
       "LIMIT 12"},
      // Ties left to the join's order, NULLs (the LEFT join's padded rows) first.
      {"SELECT f.id, d.name FROM %s ORDER BY d.grp NULLS FIRST LIMIT 20",
       "SELECT id, name FROM (SELECT f.id, d.name, d.grp FROM %s) t ORDER BY grp NULLS FIRST LIMIT 20"},
      // A WHERE the first pass applies, and every column.
      {"SELECT * FROM %s WHERE f.amount BETWEEN 10 AND 20 AND d.name LIKE '%%7' ORDER BY f.amount, f.id LIMIT 9",
       "SELECT * FROM (SELECT * FROM %s WHERE f.amount BETWEEN 10 AND 20 AND d.name LIKE '%%7') t "
       "ORDER BY amount, id LIMIT 9"},
  };
  for (const auto& [cut, whole] : queries) {
    char a[512], b[512];
    std::snprintf(a, sizeof(a), cut.c_str(), join.c_str());
    std::snprintf(b, sizeof(b), whole.c_str(), join.c_str());
    const std::string expected = QueryRowsText(*db, b, 1);
    ASSERT_FALSE(expected.empty()) << b;
    for (int threads = 1; threads <= 4; ++threads) EXPECT_EQ(QueryRowsText(*db, a, threads), expected) << a;
    QueryOptions profiled;
    profiled.profile = true;
    ASSERT_TRUE(db->Query(a, profiled).ok());
    EXPECT_NE(db->LastProfileJson().find("top rows first pass"), std::string::npos) << a;
  }
  // An error in the first pass's WHERE is the query's, with its place; the database goes on.
  const Result bad = db->Query("SELECT f.id FROM " + join + "\nWHERE CAST(f.note AS INTEGER) > 0 ORDER BY f.id LIMIT 3");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("line 2"), std::string::npos) << bad.error();
  EXPECT_EQ(QueryRowsText(*db, "SELECT f.id FROM " + join + " ORDER BY f.id DESC LIMIT 2", 4), Row({"119999"}) + Row({"119998"}));
}

}  // namespace
}  // namespace laneql
