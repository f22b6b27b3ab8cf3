// The explicit merge step of grouping and aggregation (what the morsel-parallel executor will
// use): the rows split in two, each half grouped and aggregated on its own, the halves merged,
// must give exactly the groups and aggregates of one pass over all rows, for every grouping
// strategy and aggregate kind.
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/database.h"
#include "laneql/result.h"
#include "src/exec/aggregate_states.h"
#include "src/exec/expr_eval.h"
#include "src/exec/grouping.h"
#include "bind_sql.h"

namespace laneql {
namespace {

constexpr size_t kRows = 20000;

void MakeTable(Table* table) {
  std::mt19937_64 rng(3);
  std::string error;
  Column i8(TypeId::kInt8), i32(TypeId::kInt32), f(TypeId::kFloat64), s(TypeId::kString),
      n(TypeId::kInt64);
  const char* words[] = {"", "a", "bb", "Яндекс", "google"};
  for (size_t r = 0; r < kRows; ++r) {
    const uint64_t x = rng();
    EXPECT_TRUE(i8.Append<int8_t>(static_cast<int8_t>(x % 37) - 18, &error));
    EXPECT_TRUE(i32.Append<int32_t>(static_cast<int32_t>((x >> 8) % 500) - 250, &error));
    EXPECT_TRUE(f.Append<double>(static_cast<double>((x >> 20) % 1000) / 8, &error));
    EXPECT_TRUE(s.AppendString(words[(x >> 30) % 5], &error));
    EXPECT_TRUE((x >> 40) % 9 == 0 ? n.AppendNull(&error) : n.Append<int64_t>(static_cast<int64_t>((x >> 44) % 300), &error));
  }
  EXPECT_TRUE(table->AddColumn("i8", std::move(i8), &error));
  EXPECT_TRUE(table->AddColumn("i32", std::move(i32), &error));
  EXPECT_TRUE(table->AddColumn("f", std::move(f), &error));
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error));
  EXPECT_TRUE(table->AddColumn("n", std::move(n), &error));
}

struct Pass {
  exec::Grouper grouper;
  std::unique_ptr<exec::AggregateStates> states;
};

// Groups and aggregates rows [begin, end) of the table into *pass.
void RunRows(const plan::Plan& plan, const Table& table, size_t begin, size_t end, Pass* pass) {
  std::string error;
  std::vector<TypeId> types;
  std::vector<bool> nullable;
  for (const auto& key : plan.group_keys) {
    types.push_back(key->type);
    nullable.push_back(key->nullable);
  }
  ASSERT_TRUE(pass->grouper.Init(types, nullable, /*lookup_table=*/true, &error));
  pass->states = std::make_unique<exec::AggregateStates>(plan.aggregates, false);
  exec::Evaluator evaluator(exec::TableColumns(table));
  std::vector<uint32_t> ids(end - begin), groups(end - begin);
  for (size_t i = begin; i < end; ++i) ids[i - begin] = static_cast<uint32_t>(i);
  exec::RowSet rows;
  rows.ids = ids.data();
  rows.count = ids.size();
  std::vector<exec::Vec> keys(plan.group_keys.size());
  for (size_t k = 0; k < keys.size(); ++k) {
    ASSERT_TRUE(evaluator.Eval(*plan.group_keys[k], rows, &keys[k], &error)) << error;
  }
  ASSERT_TRUE(pass->grouper.Assign(keys, rows.count, groups.data(), &error)) << error;
  ASSERT_TRUE(pass->states->Resize(pass->grouper.size(), &error));
  for (size_t a = 0; a < plan.aggregates.size(); ++a) {
    exec::Vec arg;
    if (plan.aggregates[a].arg) {
      ASSERT_TRUE(evaluator.Eval(*plan.aggregates[a].arg, rows, &arg, &error)) << error;
    }
    ASSERT_TRUE(pass->states->Update(a, plan.aggregates[a].arg ? &arg : nullptr, groups.data(), rows.count, &error)) << error;
  }
}

