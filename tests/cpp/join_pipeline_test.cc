// The join-chain pipelines (exec/query_join_chain.cc) and the cut of an unnested aggregate's
// rows to the outer keys (exec/query_magic_set.cc) on tables of several probe morsels and on
// several threads: a filtered scan as the probe source, a key cast between INTEGER and BIGINT,
// key expressions evaluated per morsel, a residual condition over two inputs, NULL keys. The
// answers must equal a plain loop's, and the rows of a join without ORDER BY come in the same
// order on every thread count.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/int128.h"
#include "laneql/result_printers.h"

namespace laneql {
namespace {

constexpr size_t kFactRows = 150000;  // between four and five probe morsels of 32,768
constexpr int32_t kDim1Rows = 5000;
constexpr int64_t kDim2Rows = 3000;

int32_t FactA(size_t i) { return static_cast<int32_t>(i % 5003); }  // 3 values miss dim1
int64_t FactB(size_t i) { return static_cast<int64_t>((i * 7) % 3001); }
double FactX(size_t i) { return static_cast<double>(i % 97); }
bool Dim1Null(int32_t a) { return a % 11 == 0; }  // dim1's key is NULL there
int32_t Dim1G(int32_t a) { return a % 13; }
std::string Dim2H(int64_t b) { return "h" + std::to_string(b % 17); }

std::shared_ptr<const Table> Fact() {
  auto table = std::make_shared<Table>();
  Column id(TypeId::kInt64), a(TypeId::kInt32), b(TypeId::kInt64), x(TypeId::kFloat64);
  std::string error;
  for (size_t i = 0; i < kFactRows; ++i) {
    EXPECT_TRUE(id.Append(static_cast<int64_t>(i), &error) && a.Append(FactA(i), &error) &&
                b.Append(FactB(i), &error) && x.Append(FactX(i), &error))
        << error;
  }
  EXPECT_TRUE(table->AddColumn("id", std::move(id), &error) && table->AddColumn("a", std::move(a), &error) &&
              table->AddColumn("b", std::move(b), &error) && table->AddColumn("x", std::move(x), &error))
      << error;
  return table;
}

std::shared_ptr<const Table> Dim1() {
  auto table = std::make_shared<Table>();
  Column a(TypeId::kInt64), g(TypeId::kInt32);  // BIGINT key against fact's INTEGER one
  std::string error;
  for (int32_t r = 0; r < kDim1Rows; ++r) {
    EXPECT_TRUE((Dim1Null(r) ? a.AppendNull(&error) : a.Append(static_cast<int64_t>(r), &error)) &&
                g.Append(Dim1G(r), &error))
        << error;
  }
  EXPECT_TRUE(table->AddColumn("a", std::move(a), &error) && table->AddColumn("g", std::move(g), &error)) << error;
  return table;
}

std::shared_ptr<const Table> Dim2() {
  auto table = std::make_shared<Table>();
  Column b(TypeId::kInt64), h(TypeId::kString);
  std::string error;
  for (int64_t r = 0; r < kDim2Rows; ++r) {
    EXPECT_TRUE(b.Append(r, &error) && h.AppendString(Dim2H(r), &error)) << error;
  }
  EXPECT_TRUE(table->AddColumn("b", std::move(b), &error) && table->AddColumn("h", std::move(h), &error)) << error;
  return table;
}

// A database of `threads` threads that takes its parallel paths on these tables too.
std::unique_ptr<Database> Open(int threads) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;
  auto db = std::make_unique<Database>(options);
  std::string error;
  EXPECT_TRUE(db->Register("fact", Fact(), &error) && db->Register("dim1", Dim1(), &error) &&
              db->Register("dim2", Dim2(), &error))
      << error;
  return db;
}

struct Group {
  int64_t count = 0;
  double sum = 0;
  std::string min_h;
};

// The grouped query's answer by plain loops over the generators.
std::map<int32_t, Group> Expected(bool expression_keys) {
  std::map<int32_t, Group> groups;
  for (size_t i = 0; i < kFactRows; ++i) {
    if (i % 3 == 0) continue;  // WHERE fact.id % 3 <> 0
    const int32_t a = FactA(i);
    if (a >= kDim1Rows || Dim1Null(a)) continue;
    const int64_t b = FactB(i);
    if (b >= kDim2Rows) continue;
    const int32_t g = Dim1G(a);
    if (!(FactX(i) < g * 10)) continue;  // the residual over fact and dim1
    (void)expression_keys;  // a + 1 = a + 1 matches exactly the rows a = a does
    Group& group = groups[g];
    ++group.count;
    group.sum += FactX(i);
    const std::string h = Dim2H(b);
    if (group.min_h.empty() || h < group.min_h) group.min_h = h;
  }
  return groups;
}

void ExpectGroups(const Result& r, const std::map<int32_t, Group>& want) {
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r.num_rows(), want.size());
  size_t row = 0;
  for (const auto& [g, group] : want) {
    SCOPED_TRACE(testing::Message() << "g " << g);
    EXPECT_EQ(r.column(0).Values<int32_t>()[row], g);
    EXPECT_EQ(r.column(1).Values<int64_t>()[row], group.count);
    EXPECT_EQ(r.column(2).Values<double>()[row], group.sum);  // whole numbers: exact in any order
    EXPECT_EQ(r.column(3).StringAt(row), group.min_h);
    ++row;
  }
}

