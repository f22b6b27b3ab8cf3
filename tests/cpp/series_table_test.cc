// range() / generate_series() (exec/series_table.h) at sizes and edges the SQL corpus does not
// reach: a series past what a table holds fails with its position instead of allocating, and a
// large sorted series filtered by its zone maps and joined by its runtime filters gives the
// loops' answers on 1 and 4 threads.
#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "result_rows.h"

namespace laneql {
namespace {

using testing::ResultRows;

TEST(SeriesTable, TooManyRowsFailsWithItsPosition) {
  Database db;
  const Result r = db.Query("SELECT count(*)\nFROM range(0, 5000000000000)");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("line 2, column 6"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("range() would make 5000000000000 rows, more than a table holds (4294967295)"),
            std::string::npos)
      << r.error();
  const Result g = db.Query("SELECT count(*) FROM generate_series(-9223372036854775807, 9223372036854775807)");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().find("generate_series() would make 18446744073709551615 rows"), std::string::npos)
      << g.error();
  // The database stays usable.
  EXPECT_EQ(ResultRows(db.Query("SELECT count(*) FROM range(0, 10, 3)")), std::vector<std::string>{"4"});
}

TEST(SeriesTable, LargeSortedSeriesOnEveryThreadCount) {
  DatabaseOptions options;
  options.threads = 4;
  options.min_parallel_rows = 0;
  Database db(options);
  const int64_t n = 3000000;
  // Rows 1,234,567 .. 1,299,999 (a few zone blocks, starting and ending inside blocks).
  int64_t count = 0, sum = 0;
  for (int64_t x = 1234567; x < 1300000; ++x) {
    if (x % 3 != 0) continue;
    ++count;
    sum += x;
  }
  for (int threads : {1, 4}) {
    QueryOptions q;
    q.threads = threads;
    const std::string series = "range(" + std::to_string(n) + ") t(x)";
    EXPECT_EQ(ResultRows(db.Query("SELECT count(*), sum(x) FROM " + series +
                                      " WHERE x >= 1234567 AND x < 1300000 AND x % 3 = 0",
                                  q)),
              std::vector<std::string>{std::to_string(count) + "|" + std::to_string(sum)})
        << threads;
    EXPECT_EQ(ResultRows(db.Query("SELECT count(*), sum(t.x) FROM " + series +
                                      " JOIN generate_series(1234567, 1299999) s(x) ON t.x = s.x WHERE t.x % 3 = 0",
                                  q)),
              std::vector<std::string>{std::to_string(count) + "|" + std::to_string(sum)})
        << threads;
  }
}

}  // namespace
}  // namespace laneql
