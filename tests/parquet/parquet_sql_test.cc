// Parquet through SQL: FROM 'x.parquet' and read_parquet() give what the same table registered
// in memory gives, and reader errors reach the query's result with the file's name.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/database.h"
#include "laneql/parquet.h"
#include "laneql/result.h"
#include "../cpp/result_rows.h"

namespace laneql {
namespace {

std::string TestFile(const std::string& name) {
  return std::string(LANEQL_PARQUET_TEST_DIR) + "/" + name;
}

std::vector<std::string> Rows(const Result& result) { return testing::ResultRows(result); }

TEST(ParquetSqlTest, FromFileEqualsTheRegisteredTable) {
  InstallParquetReader();
  const std::string path = TestFile("hits_sample.parquet");
  Table table;
  std::string error;
  ASSERT_TRUE(ReadParquetFile(path, &table, &error)) << error;
  Database db;
  ASSERT_TRUE(db.Register("hits", std::move(table), &error)) << error;
  const std::string select =
      "SELECT count(*), count(UTMSource), sum(CounterID), min(EventDate), max(EventTime), "
      "count(DISTINCT URL), max(Title) FROM ";
  const std::vector<std::string> expected = Rows(db.Query(select + "hits"));
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_EQ(expected[0].rfind("3000|", 0), 0u) << expected[0];
  EXPECT_EQ(Rows(db.Query(select + "'" + path + "'")), expected);
  EXPECT_EQ(Rows(db.Query(select + "read_parquet('" + path + "')")), expected);
  // Grouped, ordered: the same rows either way.
  const std::string grouped = " GROUP BY JavaEnable ORDER BY JavaEnable";
  EXPECT_EQ(Rows(db.Query("SELECT JavaEnable, count(*) FROM '" + path + "'" + grouped)),
            Rows(db.Query("SELECT JavaEnable, count(*) FROM hits" + grouped)));
}

TEST(ParquetSqlTest, ReaderErrorsNameTheFile) {
  InstallParquetReader();
  Database db;
  const Result missing = db.Query("SELECT count(*) FROM 'no_such_dir/x.parquet'");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("no_such_dir/x.parquet"), std::string::npos) << missing.error();
  EXPECT_EQ(missing.error_column(), 22);
  const Result options = db.Query("SELECT count(*) FROM read_parquet('x.parquet', a => 1)");
  ASSERT_FALSE(options.ok());
  EXPECT_NE(options.error().find("read_parquet() takes no options"), std::string::npos);
}

}  // namespace
}  // namespace laneql
