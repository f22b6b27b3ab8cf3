// Random differential tests inside the engine: the filter's kernel paths against the
// evaluator's generic path, and every grouping strategy against the others, on random tables
// with NULLs, negative values, ±0, NaN and extremes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/database.h"
#include "laneql/result.h"

namespace laneql {
namespace {

constexpr size_t kRows = 40000;  // several batches, and a ragged last one

template <class T>
Column RandomColumn(TypeId type, std::mt19937_64& rng, const std::vector<T>& specials) {
  Column column(type);
  std::string error;
  for (size_t i = 0; i < kRows; ++i) {
    const uint64_t r = rng();
    bool ok;
    if (r % 17 == 0) {
      ok = column.AppendNull(&error);
    } else if (r % 13 == 0) {
      ok = column.Append<T>(specials[(r >> 8) % specials.size()], &error);
    } else if constexpr (std::is_floating_point_v<T>) {
      ok = column.Append<T>(static_cast<T>(static_cast<int>((r >> 8) % 201) - 100) / 4, &error);
    } else {
      ok = column.Append<T>(static_cast<T>((r >> 8) % 50), &error);
    }
    EXPECT_TRUE(ok) << error;
  }
  return column;
}

void MakeDatabase(Database* db) {
  std::mt19937_64 rng(42);
  Table table;
  std::string error;
  Column id(TypeId::kInt64);
  for (size_t i = 0; i < kRows; ++i) EXPECT_TRUE(id.Append<int64_t>(static_cast<int64_t>(i), &error));
  EXPECT_TRUE(table.AddColumn("id", std::move(id), &error));
  EXPECT_TRUE(table.AddColumn("i8", RandomColumn<int8_t>(TypeId::kInt8, rng, {-128, 127, -1}), &error));
  EXPECT_TRUE(table.AddColumn("u16", RandomColumn<uint16_t>(TypeId::kUInt16, rng, {65535, 0}), &error));
  EXPECT_TRUE(table.AddColumn("i32", RandomColumn<int32_t>(TypeId::kInt32, rng, {INT32_MIN, INT32_MAX, -7}), &error));
  EXPECT_TRUE(table.AddColumn("i64", RandomColumn<int64_t>(TypeId::kInt64, rng, {INT64_MIN, INT64_MAX, -3}), &error));
  EXPECT_TRUE(table.AddColumn("u64", RandomColumn<uint64_t>(TypeId::kUInt64, rng, {UINT64_MAX, 1ull << 63}), &error));
  EXPECT_TRUE(table.AddColumn("f32", RandomColumn<float>(TypeId::kFloat32, rng, {-0.0f, NAN, INFINITY, -INFINITY}), &error));
  EXPECT_TRUE(table.AddColumn("f64", RandomColumn<double>(TypeId::kFloat64, rng, {-0.0, NAN, 1e308, -INFINITY}), &error));
  EXPECT_TRUE(table.AddColumn("dt", RandomColumn<int32_t>(TypeId::kDate32, rng, {15887, 15917}), &error));
  Column s(TypeId::kString);
  const char* words[] = {"", "google", "Google", "a.google.com", "Яндекс", "x%y", "abc"};
  for (size_t i = 0; i < kRows; ++i) {
    const uint64_t r = rng();
    EXPECT_TRUE(r % 19 == 0 ? s.AppendNull(&error) : s.AppendString(words[r % 7], &error));
  }
  EXPECT_TRUE(table.AddColumn("s", std::move(s), &error));
  EXPECT_TRUE(db->Register("r", std::move(table), &error));
}

std::string Answer(const Database& db, const std::string& sql) {
  Result r = db.Query(sql);
  if (!r.ok()) return "ERROR " + r.error();
  std::string text;
  for (size_t row = 0; row < r.num_rows(); ++row) {
    for (size_t c = 0; c < r.num_columns(); ++c) text += FormatValue(r.column(c), row, ValueStyle::kText) + "|";
    text += "\n";
  }
  return text;
}

TEST(SqlEngineRandom, FilterKernelsMatchTheEvaluator) {
  Database db;
  MakeDatabase(&db);
  const char* columns[] = {"i8", "u16", "i32", "i64", "u64", "f32", "f64"};
  const char* ops[] = {"=", "<>", "<", "<=", ">", ">="};
  const char* constants[] = {"0", "7", "-1", "49", "2.5"};
  int checked = 0;
  for (const char* column : columns) {
    for (const char* op : ops) {
      for (const char* constant : constants) {
        const std::string predicate = std::string(column) + " " + op + " " + constant;
        // "(p) = true" is not a shape the kernels take, so it runs on the evaluator.
        const std::string kernel = Answer(db, "SELECT count(*), sum(id) FROM r WHERE " + predicate);
        const std::string generic = Answer(db, "SELECT count(*), sum(id) FROM r WHERE (" + predicate + ") = true");
        EXPECT_EQ(kernel, generic) << predicate;
        EXPECT_EQ(kernel.find("ERROR"), std::string::npos) << kernel;
        ++checked;
      }
    }
    const std::string between = std::string(column) + " BETWEEN -1 AND 20";
    EXPECT_EQ(Answer(db, "SELECT count(*), sum(id) FROM r WHERE " + between),
              Answer(db, "SELECT count(*), sum(id) FROM r WHERE (" + between + ") = true")) << between;
    const std::string in = std::string(column) + " IN (1, 3, 5, -1, 49)";
    EXPECT_EQ(Answer(db, "SELECT count(*), sum(id) FROM r WHERE " + in),
              Answer(db, "SELECT count(*), sum(id) FROM r WHERE (" + in + ") = true")) << in;
  }
  const char* string_predicates[] = {"s = 'google'", "s <> ''", "s <> 'abc'", "s LIKE '%google%'",
                                     "s NOT LIKE '%.google.%'", "s LIKE 'G%'", "s LIKE '%\\%%' ESCAPE '\\'",
                                     "dt >= '2013-07-10'", "dt = DATE '2013-07-01'"};
  for (const char* predicate : string_predicates) {
    EXPECT_EQ(Answer(db, std::string("SELECT count(*), sum(id) FROM r WHERE ") + predicate),
              Answer(db, std::string("SELECT count(*), sum(id) FROM r WHERE (") + predicate + ") = true"))
        << predicate;
  }
  EXPECT_EQ(checked, 7 * 6 * 5);
}

TEST(SqlEngineRandom, GroupingStrategiesAgree) {
  Database db;
  MakeDatabase(&db);
  // The same grouping by i8 through: the direct table (i8), wide words (a nullable pair), one
  // string key, serialised mixed keys.
  const std::string direct = Answer(db, "SELECT CAST(i8 AS VARCHAR) AS k, count(*), sum(id), min(f64), max(s) FROM r GROUP BY i8 ORDER BY k");
  const std::string wide = Answer(db, "SELECT CAST(i8 AS VARCHAR) AS k, count(*), sum(id), min(f64), max(s) FROM r GROUP BY i8, i8 IS NULL ORDER BY k");
  const std::string strings = Answer(db, "SELECT CAST(i8 AS VARCHAR) AS k, count(*), sum(id), min(f64), max(s) FROM r GROUP BY k ORDER BY k");
  const std::string mixed = Answer(db, "SELECT CAST(i8 AS VARCHAR) AS k, count(*), sum(id), min(f64), max(s) FROM r GROUP BY i8, 'x' || '' ORDER BY k");
  EXPECT_EQ(direct, wide);
  EXPECT_EQ(direct, strings);
  EXPECT_EQ(direct, mixed);
  EXPECT_EQ(direct.find("ERROR"), std::string::npos) << direct;
  // Packed 8-byte keys: two columns without NULLs (id is never NULL) against their string form.
  const std::string two = Answer(db, "SELECT id % 5 AS a, id % 3 AS b, count(*) FROM r GROUP BY id % 5, id % 3 ORDER BY a, b");
  const std::string two_strings = Answer(db, "SELECT CAST(id % 5 AS BIGINT) AS a, CAST(id % 3 AS BIGINT) AS b, count(*) FROM r GROUP BY CAST(id % 5 AS VARCHAR), CAST(id % 3 AS VARCHAR), a, b ORDER BY a, b");
  EXPECT_EQ(two, two_strings);
  // Wide keys with NULLs of several widths (a word each, and a word of NULL flags).
  const std::string nullable_wide =
      Answer(db, "SELECT i32, u16, i8, count(*), sum(id) FROM r GROUP BY i32, u16, i8 ORDER BY i32, u16, i8");
  const std::string nullable_wide_strings = Answer(db, "SELECT i32, u16, i8, count(*), sum(id) FROM r GROUP BY "
      "CAST(i32 AS VARCHAR), CAST(u16 AS VARCHAR), CAST(i8 AS VARCHAR), i32, u16, i8 "
      "ORDER BY i32, u16, i8");
  EXPECT_EQ(nullable_wide, nullable_wide_strings);
  EXPECT_EQ(nullable_wide.find("ERROR"), std::string::npos) << nullable_wide;
  EXPECT_NE(nullable_wide.find("NULL|"), std::string::npos);
  // COUNT(DISTINCT) grouped and ungrouped, fixed and string values.
  EXPECT_EQ(Answer(db, "SELECT count(DISTINCT f64), count(DISTINCT s), count(DISTINCT i64) FROM r"),
            Answer(db, "SELECT count(DISTINCT f64), count(DISTINCT s), count(DISTINCT i64) FROM r GROUP BY 'all'"));
}

// Keys packed into one word (no NULLs, 8 bytes or fewer together) whose widths are 1, 2 and 4
// bytes, negatives among them, each at its own byte offset of the word; a float beside an
// integer; and the four keys together, a word each: against the same grouping by their string
// forms (another strategy).
TEST(SqlEngineRandom, NarrowKeysInOneWordOrSeveralMatchTheirStringForm) {
  std::mt19937_64 rng(7);
  Column a(TypeId::kInt8), b(TypeId::kInt16), c(TypeId::kInt32), d(TypeId::kFloat32);
  std::string error;
  for (size_t i = 0; i < kRows; ++i) {
    const uint64_t r = rng();
    EXPECT_TRUE(a.Append<int8_t>(static_cast<int8_t>(static_cast<int>(r % 7) - 3), &error));
    EXPECT_TRUE(b.Append<int16_t>(static_cast<int16_t>(static_cast<int>((r >> 8) % 300) - 150), &error));
    EXPECT_TRUE(c.Append<int32_t>(static_cast<int32_t>((r >> 20) % 100) * 100000 - 5000000, &error));
    EXPECT_TRUE(d.Append<float>(static_cast<float>(static_cast<int>((r >> 40) % 9) - 4) / 2, &error));
  }
  Table table;
  EXPECT_TRUE(table.AddColumn("a", std::move(a), &error));
  EXPECT_TRUE(table.AddColumn("b", std::move(b), &error));
  EXPECT_TRUE(table.AddColumn("c", std::move(c), &error));
  EXPECT_TRUE(table.AddColumn("d", std::move(d), &error));
  Database db;
  ASSERT_TRUE(db.Register("p", std::move(table), &error)) << error;
  const std::string packed = Answer(db, "SELECT a, b, c, count(*) FROM p GROUP BY a, b, c ORDER BY a, b, c");
  const std::string strings = Answer(db, "SELECT a, b, c, count(*) FROM p GROUP BY CAST(a AS VARCHAR), "
                                         "CAST(b AS VARCHAR), CAST(c AS VARCHAR), a, b, c ORDER BY a, b, c");
  EXPECT_EQ(packed, strings);
  EXPECT_EQ(packed.find("ERROR"), std::string::npos) << packed;
  EXPECT_GT(std::count(packed.begin(), packed.end(), '\n'), 1000);  // groups, not one
  const std::string with_float = Answer(db, "SELECT d, b, count(*) FROM p GROUP BY d, b ORDER BY d, b");
  const std::string with_float_strings =
      Answer(db, "SELECT d, b, count(*) FROM p GROUP BY CAST(d AS VARCHAR), CAST(b AS VARCHAR), d, b ORDER BY d, b");
  EXPECT_EQ(with_float, with_float_strings);
  EXPECT_EQ(with_float.find("ERROR"), std::string::npos) << with_float;
  // More than 8 bytes: one word per key.
  const std::string wide = Answer(db, "SELECT c, d, b, a, count(*) FROM p GROUP BY c, d, b, a ORDER BY c, d, b, a");
  const std::string wide_strings =
      Answer(db, "SELECT c, d, b, a, count(*) FROM p GROUP BY CAST(c AS VARCHAR), CAST(d AS VARCHAR), "
                 "CAST(b AS VARCHAR), CAST(a AS VARCHAR), c, d, b, a ORDER BY c, d, b, a");
  EXPECT_EQ(wide, wide_strings);
  EXPECT_EQ(wide.find("ERROR"), std::string::npos) << wide;
}

}  // namespace
}  // namespace laneql