TEST(JoinPipelineTest, ChainAnswersAsAPlainLoopOnEveryThreadCount) {
  const std::string grouped =
      "SELECT dim1.g, count(*), sum(fact.x), min(dim2.h) FROM fact JOIN dim1 ON fact.a = dim1.a "
      "JOIN dim2 ON fact.b = dim2.b AND fact.x < dim1.g * 10 WHERE fact.id % 3 <> 0 GROUP BY dim1.g ORDER BY 1";
  const std::string expressions =
      "SELECT dim1.g, count(*), sum(fact.x), min(dim2.h) FROM fact JOIN dim1 ON fact.a + 1 = dim1.a + 1 "
      "JOIN dim2 ON fact.b * 2 = dim2.b * 2 AND fact.x < dim1.g * 10 WHERE fact.id % 3 <> 0 GROUP BY dim1.g "
      "ORDER BY 1";
  const std::string rows =
      "SELECT fact.id, dim1.g, dim2.h FROM fact JOIN dim1 ON fact.a = dim1.a JOIN dim2 ON fact.b = dim2.b "
      "WHERE fact.x > 90";
  // An unfiltered source whose keys need no cast: probed in place, morsel by morsel.
  const std::string whole =
      "SELECT fact.id, dim2.h FROM fact JOIN dim2 ON fact.b = dim2.b";
  int64_t whole_rows = 0;
  for (size_t i = 0; i < kFactRows; ++i) whole_rows += FactB(i) < kDim2Rows ? 1 : 0;
  std::string first_rows, first_whole;
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    std::unique_ptr<Database> db = Open(threads);
    ExpectGroups(db->Query(grouped), Expected(false));
    ExpectGroups(db->Query(expressions), Expected(true));
    // The EXPLAIN shows the chain: two inner hash joins.
    Result plan = db->Query("EXPLAIN " + grouped);
    ASSERT_TRUE(plan.ok()) << plan.error();
    EXPECT_NE(PrintCsv(plan).find("INNER JOIN"), std::string::npos) << PrintCsv(plan);
    // Rows in morsel order, whatever the threads.
    Result r = db->Query(rows);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_GT(r.num_rows(), size_t{1000});
    const std::string text = PrintCsv(r);
    Result w = db->Query(whole);
    ASSERT_TRUE(w.ok()) << w.error();
    EXPECT_EQ(static_cast<int64_t>(w.num_rows()), whole_rows);
    const std::string whole_text = PrintCsv(w);
    if (threads == 1) {
      first_rows = text;
      first_whole = whole_text;
    } else {
      EXPECT_EQ(text, first_rows);
      EXPECT_EQ(whole_text, first_whole);
    }
  }
}

