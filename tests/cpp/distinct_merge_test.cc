// COUNT(DISTINCT) across threads split by rows, merged by lookups (group_merge.cc): up to 4
// threads the later threads' values (ungrouped) or (group, value) pairs (few groups) are looked
// up in the earlier threads' sets instead of inserted again; from 5 threads the partitioned
// union (ungrouped) or the insertion into thread 0's set (grouped) is used. Every thread count
// must give the distinct counts a plain std::set gives, with NULLs (not counted), '' (counted),
// a group that only the table's last rows have (the earlier threads have no such group), and a
// WHERE. A small COUNT(DISTINCT) beside large ones is merged with them (it lost the later
// threads' pairs once).
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/column.h"
#include "laneql/database.h"
#include "laneql/result.h"
#include "laneql/table.h"

namespace laneql {
namespace {

constexpr size_t kRows = 300'000;
constexpr int64_t kLateGroup = 5;  // only in the last kLateRows rows
constexpr size_t kLateRows = 1000;

struct Row {
  int32_t k;
  bool null;
  int64_t v;
  std::string s;  // "" for every v divisible by 97, else "v" + v
};

std::vector<Row> MakeRows() {
  std::mt19937_64 rng(41);
  std::vector<Row> rows(kRows);
  for (size_t i = 0; i < kRows; ++i) {
    Row& row = rows[i];
    row.k = i >= kRows - kLateRows ? static_cast<int32_t>(kLateGroup) : static_cast<int32_t>(rng() % 5);
    row.null = rng() % 10 == 0;
    row.v = static_cast<int64_t>(rng() % 60000) - 1000;
    row.s = row.v % 97 == 0 ? std::string() : "v" + std::to_string(row.v);
  }
  return rows;
}

std::shared_ptr<const Table> MakeTable(const std::vector<Row>& rows) {
  Column k(TypeId::kInt32), v(TypeId::kInt64), s(TypeId::kString);
  std::string error;
  for (const Row& row : rows) {
    EXPECT_TRUE(k.Append<int32_t>(row.k, &error)) << error;
    EXPECT_TRUE(row.null ? v.AppendNull(&error) : v.Append<int64_t>(row.v, &error)) << error;
    EXPECT_TRUE(row.null ? s.AppendNull(&error) : s.AppendString(row.s, &error)) << error;
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("k", std::move(k), &error)) << error;
  EXPECT_TRUE(table->AddColumn("v", std::move(v), &error)) << error;
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error)) << error;
  return table;
}

// The distinct non-NULL v % 10 per k: a set small enough to stay under the lookups'
// threshold (kLookupMinPairs) on its own.
std::map<int64_t, size_t> SmallReference(const std::vector<Row>& rows) {
  std::map<int64_t, std::set<int64_t>> values;
  for (const Row& row : rows) {
    values[row.k];
    if (!row.null) values[row.k].insert(row.v % 10);
  }
  std::map<int64_t, size_t> counts;
  for (const auto& [k, set] : values) counts[k] = set.size();
  return counts;
}

// The distinct non-NULL v and s per k (k = -1: all rows), of the rows `keep` accepts.
template <class Keep>
std::map<int64_t, std::pair<size_t, size_t>> Reference(const std::vector<Row>& rows, const Keep& keep) {
  std::map<int64_t, std::set<int64_t>> values;
  std::map<int64_t, std::set<std::string>> strings;
  for (const Row& row : rows) {
    if (!keep(row)) continue;
    values[row.k];  // the group exists even when its rows are all NULL
    strings[row.k];
    values[-1];
    strings[-1];
    if (row.null) continue;
    for (int64_t k : {static_cast<int64_t>(row.k), int64_t{-1}}) {
      values[k].insert(row.v);
      strings[k].insert(row.s);
    }
  }
  std::map<int64_t, std::pair<size_t, size_t>> counts;
  for (const auto& [k, set] : values) counts[k] = {set.size(), strings[k].size()};
  return counts;
}

int64_t Int(const Result& result, size_t column, size_t row) {
  const Column& c = result.column(column);
  return c.type() == TypeId::kInt32 ? c.Values<int32_t>()[row] : c.Values<int64_t>()[row];
}

TEST(DistinctMerge, CountsMatchASetOnEveryThreadCount) {
  const std::vector<Row> rows = MakeRows();
  const auto table = MakeTable(rows);
  const auto all = Reference(rows, [](const Row&) { return true; });
  const auto third = Reference(rows, [](const Row& row) { return !row.null && row.v % 3 == 0; });
  const auto small = SmallReference(rows);
  ASSERT_EQ(7u, all.size());  // -1 and the groups 0..5
  ASSERT_GT(all.at(0).first, 30000u);  // large sets: the lookups are taken (kLookupMinPairs)
  for (int threads = 1; threads <= 6; ++threads) {
    SCOPED_TRACE(::testing::Message() << threads << " threads");
    DatabaseOptions options;
    options.threads = threads;
    options.min_parallel_rows = 0;
    Database db(options);
    std::string error;
    ASSERT_TRUE(db.Register("t", table, &error)) << error;

    const Result ungrouped = db.Query("SELECT COUNT(DISTINCT v), COUNT(DISTINCT s) FROM t");
    ASSERT_TRUE(ungrouped.ok()) << ungrouped.error();
    EXPECT_EQ(static_cast<int64_t>(all.at(-1).first), Int(ungrouped, 0, 0));
    EXPECT_EQ(static_cast<int64_t>(all.at(-1).second), Int(ungrouped, 1, 0));

    const Result grouped =
        db.Query("SELECT k, COUNT(DISTINCT v), COUNT(DISTINCT s), COUNT(*), COUNT(DISTINCT v % 10) "
                 "FROM t GROUP BY k ORDER BY k");
    ASSERT_TRUE(grouped.ok()) << grouped.error();
    ASSERT_EQ(6u, grouped.num_rows());
    for (size_t r = 0; r < grouped.num_rows(); ++r) {
      const int64_t k = Int(grouped, 0, r);
      ASSERT_EQ(static_cast<int64_t>(r), k);
      EXPECT_EQ(static_cast<int64_t>(all.at(k).first), Int(grouped, 1, r)) << "k=" << k;
      EXPECT_EQ(static_cast<int64_t>(all.at(k).second), Int(grouped, 2, r)) << "k=" << k;
      EXPECT_EQ(static_cast<int64_t>(small.at(k)), Int(grouped, 4, r)) << "k=" << k;
    }
    EXPECT_EQ(static_cast<int64_t>(kLateRows), Int(grouped, 3, kLateGroup));

    const Result filtered =
        db.Query("SELECT k, COUNT(DISTINCT v) FROM t WHERE v % 3 = 0 GROUP BY k ORDER BY k");
    ASSERT_TRUE(filtered.ok()) << filtered.error();
    ASSERT_EQ(6u, filtered.num_rows());
    for (size_t r = 0; r < filtered.num_rows(); ++r) {
      EXPECT_EQ(static_cast<int64_t>(third.at(static_cast<int64_t>(r)).first), Int(filtered, 1, r)) << "k=" << r;
    }
  }
}

}  // namespace
}  // namespace laneql
