// UNION, INTERSECT and EXCEPT (and ALL) over inputs of many rows (exec/query_sets.cc): rows
// numbered by their values on the query's threads (NULLs equal, -0 = 0, NaN one value), the
// answers checked against plain loops over the same generated rows, and the rows in the same
// order on every thread count.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "database_test_util.h"

namespace laneql {
namespace {

// a: 150,000 rows of (r % 1,000 or NULL every 37th, r % 7); b: 100,000 rows of (r % 1,500 or
// NULL every 41st, r % 5): many duplicates, values on one side only, NULLs on both.
constexpr int64_t kARows = 150000;
constexpr int64_t kBRows = 100000;
using Row = std::pair<int64_t, int64_t>;  // -1: NULL (no value is negative)
Row ARow(int64_t r) { return {r % 37 == 3 ? -1 : r % 1000, r % 7}; }
Row BRow(int64_t r) { return {r % 41 == 5 ? -1 : r % 1500, r % 5}; }

std::unique_ptr<Database> Open() {
  return OpenWithTables(
      {"CREATE TABLE a AS SELECT CASE WHEN range % 37 = 3 THEN NULL ELSE range % 1000 END AS x, range % 7 AS y "
       "FROM range(150000)",
       "CREATE TABLE b AS SELECT CASE WHEN range % 41 = 5 THEN NULL ELSE range % 1500 END AS x, range % 5 AS y "
       "FROM range(100000)"});
}

// The query's rows as text, in order.
std::string Rows(const Database& db, const std::string& sql, int threads) {
  return QueryRowsText(db, sql, threads);
}

std::string Text(const std::vector<Row>& rows) {
  std::string text;
  for (const Row& row : rows) {
    text += (row.first < 0 ? std::string("NULL") : std::to_string(row.first)) + "\t" + std::to_string(row.second) +
            "\t\n";  // as QueryRowsText prints a row
  }
  return text;
}

TEST(SetOperationTest, EveryKindMatchesPlainLoopsInFirstRowOrderOnEveryThreadCount) {
  std::unique_ptr<Database> db = Open();
  std::vector<Row> a, b;
  for (int64_t r = 0; r < kARows; ++r) a.push_back(ARow(r));
  for (int64_t r = 0; r < kBRows; ++r) b.push_back(BRow(r));
  std::map<Row, int64_t> b_counts;
  for (const Row& row : b) ++b_counts[row];
  // What each kind keeps, row by row in order (left's rows, then right's for UNION).
  std::vector<Row> union_rows, intersect, except, intersect_all, except_all;
  std::set<Row> seen, emitted_i, emitted_e;
  for (const Row& row : a) {
    if (seen.insert(row).second) union_rows.push_back(row);
  }
  for (const Row& row : b) {
    if (seen.insert(row).second) union_rows.push_back(row);
  }
  std::map<Row, int64_t> left = b_counts;
  for (const Row& row : a) {
    const bool in_b = b_counts.count(row) != 0;
    if (in_b && emitted_i.insert(row).second) intersect.push_back(row);
    if (!in_b && emitted_e.insert(row).second) except.push_back(row);
    auto it = left.find(row);
    const bool remaining = it != left.end() && it->second > 0;
    if (remaining) --it->second;
    (remaining ? intersect_all : except_all).push_back(row);
  }
  const std::vector<std::pair<std::string, std::vector<Row>>> cases = {
      {"UNION", union_rows},         {"INTERSECT", intersect},         {"EXCEPT", except},
      {"INTERSECT ALL", intersect_all}, {"EXCEPT ALL", except_all}};
  for (const auto& [kind, expected] : cases) {
    ASSERT_FALSE(expected.empty()) << kind;
    const std::string sql = "SELECT x, y FROM a " + kind + " SELECT x, y FROM b";
    const std::string one = Rows(*db, sql, 1);
    EXPECT_EQ(one, Text(expected)) << sql;
    EXPECT_EQ(Rows(*db, sql, 3), one) << sql;
    EXPECT_EQ(Rows(*db, sql, 4), one) << sql;
  }
}

TEST(SetOperationTest, MinusZeroEqualsZeroAndNaNsAreOneValue) {
  std::unique_ptr<Database> db = Open();
  const Result r = db->Query(
      "SELECT count(*) FROM (SELECT * FROM (VALUES (0.0::DOUBLE), ('nan'::DOUBLE), (NULL), (1.5)) t(v) "
      "INTERSECT SELECT * FROM (VALUES (-0.0::DOUBLE), (-('nan'::DOUBLE)), (NULL)) u(v))");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.column(0).Values<int64_t>()[0], 3);
  const Result u = db->Query(
      "SELECT count(*) FROM (SELECT * FROM (VALUES (0.0::DOUBLE), (-0.0::DOUBLE), ('nan'::DOUBLE)) t(v) "
      "UNION SELECT * FROM (VALUES (-('nan'::DOUBLE)), (NULL), (NULL)) u(v))");
  ASSERT_TRUE(u.ok()) << u.error();
  EXPECT_EQ(u.column(0).Values<int64_t>()[0], 3);
}

}  // namespace
}  // namespace laneql
