// GROUP BY one integer column whose values span at most 65,536: the direct table (a slot per
// value, Grouper's kDirect) in place of the hash table, chosen from the column's exact range
// (Column::IntegerRange), with the hash table's answers.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"
#include "src/exec/group_stage.h"

namespace laneql {
namespace {

TEST(ColumnIntegerRange, ExactOverTheNonNullRowsAndForgottenOnAppend) {
  std::string error;
  Column c(TypeId::kInt32);
  int64_t min = 0, max = 0;
  EXPECT_FALSE(c.IntegerRange(&min, &max));  // no rows
  ASSERT_TRUE(c.AppendNull(&error));
  EXPECT_FALSE(c.IntegerRange(&min, &max));  // only NULLs
  ASSERT_TRUE(c.Append<int32_t>(7, &error));
  ASSERT_TRUE(c.Append<int32_t>(-3, &error));
  ASSERT_TRUE(c.AppendNull(&error));  // its slot holds 0, which is no value
  ASSERT_TRUE(c.Append<int32_t>(5, &error));
  ASSERT_TRUE(c.IntegerRange(&min, &max));
  EXPECT_EQ(min, -3);
  EXPECT_EQ(max, 7);
  ASSERT_TRUE(c.Append<int32_t>(INT32_MIN, &error));  // the kept answer is forgotten
  ASSERT_TRUE(c.IntegerRange(&min, &max));
  EXPECT_EQ(min, INT32_MIN);
  EXPECT_EQ(max, 7);
  c.MutableValues<int32_t>()[1] = INT32_MAX;  // and on a write through MutableValues
  ASSERT_TRUE(c.IntegerRange(&min, &max));
  EXPECT_EQ(max, INT32_MAX);

  Column u(TypeId::kUInt32), big(TypeId::kInt64), s(TypeId::kString), f(TypeId::kFloat64);
  ASSERT_TRUE(u.Append<uint32_t>(UINT32_MAX, &error));
  ASSERT_TRUE(u.Append<uint32_t>(0, &error));
  ASSERT_TRUE(u.IntegerRange(&min, &max));
  EXPECT_EQ(min, 0);
  EXPECT_EQ(max, int64_t{UINT32_MAX});
  ASSERT_TRUE(big.Append<int64_t>(INT64_MIN, &error));
  ASSERT_TRUE(big.Append<int64_t>(INT64_MAX, &error));
  ASSERT_TRUE(big.IntegerRange(&min, &max));
  EXPECT_EQ(min, INT64_MIN);
  EXPECT_EQ(max, INT64_MAX);
  ASSERT_TRUE(s.AppendString("1", &error));
  ASSERT_TRUE(f.Append<double>(1.0, &error));
  EXPECT_FALSE(s.IntegerRange(&min, &max));
  EXPECT_FALSE(f.IntegerRange(&min, &max));
}

// Keys of every width the direct table takes beyond 8/16 bits, at the ends of their types, with
// NULLs; `wide` spans one value too many (65,537).
std::shared_ptr<Table> RangeTable(size_t rows) {
  Column r32(TypeId::kInt32), wide(TypeId::kInt32), big(TypeId::kInt64), u32(TypeId::kUInt32);
  Column day(TypeId::kDate32), ts(TypeId::kTimestampMicros), v(TypeId::kInt64);
  std::string error;
  for (size_t i = 0; i < rows; ++i) {
    const uint64_t scrambled = uint64_t{i} * 2654435761u % 1000003u;
    if (i % 97 == 5) {
      EXPECT_TRUE(r32.AppendNull(&error));
    } else {
      // -30,000 .. 35,535: a span of 65,535, the most the table holds (its ends present).
      const int32_t value = i == 0 ? -30000 : i == 1 ? 35535 : static_cast<int32_t>(scrambled % 65536) - 30000;
      EXPECT_TRUE(r32.Append<int32_t>(value, &error));
    }
    EXPECT_TRUE(wide.Append<int32_t>(i == 0 ? 0 : i == 1 ? 65536 : static_cast<int32_t>(scrambled % 1000), &error));
    EXPECT_TRUE(big.Append<int64_t>(INT64_MAX - static_cast<int64_t>(scrambled % 5000), &error));
    EXPECT_TRUE(u32.Append<uint32_t>(UINT32_MAX - static_cast<uint32_t>(scrambled % 300), &error));
    EXPECT_TRUE(day.Append<int32_t>(static_cast<int32_t>(-400 + scrambled % 800), &error));  // around 1970
    EXPECT_TRUE(ts.Append<int64_t>(1700000000000000 + static_cast<int64_t>(scrambled % 100), &error));
    EXPECT_TRUE(v.Append<int64_t>(static_cast<int64_t>(scrambled % 1000) - 500, &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("r32", std::move(r32), &error)) << error;
  EXPECT_TRUE(table->AddColumn("wide", std::move(wide), &error)) << error;
  EXPECT_TRUE(table->AddColumn("big", std::move(big), &error)) << error;
  EXPECT_TRUE(table->AddColumn("u32", std::move(u32), &error)) << error;
  EXPECT_TRUE(table->AddColumn("day", std::move(day), &error)) << error;
  EXPECT_TRUE(table->AddColumn("ts", std::move(ts), &error)) << error;
  EXPECT_TRUE(table->AddColumn("v", std::move(v), &error)) << error;
  return table;
}

TEST(GroupDirectRange, ChosenForAColumnSpanningAtMostTheSlots) {
  auto table = RangeTable(20000);
  const struct {
    const char* column;
    bool direct;
  } cases[] = {{"r32", true}, {"wide", false}, {"big", true}, {"u32", true},
               {"day", true}, {"ts", true},    {"v", true}};
  for (const auto& c : cases) {
    const int index = table->ColumnIndex(c.column);
    ASSERT_GE(index, 0) << c.column;
    const Column& column = table->column(static_cast<size_t>(index));
    std::vector<plan::BoundExprPtr> keys;
    keys.push_back(plan::MakeColumn(index, column.type(), true, {}));
    std::string error;
    exec::GroupStage with_table, without_table, no_lookup;
    ASSERT_TRUE(with_table.Init(keys, 0, true, &error, table.get())) << error;
    ASSERT_TRUE(without_table.Init(keys, 0, true, &error)) << error;
    ASSERT_TRUE(no_lookup.Init(keys, 0, false, &error, table.get())) << error;
    EXPECT_EQ(with_table.grouper().strategy() == exec::Grouper::Strategy::kDirect, c.direct) << c.column;
    EXPECT_NE(without_table.grouper().strategy(), exec::Grouper::Strategy::kDirect) << c.column;
    EXPECT_NE(no_lookup.grouper().strategy(), exec::Grouper::Strategy::kDirect) << c.column;
  }
}

TEST(GroupDirectRange, AnswersAreTheHashTables) {
  auto table = RangeTable(150000);  // several batches: the threads' direct tables merge
  const char* keys[] = {"r32", "big", "u32", "day", "ts", "v"};
  for (int threads : {1, 2, 4}) {
    DatabaseOptions options;
    options.threads = threads;
    options.min_parallel_rows = 0;
    Database db(options);
    std::string error;
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    for (const char* key : keys) {
      const std::string k(key);
      const std::string queries[] = {
          "SELECT " + k + ", count(*), sum(v), min(v), count(DISTINCT v % 7) FROM t GROUP BY " + k + " ORDER BY " + k,
          "SELECT " + k + ", count(*) FROM t WHERE v > 100 GROUP BY " + k + " HAVING count(*) > 1 ORDER BY " + k,
          // No ORDER BY: the groups in the order of their first rows, as the hash table's.
          "SELECT " + k + ", max(v) FROM t GROUP BY " + k,
          // GROUP BY ... LIMIT: the first groups seen, each complete.
          "SELECT " + k + ", count(*) FROM t GROUP BY " + k + " LIMIT 5",
      };
      for (const std::string& sql : queries) {
        QueryOptions hashed;
        hashed.small_key_lookup = false;
        const Result want = db.Query(sql, hashed);
        ASSERT_TRUE(want.ok()) << sql << ": " << want.error();
        const Result got = db.Query(sql);
        ASSERT_TRUE(got.ok()) << sql << ": " << got.error();
        EXPECT_GT(got.num_rows(), 0u) << sql;
        EXPECT_EQ(PrintCsv(got), PrintCsv(want)) << sql << " on " << threads << " threads";
      }
    }
  }
}

}  // namespace
}  // namespace laneql