TEST(JoinPipelineTest, ScalarAggregateGroupsOnlyTheOuterKeys) {
  // A few outer rows against 150,000 inner ones: the inner rows are cut to the outer keys before
  // the grouping (query_magic_set.cc); the answer is the loop's either way.
  std::map<int32_t, std::pair<double, int64_t>> per_key;  // a -> (sum x, rows)
  for (size_t i = 0; i < kFactRows; ++i) {
    auto& [sum, rows] = per_key[FactA(i)];
    sum += FactX(i);
    ++rows;
  }
  int64_t want_count = 0;
  double want_sum = 0;
  for (size_t i = 0; i < kFactRows; ++i) {
    const auto& [sum, rows] = per_key[FactA(i)];
    if (FactA(i) < 10 && FactX(i) > sum / static_cast<double>(rows)) {
      ++want_count;
      want_sum += FactX(i);
    }
  }
  const std::string query =
      "SELECT count(*), sum(x) FROM fact WHERE a < 10 AND x > (SELECT avg(f2.x) FROM fact f2 WHERE f2.a = fact.a)";
  for (int threads : {1, 4}) {
    std::unique_ptr<Database> db = Open(threads);
    Result r = db->Query(query);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.column(0).Values<int64_t>()[0], want_count);
    EXPECT_EQ(r.column(1).Values<double>()[0], want_sum);
    Result plan = db->Query("EXPLAIN " + query);
    ASSERT_TRUE(plan.ok()) << plan.error();
    EXPECT_NE(PrintCsv(plan).find("outer rows whose keys cut a subquery's rows"), std::string::npos)
        << PrintCsv(plan);
  }
}

// A query answering one row of BIGINT columns, and those columns' values.
struct CountCase {
  std::string sql;
  std::vector<int64_t> want;
};

// Runs each query on 1 and 4 threads and checks its row.
void ExpectCounts(const std::vector<CountCase>& cases) {
  for (int threads : {1, 4}) {
    std::unique_ptr<Database> db = Open(threads);
    for (const CountCase& c : cases) {
      SCOPED_TRACE(testing::Message() << threads << " threads: " << c.sql);
      Result r = db->Query(c.sql);
      ASSERT_TRUE(r.ok()) << r.error();
      ASSERT_EQ(r.num_columns(), c.want.size());
      for (size_t k = 0; k < c.want.size(); ++k) {
        ASSERT_EQ(r.column(k).type(), TypeId::kInt64) << k;
        EXPECT_EQ(r.column(k).Values<int64_t>()[0], c.want[k]) << k;
      }
    }
  }
}

TEST(JoinPipelineTest, SemiAntiAndMarkJoinsMarkRowsOnEveryThreadCount) {
  // Semi, anti and mark joins without a residual list no pairs: the probe side's morsels mark
  // the left rows (left probes: fact against dim2) or the build rows (left builds: dim2 against
  // fact's 150,000 rows, marked from several threads at once).
  int64_t fact_matched = 0;
  std::vector<bool> dim2_matched(kDim2Rows, false);
  for (size_t i = 0; i < kFactRows; ++i) {
    if (FactB(i) < kDim2Rows) {
      ++fact_matched;
      dim2_matched[static_cast<size_t>(FactB(i))] = true;
    }
  }
  const int64_t dim2_hit = std::count(dim2_matched.begin(), dim2_matched.end(), true);
  ExpectCounts({
      {"SELECT count(*) FROM fact WHERE EXISTS (SELECT 1 FROM dim2 WHERE dim2.b = fact.b)", {fact_matched}},
      {"SELECT count(*) FROM fact WHERE NOT EXISTS (SELECT 1 FROM dim2 WHERE dim2.b = fact.b)",
       {static_cast<int64_t>(kFactRows) - fact_matched}},
      {"SELECT count(*) FROM dim2 WHERE EXISTS (SELECT 1 FROM fact WHERE fact.b = dim2.b)", {dim2_hit}},
      {"SELECT count(*) FROM dim2 WHERE NOT EXISTS (SELECT 1 FROM fact WHERE fact.b = dim2.b)", {kDim2Rows - dim2_hit}},
      {"SELECT count(*) FROM dim2 WHERE dim2.b IN (SELECT fact.b FROM fact)", {dim2_hit}},
      {"SELECT count(*) FROM dim2 WHERE EXISTS (SELECT 1 FROM fact WHERE fact.b = dim2.b) OR dim2.b < 0",
       {dim2_hit}},  // under OR: a mark join
  });
}

