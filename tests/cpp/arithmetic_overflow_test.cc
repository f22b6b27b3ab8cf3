// Integer + and - (expr_eval.cc): rows without NULLs take one pass that only notes an overflow,
// then on an overflow the checked loop names the first overflowing row. For every integer type,
// column with column and with a constant on either side: the values against 128-bit
// arithmetic, and the error's operands those of the first row that overflows, not a later one.
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/column.h"
#include "laneql/database.h"
#include "laneql/result.h"
#include "laneql/table.h"

namespace laneql {
namespace {

constexpr size_t kRows = 3000;

std::string Text(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  for (; u != 0; u /= 10) digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
  return negative ? "-" + digits : digits;
}

template <class T>
struct Case {
  TypeId type;
  const char* sql_type;   // for CAST
  const char* error_name; // as the error spells it
};

template <class T>
std::shared_ptr<const Table> MakeTable(TypeId type, const std::vector<T>& x, const std::vector<T>& y) {
  Column xs(type), ys(type);
  std::string error;
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_TRUE(xs.Append<T>(x[i], &error)) << error;
    EXPECT_TRUE(ys.Append<T>(y[i], &error)) << error;
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("x", std::move(xs), &error)) << error;
  EXPECT_TRUE(table->AddColumn("y", std::move(ys), &error)) << error;
  return table;
}

Result Run(const std::shared_ptr<const Table>& table, const std::string& sql) {
  Database db;
  std::string error;
  EXPECT_TRUE(db.Register("t", table, &error)) << error;
  return db.Query(sql);
}

template <class T>
void CheckType(const Case<T>& c) {
  SCOPED_TRACE(c.sql_type);
  constexpr __int128 kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  std::mt19937_64 rng(static_cast<uint64_t>(kMax));
  // Safe operands: x in the upper middle, y small, so x + y, x - y, x + 1 and x - 1 all fit.
  const __int128 span = (kMax - kMin) / 4;
  std::vector<T> x(kRows), y(kRows);
  for (size_t i = 0; i < kRows; ++i) {
    x[i] = static_cast<T>(kMin + span + 1 + static_cast<__int128>(rng() % static_cast<uint64_t>(span)));
    y[i] = static_cast<T>(kMin >= 0 ? static_cast<__int128>(rng() % static_cast<uint64_t>(span))
                                     : static_cast<__int128>(rng() % static_cast<uint64_t>(span)) - span / 2);
  }
  const std::string one = std::string("CAST(1 AS ") + c.sql_type + ")";
  const Result safe = Run(MakeTable<T>(c.type, x, y),
                          "SELECT x + y, x - y, x + " + one + ", " + one + " + x, x - " + one + " FROM t");
  ASSERT_TRUE(safe.ok()) << safe.error();
  ASSERT_EQ(kRows, safe.num_rows());
  for (size_t i = 0; i < kRows; ++i) {
    const __int128 a = x[i], b = y[i];
    const __int128 want[] = {a + b, a - b, a + 1, a + 1, a - 1};
    for (size_t col = 0; col < 5; ++col) {
      ASSERT_EQ(Text(want[col]), FormatValue(safe.column(col), i, ValueStyle::kText)) << "row " << i << " col " << col;
    }
  }
  // Two rows overflow an addition: the error names the first (row 1500's), not row 2600's.
  std::vector<T> big = x, other = y;
  big[1500] = static_cast<T>(kMax);
  other[1500] = static_cast<T>(5);
  big[2600] = static_cast<T>(kMax);
  other[2600] = static_cast<T>(7);
  const Result sum = Run(MakeTable<T>(c.type, big, other), "SELECT x + y FROM t");
  ASSERT_FALSE(sum.ok());
  EXPECT_NE(std::string::npos, sum.error().find(std::string("Overflow in addition of ") + c.error_name + " (" +
                                                Text(kMax) + " + 5)"))
      << sum.error();
  // A subtraction below the minimum, with the constant on either side.
  std::vector<T> low = x;
  low[2999] = static_cast<T>(kMin);
  const Result minus = Run(MakeTable<T>(c.type, low, y), "SELECT x - " + one + " FROM t");
  ASSERT_FALSE(minus.ok());
  EXPECT_NE(std::string::npos, minus.error().find(std::string("Overflow in subtraction of ") + c.error_name +
                                                  " (" + Text(kMin) + " - 1)"))
      << minus.error();
  const Result plus = Run(MakeTable<T>(c.type, big, y), "SELECT " + one + " + x FROM t");
  ASSERT_FALSE(plus.ok());
  EXPECT_NE(std::string::npos,
            plus.error().find(std::string("Overflow in addition of ") + c.error_name + " (1 + " + Text(kMax) + ")"))
      << plus.error();
}

TEST(ArithmeticOverflow, EveryIntegerTypeAgainstWideArithmetic) {
  CheckType<int8_t>({TypeId::kInt8, "TINYINT", "INT8"});
  CheckType<int16_t>({TypeId::kInt16, "SMALLINT", "INT16"});
  CheckType<int32_t>({TypeId::kInt32, "INTEGER", "INT32"});
  CheckType<int64_t>({TypeId::kInt64, "BIGINT", "INT64"});
  CheckType<uint8_t>({TypeId::kUInt8, "UTINYINT", "UINT8"});
  CheckType<uint16_t>({TypeId::kUInt16, "USMALLINT", "UINT16"});
  CheckType<uint32_t>({TypeId::kUInt32, "UINTEGER", "UINT32"});
  CheckType<uint64_t>({TypeId::kUInt64, "UBIGINT", "UINT64"});
}

}  // namespace
}  // namespace laneql