// key text -> aggregate texts, for every group.
std::map<std::string, std::string> Answer(const plan::Plan& plan, const Pass& pass) {
  std::string error;
  std::vector<Column> keys;
  EXPECT_TRUE(pass.grouper.KeyColumns(nullptr, &keys, &error));
  std::vector<Column> aggregates(plan.aggregates.size());
  for (size_t a = 0; a < aggregates.size(); ++a) {
    EXPECT_TRUE(pass.states->Finish(a, pass.grouper.size(), &aggregates[a], &error));
  }
  std::map<std::string, std::string> answer;
  for (size_t g = 0; g < pass.grouper.size(); ++g) {
    std::string key, values;
    for (const Column& c : keys) key += FormatValue(c, g, ValueStyle::kText) + "|";
    for (const Column& c : aggregates) values += FormatValue(c, g, ValueStyle::kText) + "|";
    EXPECT_TRUE(answer.emplace(key, values).second) << "duplicate group " << key;
  }
  return answer;
}

TEST(SqlEngineMerge, SplitAndMergedEqualsOnePass) {
  Table table;
  MakeTable(&table);
  std::string error;
  Database db;
  ASSERT_TRUE(db.Register("m", std::move(table), &error));
  const Table& t = *db.FindTable("m");
  const char* group_bys[] = {
      "i8",           // direct table
      "i32, i8",      // packed word
      "n, i32",       // wide words (n has NULLs)
      "s",            // one string key
      "s, n",         // serialised
  };
  for (const char* group_by : group_bys) {
    const std::string sql = std::string("SELECT count(*), count(n), sum(n), avg(i32), min(s), max(f), "
                                        "min(i32), count(DISTINCT s), count(DISTINCT n) FROM m GROUP BY ") + group_by;
    const plan::Plan plan = BindSql(t, sql);
    ASSERT_FALSE(HasFailure());  // a query that did not bind
    Pass whole, first, second;
    RunRows(plan, t, 0, kRows, &whole);
    RunRows(plan, t, 0, kRows / 3, &first);
    RunRows(plan, t, kRows / 3, kRows, &second);
    std::vector<uint32_t> mapping;
    ASSERT_TRUE(first.grouper.Merge(second.grouper, &mapping, &error)) << error;
    ASSERT_TRUE(first.states->Merge(*second.states, mapping, first.grouper.size(), &error)) << error;
    const auto expected = Answer(plan, whole);
    EXPECT_GT(expected.size(), 4u) << group_by;
    EXPECT_EQ(Answer(plan, first), expected) << group_by;
  }
}

}  // namespace
}  // namespace laneql

namespace laneql {
namespace {

// A NULL string is one key whatever bytes its slot holds (Arrow input may leave bytes under a
// NULL): with a second key the rows are serialised, and the slot's bytes must not reach them.
TEST(SqlEngineMerge, NullStringKeysGroupTogetherWhateverTheirSlotsHold) {
  const std::string bytes = "abbéxyz";
  const int32_t offsets[] = {0, 2, 5, 5, 10};  // "ab", "bé", "", "xyz" (NULL, NULL, NULL, "xyz")
  const uint64_t validity = 0b1000;
  const int64_t numbers[] = {7, 7, 7, 7};
  exec::Vec text, number;
  text.type = TypeId::kString;
  text.count = 4;
  text.values = reinterpret_cast<const uint8_t*>(bytes.data());
  text.offsets = offsets;
  text.validity = &validity;
  number.type = TypeId::kInt64;
  number.count = 4;
  number.values = reinterpret_cast<const uint8_t*>(numbers);
  exec::Grouper grouper;
  std::string error;
  ASSERT_TRUE(grouper.Init({TypeId::kString, TypeId::kInt64}, {true, false}, true, &error)) << error;
  std::vector<exec::Vec> keys;
  keys.push_back(std::move(text));
  keys.push_back(std::move(number));
  uint32_t ids[4];
  ASSERT_TRUE(grouper.Assign(keys, 4, ids, &error)) << error;
  EXPECT_EQ(ids[0], ids[1]);
  EXPECT_EQ(ids[0], ids[2]);
  EXPECT_NE(ids[0], ids[3]);
  EXPECT_EQ(grouper.size(), 2u);
}

}  // namespace
}  // namespace laneql
