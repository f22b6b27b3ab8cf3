// Correlated subqueries whose WITH, derived tables or set operations read the outer query run
// once for all bindings, the bindings' domain pushed into those parts (exec/
// query_domain_push.cc), not once per distinct binding: the plan says which, and over 20,000
// distinct bindings the answers equal plain loops over the same rows. Shapes the push leaves
// alone (a derived table reading the outer query on an outer join's padded side) still answer,
// per binding. The SQL corpus (tests/sql/subqueries.test) checks the answers against DuckDB's.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"

namespace laneql {
namespace {

// o: 20,000 rows, k = r (distinct: every row a binding), x = r % 97. i: 60,000 rows, k = r % 25,000
// (so keys past 20,000 have no outer row and keys 0-4,999 have three rows), y = r % 89.
constexpr int64_t kOuterRows = 20000;
constexpr int64_t kInnerRows = 60000;
constexpr int64_t kInnerKeys = 25000;

std::unique_ptr<Database> Open() {
  DatabaseOptions options;
  options.threads = 2;
  auto db = std::make_unique<Database>(options);
  for (const char* sql :
       {"CREATE TABLE o AS SELECT range AS k, range % 97 AS x FROM range(20000)",
        "CREATE TABLE i AS SELECT range % 25000 AS k, range % 89 AS y FROM range(60000)"}) {
    const Result r = db->Query(sql);
    EXPECT_TRUE(r.ok()) << r.error();
  }
  return db;
}

std::string Explain(const Database& db, const std::string& sql) {
  const Result r = db.Query("EXPLAIN " + sql);
  EXPECT_TRUE(r.ok()) << r.error();
  std::string text;
  for (size_t row = 0; r.ok() && row < r.num_rows(); ++row) {
    text += FormatValue(r.column(1), row, ValueStyle::kText) + "\n";
  }
  return text;
}

int64_t Count(const Database& db, const std::string& sql) {
  const Result r = db.Query(sql);
  EXPECT_TRUE(r.ok()) << r.error() << "\n" << sql;
  if (!r.ok() || r.num_rows() != 1) return -1;
  return r.column(0).Values<int64_t>()[0];
}

// i's y values for key k, in row order.
std::vector<int64_t> InnerYs(int64_t k) {
  std::vector<int64_t> ys;
  for (int64_t r = k; r < kInnerRows; r += kInnerKeys) ys.push_back(r % 89);
  return ys;
}

TEST(SubqueryDomainPushTest, WithDerivedTablesAndSetOperationsRunOnceForAllBindings) {
  std::unique_ptr<Database> db = Open();
  struct Case {
    std::string sql;
    int64_t expected;
  };
  int64_t with_max = 0, derived_count = 0, set_in = 0, intersect_exists = 0;
  for (int64_t k = 0; k < kOuterRows; ++k) {
    const int64_t x = k % 97;
    const std::vector<int64_t> ys = InnerYs(k);
    int64_t max = -1, over_40 = 0;
    bool in_union = x == 96, in_both = false;
    for (int64_t y : ys) {
      max = y > max ? y : max;
      over_40 += y > 40;
      in_union |= y == x;
      in_both |= y == (x + 1) % 89;  // INTERSECT of i's ys and {(x + 1) % 89}
    }
    with_max += !ys.empty() && x < max;
    derived_count += over_40 >= 2;
    set_in += in_union;
    intersect_exists += in_both;
  }
  const std::vector<Case> cases = {
      {"SELECT count(*) FROM o WHERE o.x < (WITH m AS (SELECT y FROM i WHERE i.k = o.k) SELECT max(y) FROM m)",
       with_max},
      {"SELECT count(*) FROM o WHERE 2 <= (SELECT count(*) FROM (SELECT y FROM i WHERE i.k = o.k AND i.y > 40) t)",
       derived_count},
      {"SELECT count(*) FROM o WHERE o.x IN (SELECT y FROM i WHERE i.k = o.k UNION SELECT 96 WHERE o.x = 96)", set_in},
      {"SELECT count(*) FROM o WHERE EXISTS (SELECT y FROM i WHERE i.k = o.k INTERSECT SELECT (o.x + 1) % 89)",
       intersect_exists}};
  for (const Case& c : cases) {
    const std::string plan = Explain(*db, c.sql);
    EXPECT_NE(plan.find("numbered by the 20000 bindings"), std::string::npos) << c.sql << "\n" << plan;
    EXPECT_EQ(plan.find("per distinct binding"), std::string::npos) << c.sql << "\n" << plan;
    ASSERT_GT(c.expected, 0) << c.sql;
    EXPECT_EQ(Count(*db, c.sql), c.expected) << c.sql;
  }
}

TEST(SubqueryDomainPushTest, ShapesThePushLeavesAloneStillAnswerPerBinding) {
  std::unique_ptr<Database> db = Open();
  // The derived table reading o is on the padded side of a LEFT join: its bindings' rows
  // would be cut by the WHERE that ties them to D. 200 outer rows keep the per-binding runs few.
  const std::string sql =
      "SELECT count(*) FROM o WHERE o.k < 200 AND 0 < (SELECT count(t.y) FROM (SELECT 1 AS one) s "
      "LEFT JOIN (SELECT y FROM i WHERE i.k = o.k) t ON true)";
  const std::string plan = Explain(*db, sql);
  EXPECT_NE(plan.find("per distinct binding"), std::string::npos) << plan;
  EXPECT_EQ(Count(*db, sql), 200);  // every key below 5,000 has rows in i
  // A recursive WITH stays per binding too.
  const std::string recursive =
      "SELECT count(*) FROM o WHERE o.k < 50 AND o.k + 3 = (WITH RECURSIVE r(n) AS (SELECT o.k UNION ALL "
      "SELECT n + 1 FROM r WHERE n < o.k + 3) SELECT max(n) FROM r)";
  EXPECT_EQ(Count(*db, recursive), 50);
}

}  // namespace
}  // namespace laneql
