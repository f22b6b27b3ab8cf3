// The list type's ids, names and layout (laneql/types.h): what the binder, the printers and
// the JS bindings rely on, and a list column moved as the string column it is stored as.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "laneql/database.h"
#include "laneql/result.h"
#include "laneql/types.h"

namespace laneql {
namespace {

TEST(ListType, IdsNamesAndLayout) {
  const TypeId doubles = ListType(TypeId::kFloat64);
  EXPECT_TRUE(IsList(doubles));
  EXPECT_FALSE(IsList(TypeId::kFloat64));
  EXPECT_EQ(ListElementType(doubles), TypeId::kFloat64);
  EXPECT_STREQ(DuckDbTypeName(doubles), "DOUBLE[]");
  EXPECT_STREQ(TypeName(doubles), "float64[]");
  EXPECT_STREQ(ArrowFormat(doubles), "+l");
  EXPECT_EQ(PhysicalType(doubles), TypeId::kString);
  EXPECT_EQ(TypeByteWidth(doubles), 0u);
  EXPECT_EQ(OffsetByteWidth(doubles), 4u);
  EXPECT_TRUE(IsString(doubles));  // moved as a string column is
  EXPECT_FALSE(IsFixedWidth(doubles));

  // A list of decimals is a list, not a decimal, and keeps its element's precision and scale.
  const TypeId decimals = ListType(DecimalType(9, 2));
  EXPECT_TRUE(IsList(decimals));
  EXPECT_FALSE(IsDecimal(decimals));
  EXPECT_TRUE(IsDecimal(ListElementType(decimals)));
  EXPECT_STREQ(DuckDbTypeName(decimals), "DECIMAL(9,2)[]");
  EXPECT_STREQ(TypeName(decimals), "decimal(9,2)[]");

  TypeId parsed;
  ASSERT_TRUE(TypeFromName("float64[]", &parsed));
  EXPECT_EQ(parsed, doubles);
  ASSERT_TRUE(TypeFromName("decimal(9,2)[]", &parsed));
  EXPECT_EQ(parsed, decimals);
  EXPECT_FALSE(TypeFromName("string[]", &parsed));
  EXPECT_FALSE(TypeFromName("float64[][]", &parsed));
  // CREATE TABLE cannot declare one.
  EXPECT_FALSE(TypeFromSqlName("DOUBLE[]", &parsed));
}

TEST(ListType, ValidIds) {
  EXPECT_TRUE(IsValidTypeId(static_cast<uint16_t>(ListType(TypeId::kInt32))));
  EXPECT_TRUE(IsValidTypeId(static_cast<uint16_t>(ListType(TypeId::kInterval))));
  EXPECT_TRUE(IsValidTypeId(static_cast<uint16_t>(ListType(DecimalType(38, 10)))));
  EXPECT_FALSE(IsValidTypeId(static_cast<uint16_t>(ListType(TypeId::kString))));
  EXPECT_FALSE(IsValidTypeId(static_cast<uint16_t>(ListType(TypeId::kLargeString))));
  EXPECT_FALSE(IsValidTypeId(kListTag | 0x3fff));                       // no such element
  EXPECT_FALSE(IsValidTypeId(static_cast<uint16_t>(ListType(DecimalType(39, 0)))));
  EXPECT_FALSE(IsValidTypeId(uint64_t{1} << 20));
}

// A query's list column holds the packed element values, a row's byte length the elements
// times the width, and a NULL group an empty NULL row.
TEST(ListType, ResultRowsArePackedElements) {
  Database db;
  const Result result = db.Query(
      "SELECT g, quantile_disc(x, [0.5, 1.0, 0.0]) AS q FROM (SELECT x % 2 AS g, CASE WHEN x < 8 THEN x END AS x "
      "FROM range(10) t(x)) GROUP BY g ORDER BY g");
  ASSERT_TRUE(result.ok()) << result.error();
  ASSERT_EQ(result.num_rows(), 2u);
  const Column& q = result.column(1);
  ASSERT_EQ(q.type(), ListType(TypeId::kInt64));
  for (size_t row = 0; row < 2; ++row) {
    const std::string_view bytes = q.StringAt(row);
    ASSERT_EQ(bytes.size(), 3 * sizeof(int64_t));
    int64_t v[3];
    std::memcpy(v, bytes.data(), sizeof v);
    // g = 0: 0, 2, 4, 6 (8 is NULL); g = 1: 1, 3, 5, 7.
    EXPECT_EQ(v[0], row == 0 ? 2 : 3);
    EXPECT_EQ(v[1], row == 0 ? 6 : 7);
    EXPECT_EQ(v[2], row == 0 ? 0 : 1);
  }
  EXPECT_EQ(FormatValue(q, 0, ValueStyle::kText), "[2, 6, 0]");
  EXPECT_EQ(FormatValue(q, 1, ValueStyle::kJson), "[3,7,1]");

  const Result empty = db.Query("SELECT quantile_cont(x, [0.5]) AS q FROM range(3) t(x) WHERE x > 5");
  ASSERT_TRUE(empty.ok()) << empty.error();
  ASSERT_EQ(empty.num_rows(), 1u);
  EXPECT_FALSE(empty.column(0).IsValid(0));
  EXPECT_EQ(empty.column(0).StringAt(0).size(), 0u);
}

// COPY ... TO a CSV file writes a list as DuckDB does: its text, quoted where it holds the
// delimiter.
TEST(ListType, CsvFilesHoldTheListText) {
  const std::string path = ::testing::TempDir() + "/laneql_list_type_test.csv";
  Database db;
  const Result copied =
      db.Query("COPY (SELECT [1, 2] AS l, 5 AS x, [TIMESTAMP '2020-01-01'] AS t) TO '" + path + "'");
  ASSERT_TRUE(copied.ok()) << copied.error();
  std::FILE* file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  char buffer[256] = {};
  const size_t read = std::fread(buffer, 1, sizeof buffer - 1, file);
  std::fclose(file);
  std::remove(path.c_str());
  EXPECT_EQ(std::string(buffer, read), "l,x,t\n\"[1, 2]\",5,['2020-01-01 00:00:00']\n");
}

}  // namespace
}  // namespace laneql
