// The TPC-H generator: schema and row counts, determinism across threads and seeds, every
// foreign key, the specification's value rules (dates, flags, prices, totals, text) and the
// string predicates the 22 queries depend on selecting rows.
#include "laneql/tpch_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "laneql/types.h"
#include "tpch_test_util.h"

namespace laneql {
namespace {

using namespace tpch_test;

TEST(TpchGeneratorTest, LikeHelperMatchesSqlSemantics) {
  EXPECT_TRUE(Like("a special b requests", "%special%requests%"));
  EXPECT_FALSE(Like("requests special", "%special%requests%"));
  EXPECT_TRUE(Like("forest green", "forest%"));
  EXPECT_FALSE(Like("green forest", "forest%"));
  EXPECT_TRUE(Like("LARGE PLATED BRASS", "%BRASS"));
  EXPECT_FALSE(Like("LARGE BRASS PLATED", "%BRASS"));
}

TEST(TpchGeneratorTest, SchemaFollowsCreateSql) {
  const std::map<std::string, std::vector<std::pair<std::string, TypeId>>> expected = {
      {"region", {{"r_regionkey", TypeId::kInt32}, {"r_name", TypeId::kString},
                  {"r_comment", TypeId::kString}}},
      {"partsupp", {{"ps_partkey", TypeId::kInt64}, {"ps_suppkey", TypeId::kInt64},
                    {"ps_availqty", TypeId::kInt64}, {"ps_supplycost", DecimalType(15, 2)},
                    {"ps_comment", TypeId::kString}}},
      {"orders", {{"o_orderkey", TypeId::kInt64}, {"o_custkey", TypeId::kInt64},
                  {"o_orderstatus", TypeId::kString}, {"o_totalprice", DecimalType(15, 2)},
                  {"o_orderdate", TypeId::kDate32}, {"o_orderpriority", TypeId::kString},
                  {"o_clerk", TypeId::kString}, {"o_shippriority", TypeId::kInt32},
                  {"o_comment", TypeId::kString}}},
  };
  for (const auto& [name, columns] : expected) {
    const Table& table = Get(Small(), name);
    ASSERT_EQ(table.num_columns(), columns.size()) << name;
    for (size_t c = 0; c < columns.size(); ++c) {
      EXPECT_EQ(table.column_name(c), columns[c].first);
      EXPECT_EQ(table.column(c).type(), columns[c].second) << columns[c].first;
    }
  }
  const std::vector<size_t> widths = {3, 4, 7, 8, 9, 5, 9, 16};
  ASSERT_EQ(Small().size(), TpchTableNames().size());
  for (size_t t = 0; t < Small().size(); ++t) {
    EXPECT_EQ(Small()[t].first, TpchTableNames()[t]);
    EXPECT_EQ(Small()[t].second.num_columns(), widths[t]) << Small()[t].first;
  }
}

TEST(TpchGeneratorTest, RowCountsAtSf001) {
  const std::map<std::string, size_t> rows = {
      {"region", 5},   {"nation", 25},      {"supplier", 100}, {"customer", 1500},
      {"part", 2000},  {"partsupp", 8000}, {"orders", 15000}};
  TpchOptions options;
  for (const auto& [name, count] : rows) {
    EXPECT_EQ(Get(Small(), name).num_rows(), count) << name;
    EXPECT_EQ(TpchTableRows(options, name), count) << name;
  }
  // 1 to 7 lines per order, 4 on average: about 60,000 (the spread is about +-250).
  const size_t lines = Get(Small(), "lineitem").num_rows();
  EXPECT_NEAR(static_cast<double>(lines), 60000.0, 1500.0);
  EXPECT_EQ(TpchTableRows(options, "lineitem"), lines);
  EXPECT_EQ(TpchTableRows(options, "nosuch"), 0u);
}

TEST(TpchGeneratorTest, TinyScaleFactorsRoundToAtLeastOneRow) {
  TpchOptions options;
  options.scale_factor = 0.00001;
  Tables tables;
  std::string error;
  ASSERT_TRUE(GenerateTpch(options, &tables, &error)) << error;
  EXPECT_EQ(Get(tables, "supplier").num_rows(), 1u);
  EXPECT_EQ(Get(tables, "customer").num_rows(), 2u);  // 1.5 rounds to 2
  EXPECT_EQ(Get(tables, "orders").num_rows(), 15u);
  EXPECT_EQ(Get(tables, "partsupp").num_rows(), 8u);
  const Column& custkey = Col(Get(tables, "orders"), "o_custkey");
  for (size_t r = 0; r < custkey.length(); ++r) {
    EXPECT_TRUE(Int(custkey, r) == 1 || Int(custkey, r) == 2);
  }
}

// Whole-buffer equality of every column: identical bytes, not just equal values.
bool SameBytes(const Table& a, const Table& b) {
  if (a.num_columns() != b.num_columns() || a.num_rows() != b.num_rows()) return false;
  const auto same = [](const AlignedBuffer& x, const AlignedBuffer& y) {
    return x.size() == y.size() &&
           (x.size() == 0 || std::equal(x.data(), x.data() + x.size(), y.data()));
  };
  for (size_t c = 0; c < a.num_columns(); ++c) {
    if (a.column(c).type() != b.column(c).type() ||
        !same(a.column(c).values_buffer(), b.column(c).values_buffer()) ||
        !same(a.column(c).offsets_buffer(), b.column(c).offsets_buffer())) {
      return false;
    }
  }
  return true;
}

TEST(TpchGeneratorTest, BytesDoNotDependOnThreadsAndFollowTheSeed) {
  // SF 0.1: enough orders and parts that 3 threads each get a range.
  const Tables one = Generate(0.1, 7, 1);
  const Tables three = Generate(0.1, 7, 3);
  ASSERT_EQ(one.size(), three.size());
  for (size_t t = 0; t < one.size(); ++t) {
    EXPECT_TRUE(SameBytes(one[t].second, three[t].second)) << one[t].first;
  }
  // A single table is the same as in the whole set.
  TpchOptions options;
  options.scale_factor = 0.1;
  options.seed = 7;
  options.threads = 2;
  Table lineitem;
  std::string error;
  ASSERT_TRUE(GenerateTpchTable(options, "lineitem", &lineitem, &error)) << error;
  EXPECT_TRUE(SameBytes(lineitem, Get(one, "lineitem")));
  // Another seed changes the data (keys aside).
  options.seed = 8;
  Table other;
  ASSERT_TRUE(GenerateTpchTable(options, "lineitem", &other, &error)) << error;
  EXPECT_FALSE(SameBytes(other, lineitem));
}

TEST(TpchGeneratorTest, ProgressCountsEveryRow) {
  TpchOptions options;
  options.threads = 2;
  size_t last = 0;
  std::mutex mutex;
  options.progress = [&](size_t done) {
    std::lock_guard<std::mutex> lock(mutex);
    last = std::max(last, done);
  };
  Table orders;
  std::string error;
  ASSERT_TRUE(GenerateTpchTable(options, "orders", &orders, &error)) << error;
  EXPECT_EQ(last, orders.num_rows());
}

TEST(TpchGeneratorTest, RefusesBadScalesAndNames) {
  std::string error;
  for (double bad : {0.0, -1.0, 1e300, std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_FALSE(CheckTpchScale(bad, false, &error)) << bad;
    EXPECT_NE(error.find("scale factor"), std::string::npos) << error;
  }
  EXPECT_FALSE(CheckTpchScale(1000, false, &error));  // string offsets or memory
  EXPECT_FALSE(error.empty());
  EXPECT_TRUE(CheckTpchScale(0.01, true, &error)) << error;
  TpchOptions options;
  Table table;
  EXPECT_FALSE(GenerateTpchTable(options, "hits", &table, &error));
  EXPECT_NE(error.find("'hits'"), std::string::npos) << error;
  options.scale_factor = -2;
  Tables tables;
  EXPECT_FALSE(GenerateTpch(options, &tables, &error));
  EXPECT_TRUE(tables.empty());
}

// The set of values of an integer column.
std::unordered_set<int64_t> KeySet(const Table& table, std::string_view column) {
  std::unordered_set<int64_t> keys;
  const Column& c = Col(table, column);
  for (size_t r = 0; r < c.length(); ++r) keys.insert(Int(c, r));
  return keys;
}

void ExpectResolves(const Table& from, std::string_view column, const Table& to,
                    std::string_view key) {
  const std::unordered_set<int64_t> keys = KeySet(to, key);
  EXPECT_EQ(keys.size(), to.num_rows()) << key << " is unique";
  const Column& c = Col(from, column);
  for (size_t r = 0; r < c.length(); ++r) {
    ASSERT_TRUE(keys.count(Int(c, r))) << column << " row " << r << " = " << Int(c, r);
  }
}

TEST(TpchGeneratorTest, EveryForeignKeyResolves) {
  const Tables& t = Small();
  ExpectResolves(Get(t, "nation"), "n_regionkey", Get(t, "region"), "r_regionkey");
  ExpectResolves(Get(t, "supplier"), "s_nationkey", Get(t, "nation"), "n_nationkey");
  ExpectResolves(Get(t, "customer"), "c_nationkey", Get(t, "nation"), "n_nationkey");
  ExpectResolves(Get(t, "partsupp"), "ps_partkey", Get(t, "part"), "p_partkey");
  ExpectResolves(Get(t, "partsupp"), "ps_suppkey", Get(t, "supplier"), "s_suppkey");
  ExpectResolves(Get(t, "orders"), "o_custkey", Get(t, "customer"), "c_custkey");
  ExpectResolves(Get(t, "lineitem"), "l_orderkey", Get(t, "orders"), "o_orderkey");

  // (partkey, suppkey) is partsupp's key, 4 distinct suppliers per part, and every line's
  // pair is one of them.
  const Table& partsupp = Get(t, "partsupp");
  std::set<std::pair<int64_t, int64_t>> pairs;
  for (size_t r = 0; r < partsupp.num_rows(); ++r) {
    pairs.emplace(Int(Col(partsupp, "ps_partkey"), r), Int(Col(partsupp, "ps_suppkey"), r));
  }
  EXPECT_EQ(pairs.size(), partsupp.num_rows());
  const Table& lineitem = Get(t, "lineitem");
  for (size_t r = 0; r < lineitem.num_rows(); ++r) {
    const std::pair<int64_t, int64_t> pair(Int(Col(lineitem, "l_partkey"), r),
                                           Int(Col(lineitem, "l_suppkey"), r));
    ASSERT_TRUE(pairs.count(pair)) << "line " << r << ": " << pair.first << ", " << pair.second;
  }
}

TEST(TpchGeneratorTest, OrdersSkipEveryThirdCustomerAndUseSparseKeys) {
  const Table& orders = Get(Small(), "orders");
  const Column& custkey = Col(orders, "o_custkey");
  const Column& orderkey = Col(orders, "o_orderkey");
  std::unordered_set<int64_t> buyers;
  for (size_t r = 0; r < orders.num_rows(); ++r) {
    ASSERT_NE(Int(custkey, r) % 3, 0) << "row " << r;
    buyers.insert(Int(custkey, r));
    ASSERT_LT((Int(orderkey, r) - 1) % 32, 8) << "row " << r;
    if (r > 0) {
      ASSERT_GT(Int(orderkey, r), Int(orderkey, r - 1));
    }
  }
  // 15,000 orders over the 1,000 customers that may order: nearly all of them do.
  EXPECT_GT(buyers.size(), 990u);
  EXPECT_LE(buyers.size(), 1000u);
  EXPECT_EQ(Int(orderkey, orders.num_rows() - 1), (15000 - 1) / 8 * 32 + (15000 - 1) % 8 + 1);
}

}  // namespace
}  // namespace laneql