TEST(JoinPipelineTest, SemiAndAntiJoinsOverFilteredScansWithResidualsOnEveryThreadCount) {
  // Both sides filtered scans (their kept rows never copied), INTEGER keys against BIGINT ones
  // with NULLs, a residual over both sides; fact (100,000 kept rows) probes dim1's table, and
  // dim1 (about 3,800 kept rows) builds against fact's morsels, marked from several threads.
  int64_t fact_count = 0, fact_ids = 0, fact_kept = 0, fact_kept_ids = 0;
  std::vector<bool> dim1_matched(kDim1Rows, false);
  for (size_t i = 0; i < kFactRows; ++i) {
    if (i % 3 == 0) continue;
    ++fact_kept;
    fact_kept_ids += static_cast<int64_t>(i);
    const int32_t a = FactA(i);
    if (a < kDim1Rows && !Dim1Null(a) && Dim1G(a) > 2 && FactX(i) < Dim1G(a) * 10) {
      ++fact_count;
      fact_ids += static_cast<int64_t>(i);
      dim1_matched[static_cast<size_t>(a)] = true;
    }
  }
  int64_t dim1_kept = 0, dim1_hit = 0;
  for (int32_t r = 0; r < kDim1Rows; ++r) {
    if (Dim1G(r) <= 2) continue;
    ++dim1_kept;
    dim1_hit += dim1_matched[static_cast<size_t>(r)];
  }
  const std::string fact_exists =
      "EXISTS (SELECT 1 FROM dim1 WHERE dim1.a = fact.a AND dim1.g > 2 AND fact.x < dim1.g * 10)";
  const std::string dim1_exists =
      "EXISTS (SELECT 1 FROM fact WHERE fact.a = dim1.a AND fact.id % 3 <> 0 AND fact.x < dim1.g * 10)";
  ExpectCounts({
      {"SELECT count(*), CAST(sum(id) AS BIGINT) FROM fact WHERE id % 3 <> 0 AND " + fact_exists,
       {fact_count, fact_ids}},
      {"SELECT count(*), CAST(sum(id) AS BIGINT) FROM fact WHERE id % 3 <> 0 AND NOT " + fact_exists,
       {fact_kept - fact_count, fact_kept_ids - fact_ids}},
      {"SELECT count(*), count(a) FROM dim1 WHERE g > 2 AND " + dim1_exists, {dim1_hit, dim1_hit}},
      // NULL keys never match: those rows are NOT EXISTS's.
      {"SELECT count(*), count(*) FROM dim1 WHERE g > 2 AND NOT " + dim1_exists,
       {dim1_kept - dim1_hit, dim1_kept - dim1_hit}},
  });
}

