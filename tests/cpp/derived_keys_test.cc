// GROUP BY keys that are functions of other keys are computed per group, not hashed
// (src/optimize/derived_keys.cc): which keys qualify, and that the answers stay those of hashing
// every key, errors included.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "laneql/database.h"
#include "laneql/result_printers.h"
#include "bind_sql.h"

namespace laneql {
namespace {

std::shared_ptr<Table> Sample() {
  Column a(TypeId::kInt32), s(TypeId::kString), f(TypeId::kFloat64);
  std::string error;
  const int32_t as[] = {5, 7, 5, INT32_MAX, 7, 5};
  const double fs[] = {0.0, -0.0, 1.5, 0.0, -0.0, 2.0};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_TRUE(a.Append<int32_t>(as[i], &error));
    EXPECT_TRUE(i == 4 ? s.AppendNull(&error) : s.AppendString(i % 2 ? "Ab" : "cD", &error));
    EXPECT_TRUE(f.Append<double>(fs[i], &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("a", std::move(a), &error));
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error));
  EXPECT_TRUE(table->AddColumn("f", std::move(f), &error));
  return table;
}

// The GROUP BY positions that end up derived.
std::vector<size_t> DerivedPositions(const Table& table, const std::string& sql) {
  const plan::Plan plan = BindSql(table, sql);
  std::vector<size_t> positions;
  for (const auto& d : plan.derived_keys) positions.push_back(d.position);
  EXPECT_EQ(plan.scope_keys(), plan.group_keys.size() + positions.size());
  return positions;
}

TEST(DerivedKeys, OnlyFunctionsOfBareNonFloatKeysAreDerived) {
  auto t = Sample();
  using V = std::vector<size_t>;
  EXPECT_EQ(V({1, 2}), DerivedPositions(*t, "SELECT count(*) FROM t GROUP BY a, a - 1, a * 2"));
  EXPECT_EQ(V({0, 2}), DerivedPositions(*t, "SELECT count(*) FROM t GROUP BY lower(s), a, a + length(s), s"));
  EXPECT_EQ(V({0}), DerivedPositions(*t, "SELECT 1, s, count(*) FROM t GROUP BY 1, s"));
  // Not derived: a column that is no key by itself; a float key; no key left to hash.
  EXPECT_EQ(V(), DerivedPositions(*t, "SELECT count(*) FROM t GROUP BY a, s || 'x'"));
  EXPECT_EQ(V(), DerivedPositions(*t, "SELECT count(*) FROM t GROUP BY f, 1 / f"));
  EXPECT_EQ(V(), DerivedPositions(*t, "SELECT count(*) FROM t GROUP BY a - 1, a + 1"));
  EXPECT_EQ(V(), DerivedPositions(*t, "SELECT count(*) FROM t GROUP BY a, a"));
}

std::string Csv(Database* db, const std::string& sql) {
  const Result r = db->Query(sql);
  if (!r.ok()) return "error: " + r.error();
  return PrintCsv(r);
}

TEST(DerivedKeys, AnswersAndErrorsAreThoseOfHashingEveryKey) {
  auto t = Sample();
  for (size_t threads : {1, 2}) {
    DatabaseOptions options;
    options.threads = threads;
    Database db(options);
    std::string error;
    ASSERT_TRUE(db.Register("t", t, &error)) << error;
    EXPECT_EQ("a,(a % 3),count_star()\n5,2,3\n7,1,2\n2147483647,1,1\n",
              Csv(&db, "SELECT a, a % 3, count(*) FROM t GROUP BY a, a % 3"));
    // Read by HAVING and ORDER BY; NULL keys.
    EXPECT_EQ("upper(s),s,c\nCD,cD,2\nAB,Ab,3\n",
              Csv(&db, "SELECT upper(s), s, count(*) AS c FROM t GROUP BY upper(s), s "
                       "HAVING upper(s) IS NOT NULL ORDER BY upper(s) DESC"));
    EXPECT_EQ("x,s,count_star()\n1,Ab,3\n1,cD,2\n1,,1\n",
              Csv(&db, "SELECT 1 AS x, s, count(*) FROM t GROUP BY 1, s ORDER BY 3 DESC"));
    // Constant keys are computed for the chosen groups alone (ORDER BY reads no key), at their
    // places among the keys, before and after the aggregates' columns.
    EXPECT_EQ("x,s,c\n1,Ab,3\n1,cD,2\n",
              Csv(&db, "SELECT 1 AS x, s, count(*) AS c FROM t GROUP BY 1, s ORDER BY c DESC LIMIT 2"));
    EXPECT_EQ("s,k,m,two\n,k,7,2\ncD,k,10,2\n",
              Csv(&db, "SELECT s, 'k' AS k, sum(a) AS m, 2 AS two FROM t GROUP BY s, 'k', 2 "
                       "ORDER BY m LIMIT 2"));
    // A constant key that fails fails the query once a group is computed, even where the LIMIT
    // leaves it out of the answer; under LIMIT 0 nothing is computed (as in DuckDB, where the
    // key is left unfolded too).
    const std::string cast = Csv(&db, "SELECT CAST('x' AS INTEGER) AS k, s, count(*) AS c FROM t "
                                      "GROUP BY 1, s ORDER BY c LIMIT 1");
    EXPECT_NE(std::string::npos, cast.find("could not convert string 'x' to INTEGER")) << cast;
    EXPECT_EQ("k,s,c\n", Csv(&db, "SELECT CAST('x' AS INTEGER) AS k, s, count(*) AS c FROM t "
                                  "GROUP BY 1, s ORDER BY c LIMIT 0"));
    // a + 1 overflows for the INT32_MAX group, which the LIMIT leaves out of the answer: still
    // the error that evaluating a + 1 on every row gives.
    const std::string overflow = Csv(&db, "SELECT a, a + 1, count(*) AS c FROM t GROUP BY a, a + 1 "
                                          "ORDER BY c DESC LIMIT 1");
    EXPECT_NE(std::string::npos, overflow.find("Overflow in addition of INT32 (2147483647 + 1)")) << overflow;
  }
}

}  // namespace
}  // namespace laneql
