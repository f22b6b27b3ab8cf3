// The hash aggregate as the sink of a join chain's probe pipeline (exec/join_aggregate_sink.h):
// each part is folded in by the thread that joined it, and the chain's output is never made
// whole. Answers are checked against plain loops over the same generated rows, on 1 to 4
// threads; groups without ORDER BY must come in the order their first rows have in the join's
// output (the probe side's row order), on every thread count; ungrouped float sums give the
// same bits on every thread count, grouped ones too; and what the sink cannot take (an
// aggregate with ORDER BY keys) still runs over the joined rows made whole.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "database_test_util.h"

namespace laneql {
namespace {

constexpr size_t kFactRows = 200000;  // about six probe morsels of 32,768 rows
constexpr size_t kDimRows = 6000;

// fact: id = i, k = i % 5003 (NULL every 17th row), amount = i % 1000. dim: k = i (so keys
// 5003..5999 meet no fact: a FULL join's tail), grp = i % 37 (no NULLs in the table, NULL for
// a LEFT join's fact rows without a pair), name: short ("n" and a number, packable) for every
// third key, else longer than 7 bytes.
std::optional<int64_t> FactKey(size_t i) {
  if (i % 17 == 5) return std::nullopt;
  return static_cast<int64_t>(i % 5003);
}
int64_t Amount(size_t i) { return static_cast<int64_t>(i % 1000); }
int64_t Group(int64_t k) { return k % 37; }
std::string Name(int64_t k) {
  return k % 3 == 0 ? "n" + std::to_string(k % 50) : "dimension-name-" + std::to_string(k % 50);
}

std::unique_ptr<Database> Open() {
  DatabaseOptions options;
  options.threads = 4;
  options.min_parallel_rows = 0;
  options.profile = true;
  auto db = std::make_unique<Database>(options);
  std::string error;
  auto fact = std::make_shared<Table>();
  {
    Column id(TypeId::kInt64), k(TypeId::kInt64), amount(TypeId::kInt64);
    for (size_t i = 0; i < kFactRows; ++i) {
      EXPECT_TRUE(id.Append(static_cast<int64_t>(i), &error)) << error;
      EXPECT_TRUE(FactKey(i) ? k.Append(*FactKey(i), &error) : k.AppendNull(&error)) << error;
      EXPECT_TRUE(amount.Append(Amount(i), &error)) << error;
    }
    EXPECT_TRUE(fact->AddColumn("id", std::move(id), &error) && fact->AddColumn("k", std::move(k), &error) &&
                fact->AddColumn("amount", std::move(amount), &error))
        << error;
  }
  auto dim = std::make_shared<Table>();
  {
    Column k(TypeId::kInt64), grp(TypeId::kInt64), name(TypeId::kString);
    for (size_t i = 0; i < kDimRows; ++i) {
      const int64_t key = static_cast<int64_t>(i);
      EXPECT_TRUE(k.Append(key, &error) && grp.Append(Group(key), &error) && name.AppendString(Name(key), &error))
          << error;
    }
    EXPECT_TRUE(dim->AddColumn("k", std::move(k), &error) && dim->AddColumn("grp", std::move(grp), &error) &&
                dim->AddColumn("name", std::move(name), &error))
        << error;
  }
  EXPECT_TRUE(db->Register("fact", fact, &error) && db->Register("dim", dim, &error)) << error;
  return db;
}

// Every row of a query as text, in the order it came.
std::string Rows(const Database& db, const std::string& sql, int threads) {
  return QueryRowsText(db, sql, threads);
}

std::string Row(const std::vector<std::string>& values) {
  std::string text;
  for (const std::string& v : values) text += v + "\t";
  return text + "\n";
}

// A fact row's pair in dim (inner and LEFT joins on k): its key, when dim has it.
std::optional<int64_t> Pair(size_t i) {
  const std::optional<int64_t> k = FactKey(i);
  if (!k || *k >= static_cast<int64_t>(kDimRows)) return std::nullopt;
  return k;
}

TEST(JoinAggregateSinkTest, GroupsOfALeftJoinMatchLoopsWithTheNullGroupItMakes) {
  std::unique_ptr<Database> db = Open();
  // grp has no NULL in dim, but the fact rows without a pair make a NULL group: the sink's plan
  // must allow for it though it is bound before any row is joined.
  struct Acc {
    int64_t rows = 0, sum = 0, max = -1;
    std::string min_name;
    std::map<int64_t, int> distinct;
  };
  std::map<int64_t, Acc> groups;  // -1: the NULL group, first in ORDER BY ... NULLS FIRST
  for (size_t i = 0; i < kFactRows; ++i) {
    const std::optional<int64_t> k = Pair(i);
    Acc& acc = groups[k ? Group(*k) : -1];
    acc.rows += 1;
    acc.sum += Amount(i);
    acc.max = std::max(acc.max, Amount(i));
    acc.distinct[Amount(i) % 100] = 1;
    if (k && (acc.min_name.empty() || Name(*k) < acc.min_name)) acc.min_name = Name(*k);
  }
  ASSERT_GT(groups[-1].rows, 0);
  std::string expected;
  for (const auto& [g, acc] : groups) {
    expected += Row({g < 0 ? "NULL" : std::to_string(g), std::to_string(acc.rows), std::to_string(acc.sum),
                     acc.min_name.empty() ? "NULL" : acc.min_name, std::to_string(acc.max),
                     std::to_string(acc.distinct.size())});
  }
  const std::string sql =
      "SELECT d.grp, count(*), sum(f.amount), min(d.name), max(f.amount), count(DISTINCT f.amount % 100) "
      "FROM fact f LEFT JOIN dim d ON f.k = d.k GROUP BY d.grp ORDER BY d.grp NULLS FIRST";
  for (int threads = 1; threads <= 4; ++threads) EXPECT_EQ(Rows(*db, sql, threads), expected) << threads;
  // The aggregation took the joined rows part by part: no output gathered, no separate clauses.
  const std::string profile = db->LastProfileJson();
  EXPECT_EQ(profile.find("hash join gather"), std::string::npos);
  EXPECT_EQ(profile.find("SELECT clauses"), std::string::npos);
  EXPECT_NE(profile.find("hash join probe"), std::string::npos);
  EXPECT_NE(profile.find("\"aggregate sink\""), std::string::npos);
}

TEST(JoinAggregateSinkTest, GroupsComeInTheOrderOfTheirFirstJoinedRowOnEveryThreadCount) {
  std::unique_ptr<Database> db = Open();
  // The inner join keeps the fact rows' order: the names in the order they first appear.
  std::map<std::string, int64_t> counts;
  std::vector<std::string> order;
  for (size_t i = 0; i < kFactRows; ++i) {
    const std::optional<int64_t> k = Pair(i);
    if (!k) continue;
    if (counts[Name(*k)]++ == 0) order.push_back(Name(*k));
  }
  std::string expected, first_five;
  for (size_t g = 0; g < order.size(); ++g) {
    const std::string row = Row({order[g], std::to_string(counts[order[g]])});
    expected += row;
    if (g < 5) first_five += row;
  }
  const std::string sql = "SELECT d.name, count(*) FROM fact f JOIN dim d ON f.k = d.k GROUP BY d.name";
  for (int threads = 1; threads <= 4; ++threads) {
    EXPECT_EQ(Rows(*db, sql, threads), expected) << threads;
    // GROUP BY ... LIMIT without ORDER BY: the first groups in that order.
    EXPECT_EQ(Rows(*db, sql + " LIMIT 5", threads), first_five) << threads;
  }
  // HAVING and ORDER BY over the groups, ties by the first row.
  std::string having;
  std::vector<std::pair<int64_t, size_t>> by_count;
  for (size_t g = 0; g < order.size(); ++g) by_count.emplace_back(-counts[order[g]], g);
  std::stable_sort(by_count.begin(), by_count.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ASSERT_GT(by_count.size(), 20u);
  const int64_t above = -by_count[10].first;  // about ten groups have more rows
  for (const auto& [negated, g] : by_count) {
    if (-negated > above) having += Row({order[g], std::to_string(-negated)});
  }
  ASSERT_FALSE(having.empty());
  const std::string ordered = "SELECT d.name, count(*) FROM fact f JOIN dim d ON f.k = d.k GROUP BY d.name "
                              "HAVING count(*) > " + std::to_string(above) + " ORDER BY count(*) DESC";
  for (int threads = 1; threads <= 4; ++threads) EXPECT_EQ(Rows(*db, ordered, threads), having) << threads;
}

TEST(JoinAggregateSinkTest, AFullJoinsTailAndAnEmptyJoinAreAggregatedToo) {
  std::unique_ptr<Database> db = Open();
  // dim keys 5003..5999 meet no fact: they follow as the FULL join's tail, fact missing.
  int64_t paired = 0, fact_alone = 0;
  for (size_t i = 0; i < kFactRows; ++i) (Pair(i) ? paired : fact_alone) += 1;
  const int64_t dim_alone = static_cast<int64_t>(kDimRows) - 5003;
  const std::string expected =
      Row({"false", "false", std::to_string(paired)}) + Row({"false", "true", std::to_string(fact_alone)}) +
      Row({"true", "false", std::to_string(dim_alone)});
  const std::string sql =
      "SELECT f.id IS NULL, d.k IS NULL, count(*) FROM fact f FULL JOIN dim d ON f.k = d.k GROUP BY ALL ORDER BY ALL";
  for (int threads = 1; threads <= 4; ++threads) EXPECT_EQ(Rows(*db, sql, threads), expected) << threads;
  // No pair at all: the ungrouped aggregate over no rows, and no groups.
  const std::string none = "FROM fact f JOIN dim d ON f.k = d.k + 100000";
  for (int threads : {1, 4}) {
    EXPECT_EQ(Rows(*db, "SELECT count(*), sum(f.amount), min(d.name) " + none, threads), Row({"0", "NULL", "NULL"}));
    EXPECT_EQ(Rows(*db, "SELECT d.grp, count(*) " + none + " GROUP BY d.grp", threads), "");
  }
}

TEST(JoinAggregateSinkTest, WhereErrorsAnalyzeAndFloatSumsOverTheJoin) {
  std::unique_ptr<Database> db = Open();
  // The clauses' WHERE runs in each part's scan: its error reaches the query with its place.
  const Result bad = db->Query("SELECT count(*) FROM fact f JOIN dim d ON f.k = d.k\nWHERE CAST(d.name AS INTEGER) > 0");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("line 2"), std::string::npos) << bad.error();
  EXPECT_NE(bad.error().find("'n"), std::string::npos) << bad.error();
  int64_t paired = 0, paired_sum = 0;
  for (size_t i = 0; i < kFactRows; ++i) {
    if (!Pair(i)) continue;
    ++paired;
    paired_sum += Amount(i);
  }
  // EXPLAIN ANALYZE: the join's joined rows, though no relation of them was made.
  const Result analyzed = db->Query("EXPLAIN ANALYZE SELECT d.grp, count(*) FROM fact f JOIN dim d ON f.k = d.k GROUP BY d.grp");
  ASSERT_TRUE(analyzed.ok()) << analyzed.error();
  std::string text;
  for (size_t i = 0; i < analyzed.num_rows(); ++i) text += FormatValue(analyzed.column(1), i, ValueStyle::kText) + "\n";
  EXPECT_NE(text.find(std::to_string(paired) + " rows"), std::string::npos) << text;
  // An ungrouped float sum is the sink's: each part's batches' partial sums, added in (part,
  // batch) order, so every thread count gives the same bits. The values' rounding depends on
  // the order of additions (a tenth is inexact).
  const std::string floats =
      "SELECT count(*), sum(f.amount * 0.5::DOUBLE), avg(f.amount * 0.1::DOUBLE) FROM fact f JOIN dim d ON f.k = d.k";
  const std::string one = Rows(*db, floats, 1);
  EXPECT_NE(db->LastProfileJson().find("\"aggregate sink\""), std::string::npos);
  {
    QueryOptions options;
    options.threads = 1;
    const Result r = db->Query(floats, options);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.column(0).Values<int64_t>()[0], paired);
    EXPECT_EQ(r.column(1).Values<double>()[0], static_cast<double>(paired_sum) / 2);  // exact halves
    EXPECT_NEAR(r.column(2).Values<double>()[0], static_cast<double>(paired_sum) / 10 / static_cast<double>(paired),
                1e-9);
  }
  for (int threads = 2; threads <= 4; ++threads) EXPECT_EQ(Rows(*db, floats, threads), one) << threads;
  // Grouped float sums and moments too: each group's partial sums per fold unit of each part,
  // added in (part, unit) order (GroupBatchPartials), the same bits on every thread count.
  std::map<int64_t, double> loop_sums;
  for (size_t i = 0; i < kFactRows; ++i) {
    if (const std::optional<int64_t> k = Pair(i)) loop_sums[Group(*k)] += static_cast<double>(Amount(i)) * 0.1;
  }
  const std::string grouped = "SELECT d.grp, sum(f.amount * 0.1::DOUBLE), stddev_samp(f.amount * 0.1::DOUBLE) "
                              "FROM fact f JOIN dim d ON f.k = d.k GROUP BY d.grp ORDER BY d.grp";
  const std::string grouped_one = Rows(*db, grouped, 1);
  EXPECT_NE(db->LastProfileJson().find("\"aggregate sink\""), std::string::npos);
  for (int threads = 2; threads <= 4; ++threads) EXPECT_EQ(Rows(*db, grouped, threads), grouped_one) << threads;
  {
    const Result r = db->Query(grouped);
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_EQ(r.num_rows(), loop_sums.size());
    for (size_t g = 0; g < r.num_rows(); ++g) {
      const int64_t key = r.column(0).Values<int64_t>()[g];
      EXPECT_NEAR(r.column(1).Values<double>()[g], loop_sums[key], 1e-6) << key;
    }
  }
  // An aggregate with ORDER BY keys (each group's rows in their order) is not the sink's: the
  // joined rows are made whole, then aggregated, with the same answer on every thread count.
  const std::string ordered = "SELECT d.grp, string_agg(CAST(f.id AS VARCHAR), ',' ORDER BY f.id DESC) "
                              "FROM fact f JOIN dim d ON f.k = d.k WHERE f.id < 3000 GROUP BY d.grp ORDER BY d.grp";
  const std::string ordered_one = Rows(*db, ordered, 1);
  EXPECT_NE(db->LastProfileJson().find("SELECT clauses"), std::string::npos);
  for (int threads = 2; threads <= 4; ++threads) EXPECT_EQ(Rows(*db, ordered, threads), ordered_one) << threads;
  // The database answers the next query.
  EXPECT_EQ(Rows(*db, "SELECT count(*), sum(f.amount) FROM fact f JOIN dim d ON f.k = d.k", 4),
            Row({std::to_string(paired), std::to_string(paired_sum)}));
}

}  // namespace
}  // namespace laneql