TEST(JoinPipelineTest, LeftJoinsKeepProbeRowsWithoutAPairOnEveryThreadCount) {
  // fact LEFT JOIN dim1 (NULL keys, 3 values missing, a residual over both sides) then INNER
  // JOIN dim2 on fact's column, and a later LEFT join probing with the NULL-extended dim1
  // column: its key is NULL there, so it finds no pair and keeps the row.
  int64_t unmatched = 0, matched_g = 0, chained_hits = 0;
  for (size_t i = 0; i < kFactRows; ++i) {
    const int32_t a = FactA(i);
    const bool pair = a < kDim1Rows && !Dim1Null(a) && FactX(i) < Dim1G(a) * 10;
    if (!pair) {
      ++unmatched;
    } else {
      matched_g += Dim1G(a);
      if (Dim1G(a) < kDim2Rows) ++chained_hits;  // dim2.b = dim1.g: every g (0..12) is a b
    }
  }
  const std::string left = "SELECT count(*), count(dim1.a), sum(dim1.g) FROM fact LEFT JOIN dim1 "
                           "ON fact.a = dim1.a AND fact.x < dim1.g * 10 JOIN dim2 ON fact.b = dim2.b";
  const std::string chained = "SELECT count(*), count(dim2.b) FROM fact LEFT JOIN dim1 ON fact.a = dim1.a "
                              "AND fact.x < dim1.g * 10 LEFT JOIN dim2 ON dim1.g = dim2.b";
  int64_t with_b = 0;  // fact rows whose b is a dim2 key (the inner join of `left`)
  int64_t unmatched_with_b = 0, g_with_b = 0;
  for (size_t i = 0; i < kFactRows; ++i) {
    if (FactB(i) >= kDim2Rows) continue;
    ++with_b;
    const int32_t a = FactA(i);
    if (a < kDim1Rows && !Dim1Null(a) && FactX(i) < Dim1G(a) * 10) {
      g_with_b += Dim1G(a);
    } else {
      ++unmatched_with_b;
    }
  }
  for (int threads : {1, 4}) {
    std::unique_ptr<Database> db = Open(threads);
    SCOPED_TRACE(testing::Message() << threads << " threads");
    Result r = db->Query(left);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.column(0).Values<int64_t>()[0], with_b);
    EXPECT_EQ(r.column(1).Values<int64_t>()[0], with_b - unmatched_with_b);
    EXPECT_EQ(static_cast<int64_t>(r.column(2).Values<Int128>()[0]), g_with_b);
    Result c = db->Query(chained);
    ASSERT_TRUE(c.ok()) << c.error();
    EXPECT_EQ(c.column(0).Values<int64_t>()[0], static_cast<int64_t>(kFactRows));
    EXPECT_EQ(c.column(1).Values<int64_t>()[0], chained_hits);
    Result plan = db->Query("EXPLAIN ANALYZE " + chained);
    ASSERT_TRUE(plan.ok()) << plan.error();
    EXPECT_NE(PrintCsv(plan).find("LEFT JOIN"), std::string::npos);
  }
  EXPECT_GT(unmatched, 0);
  EXPECT_GT(matched_g, 0);
}

TEST(JoinPipelineTest, ErrorsInsideAMorselReachTheQuery) {
  std::unique_ptr<Database> db = Open(4);
  // A residual failing on some morsel's rows: the engine's error, not a crash or a partial answer.
  Result r = db->Query(
      "SELECT count(*) FROM fact JOIN dim1 ON fact.a = dim1.a JOIN dim2 ON fact.b = dim2.b "
      "AND CAST(dim2.h || CAST(fact.id AS VARCHAR) AS INTEGER) > 0");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("could not convert string 'h"), std::string::npos) << r.error();
  // The same in a semi join's residual.
  r = db->Query(
      "SELECT count(*) FROM fact WHERE EXISTS (SELECT 1 FROM dim2 WHERE dim2.b = fact.b "
      "AND CAST(dim2.h || CAST(fact.id AS VARCHAR) AS INTEGER) > 0)");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("could not convert string 'h"), std::string::npos) << r.error();
  // The database stays usable.
  Result again = db->Query("SELECT count(*) FROM fact JOIN dim1 ON fact.a = dim1.a");
  ASSERT_TRUE(again.ok()) << again.error();
}

}  // namespace
}  // namespace laneql
