// Outer joins whose preserved side is the small one build on it (optimize/
// outer_join_build_side.cc) and run as a RIGHT or FULL join in a join-chain pipeline
// (exec/query_join_chain.cc): the build rows that found a pair are marked by the morsels, the
// others follow them as a tail (through the joins above, when the join is below the top). Answers are checked against counts and sums made by plain loops over
// the same generated rows, on several probe morsels and threads, and the rows must come in the
// same order on every thread count.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "database_test_util.h"

namespace laneql {
namespace {

constexpr size_t kSmallRows = 3000;
constexpr size_t kBigRows = 150000;  // about five probe morsels of 32,768 rows

// small: key k = i * 7 % 5000 (NULL every 13th row), v = i. big: key k = i % 20000 (NULL every
// 11th row), w = i. So some small keys meet several big rows, some none, and most big rows none.
bool SmallNull(size_t i) { return i % 13 == 4; }
int64_t SmallKey(size_t i) { return static_cast<int64_t>(i * 7 % 5000); }
bool BigNull(size_t i) { return i % 11 == 3; }
int64_t BigKey(size_t i) { return static_cast<int64_t>(i % 20000); }

std::shared_ptr<const Table> MakeTable(size_t rows, bool (*null)(size_t), int64_t (*key)(size_t),
                                       const char* value_name) {
  auto table = std::make_shared<Table>();
  Column k(TypeId::kInt64), v(TypeId::kInt64);
  std::string error;
  for (size_t i = 0; i < rows; ++i) {
    EXPECT_TRUE(null(i) ? k.AppendNull(&error) : k.Append(key(i), &error)) << error;
    EXPECT_TRUE(v.Append(static_cast<int64_t>(i), &error)) << error;
  }
  EXPECT_TRUE(table->AddColumn("k", std::move(k), &error) && table->AddColumn(value_name, std::move(v), &error))
      << error;
  return table;
}

std::unique_ptr<Database> Open() {
  DatabaseOptions options;
  options.threads = 4;
  options.min_parallel_rows = 0;
  auto db = std::make_unique<Database>(options);
  std::string error;
  EXPECT_TRUE(db->Register("small", MakeTable(kSmallRows, SmallNull, SmallKey, "v"), &error) &&
              db->Register("big", MakeTable(kBigRows, BigNull, BigKey, "w"), &error))
      << error;
  return db;
}

// count(*), count(big.w), count(small.v), sum(big.w), sum(small.v) of a join of small and big
// on k where `pair(v, w)` (the residual) also holds, keeping the small rows without a pair
// (LEFT) and, for FULL, the big rows without one too.
struct Expected {
  int64_t rows = 0, big_count = 0, small_count = 0, big_sum = 0, small_sum = 0;
};

template <class Pair>
Expected Loops(bool full, Pair pair) {
  std::map<int64_t, std::vector<size_t>> big_by_key;
  for (size_t i = 0; i < kBigRows; ++i) {
    if (!BigNull(i)) big_by_key[BigKey(i)].push_back(i);
  }
  std::vector<bool> big_paired(kBigRows, false);
  Expected e;
  for (size_t s = 0; s < kSmallRows; ++s) {
    int64_t pairs = 0;
    if (!SmallNull(s)) {
      auto it = big_by_key.find(SmallKey(s));
      if (it != big_by_key.end()) {
        for (size_t b : it->second) {
          if (!pair(static_cast<int64_t>(s), static_cast<int64_t>(b))) continue;
          ++pairs;
          big_paired[b] = true;
          e.big_count += 1;
          e.big_sum += static_cast<int64_t>(b);
          e.small_count += 1;
          e.small_sum += static_cast<int64_t>(s);
        }
      }
    }
    if (pairs == 0) {
      e.small_count += 1;
      e.small_sum += static_cast<int64_t>(s);
      pairs = 1;
    }
    e.rows += pairs;
  }
  if (full) {
    for (size_t b = 0; b < kBigRows; ++b) {
      if (big_paired[b]) continue;
      e.rows += 1;
      e.big_count += 1;
      e.big_sum += static_cast<int64_t>(b);
    }
  }
  return e;
}

void ExpectAnswer(const Database& db, const std::string& from, const Expected& e) {
  const std::string sql = "SELECT count(*), count(big.w), count(small.v), sum(big.w), sum(small.v) FROM " + from;
  for (int threads : {1, 4}) {
    QueryOptions options;
    options.threads = threads;
    const Result r = db.Query(sql, options);
    ASSERT_TRUE(r.ok()) << r.error() << "\n" << sql;
    ASSERT_EQ(r.num_rows(), 1u);
    EXPECT_EQ(r.column(0).Values<int64_t>()[0], e.rows) << sql << " threads " << threads;
    EXPECT_EQ(r.column(1).Values<int64_t>()[0], e.big_count) << sql;
    EXPECT_EQ(r.column(2).Values<int64_t>()[0], e.small_count) << sql;
    EXPECT_EQ(FormatValue(r.column(3), 0, ValueStyle::kText), std::to_string(e.big_sum)) << sql;
    EXPECT_EQ(FormatValue(r.column(4), 0, ValueStyle::kText), std::to_string(e.small_sum)) << sql;
  }
}

std::string Explain(const Database& db, const std::string& sql) {
  const Result r = db.Query("EXPLAIN " + sql);
  EXPECT_TRUE(r.ok()) << r.error();
  std::string text;
  for (size_t i = 0; r.ok() && i < r.num_rows(); ++i) text += FormatValue(r.column(1), i, ValueStyle::kText) + "\n";
  return text;
}

// Every row of a query as text, in the order it came.
std::string Rows(const Database& db, const std::string& sql, int threads) {
  return QueryRowsText(db, sql, threads);
}

TEST(OuterJoinPipelineTest, SmallPreservedSideBuildsAndKeepsItsRowsWithoutAPair) {
  std::unique_ptr<Database> db = Open();
  const std::string left = "small LEFT JOIN big ON small.k = big.k";
  // The small preserved side builds: the LEFT join runs as the RIGHT join of its sides swapped.
  EXPECT_NE(Explain(*db, "SELECT * FROM " + left).find("RIGHT JOIN ON big.k = small.k"), std::string::npos)
      << Explain(*db, "SELECT * FROM " + left);
  ExpectAnswer(*db, left, Loops(false, [](int64_t, int64_t) { return true; }));
  // A RIGHT join written so (big probes, small builds) is the same join.
  ExpectAnswer(*db, "big RIGHT JOIN small ON small.k = big.k", Loops(false, [](int64_t, int64_t) { return true; }));
  // A residual condition decides the pairs; rows it leaves without one are kept once.
  ExpectAnswer(*db, left + " AND (big.w + small.v) % 3 = 0",
               Loops(false, [](int64_t s, int64_t b) { return (s + b) % 3 == 0; }));
  // Keys of other types (cast to the shared type on both sides) and an expression key.
  ExpectAnswer(*db, "small LEFT JOIN big ON CAST(small.k AS INTEGER) = big.k + 0",
               Loops(false, [](int64_t, int64_t) { return true; }));
}

TEST(OuterJoinPipelineTest, FullJoinsBuildOnTheSmallerSideAndKeepBothSidesRowsWithoutAPair) {
  std::unique_ptr<Database> db = Open();
  const std::string full = "small FULL JOIN big ON small.k = big.k";
  EXPECT_NE(Explain(*db, "SELECT * FROM " + full).find("FULL JOIN ON big.k = small.k"), std::string::npos)
      << Explain(*db, "SELECT * FROM " + full);
  ExpectAnswer(*db, full, Loops(true, [](int64_t, int64_t) { return true; }));
  ExpectAnswer(*db, "big FULL JOIN small ON small.k = big.k", Loops(true, [](int64_t, int64_t) { return true; }));
  ExpectAnswer(*db, full + " AND big.w < small.v * 40", Loops(true, [](int64_t s, int64_t b) { return b < s * 40; }));
}

// A WHERE that cannot move below an outer join (it reads the padded side) cuts each morsel's
// joined rows in the pipeline, and the build rows added after the morsels too.
TEST(OuterJoinPipelineTest, FiltersOverTheJoinCutEachMorsel) {
  std::unique_ptr<Database> db = Open();
  // small rows without a pair (the anti-join idiom): the LEFT join's padded rows.
  const Expected left = Loops(false, [](int64_t, int64_t) { return true; });
  const Expected full = Loops(true, [](int64_t, int64_t) { return true; });
  int64_t unpaired_small = 0, unpaired_sum = 0;
  {
    std::map<int64_t, int> big_keys;
    for (size_t i = 0; i < kBigRows; ++i) {
      if (!BigNull(i)) big_keys[BigKey(i)] = 1;
    }
    for (size_t s = 0; s < kSmallRows; ++s) {
      if (SmallNull(s) || big_keys.count(SmallKey(s)) == 0) {
        ++unpaired_small;
        unpaired_sum += static_cast<int64_t>(s);
      }
    }
  }
  ASSERT_GT(unpaired_small, 0);
  ASSERT_LT(unpaired_small, left.rows);
  for (int threads : {1, 4}) {
    QueryOptions options;
    options.threads = threads;
    const Result r = db->Query(
        "SELECT count(*), sum(small.v) FROM small LEFT JOIN big ON small.k = big.k WHERE big.w IS NULL", options);
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.column(0).Values<int64_t>()[0], unpaired_small);
    EXPECT_EQ(FormatValue(r.column(1), 0, ValueStyle::kText), std::to_string(unpaired_sum));
    // A FULL join's rows from either side alone: the WHERE also cuts the build rows added at
    // the end. pairs = the LEFT join's rows less its unpaired ones; the big rows alone = the
    // FULL join's big rows less the pairs.
    const Result f = db->Query(
        "SELECT count(*), count(small.v), count(big.w) FROM small FULL JOIN big ON small.k = big.k "
        "WHERE small.v IS NULL OR big.w IS NULL",
        options);
    ASSERT_TRUE(f.ok()) << f.error();
    const int64_t pairs = left.rows - unpaired_small;
    const int64_t unpaired_big = full.big_count - pairs;
    ASSERT_GT(unpaired_big, 0);
    EXPECT_EQ(f.column(0).Values<int64_t>()[0], unpaired_small + unpaired_big);
    EXPECT_EQ(f.column(1).Values<int64_t>()[0], unpaired_small);
    EXPECT_EQ(f.column(2).Values<int64_t>()[0], unpaired_big);
  }
  // EXPLAIN ANALYZE counts the FILTER's rows, fused into the pipeline.
  const Result a = db->Query(
      "EXPLAIN ANALYZE SELECT small.v FROM small LEFT JOIN big ON small.k = big.k WHERE big.w IS NULL");
  ASSERT_TRUE(a.ok()) << a.error();
  std::string text;
  for (size_t i = 0; i < a.num_rows(); ++i) text += FormatValue(a.column(1), i, ValueStyle::kText) + "\n";
  EXPECT_NE(text.find("FILTER (big.w IS NULL)"), std::string::npos) << text;
  EXPECT_NE(text.find(std::to_string(unpaired_small) + " rows"), std::string::npos) << text;
}

TEST(OuterJoinPipelineTest, RowsComeInTheSameOrderOnEveryThreadCount) {
  std::unique_ptr<Database> db = Open();
  for (const std::string& from : {std::string("small LEFT JOIN big ON small.k = big.k"),
                                  std::string("small FULL JOIN big ON small.k = big.k AND big.w % 2 = 0"),
                                  std::string("(SELECT * FROM big WHERE w % 3 = 0) b2 JOIN small ON b2.k = small.k "
                                              "FULL JOIN big ON big.k = small.k")}) {
    const std::string sql = "SELECT * FROM " + from;
    const std::string one = Rows(*db, sql, 1);
    EXPECT_GT(one.size(), kSmallRows) << sql;
    // SELECT * keeps the FROM clause's column order whichever side builds.
    EXPECT_EQ(Rows(*db, sql, 4), one) << sql;
  }
  const Result r = db->Query("SELECT * FROM small LEFT JOIN big ON small.k = big.k LIMIT 1");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r.num_columns(), 4u);
  EXPECT_EQ(r.name(1), "v");
  EXPECT_EQ(r.name(3), "w");
}

// big FULL JOIN b2 (b2: big's rows with w < 60,000, keys moved up by 15,000) as pairs of row
// numbers, -1 for a side missing: what the joins above a FULL join in a chain read.
std::vector<std::pair<int64_t, int64_t>> FullJoinRows() {
  constexpr size_t kB2Rows = 60000;
  auto b2_key = [](size_t r) { return BigKey(r) + 15000; };
  std::map<int64_t, std::vector<size_t>> b2_by_key;
  for (size_t r = 0; r < kB2Rows; ++r) {
    if (!BigNull(r)) b2_by_key[b2_key(r)].push_back(r);
  }
  std::vector<bool> b2_paired(kB2Rows, false);
  std::vector<std::pair<int64_t, int64_t>> rows;
  for (size_t i = 0; i < kBigRows; ++i) {
    auto it = BigNull(i) ? b2_by_key.end() : b2_by_key.find(BigKey(i));
    if (it == b2_by_key.end()) {
      rows.emplace_back(static_cast<int64_t>(i), -1);
      continue;
    }
    for (size_t r : it->second) {
      rows.emplace_back(static_cast<int64_t>(i), static_cast<int64_t>(r));
      b2_paired[r] = true;
    }
  }
  for (size_t r = 0; r < kB2Rows; ++r) {
    if (!b2_paired[r]) rows.emplace_back(-1, static_cast<int64_t>(r));
  }
  return rows;
}

enum class Kind { kInner, kLeft, kFull };

// The answer of `SELECT count(*), count(w), count(w2), count(v), sum(w), sum(w2), sum(v)` over
// those rows joined to small (`kind`: inner, LEFT or FULL) where small.k = key(row) (a missing
// key: -1) and pass(small row, row) holds, as Rows() prints it.
template <class Key, class Pass>
std::string ChainedAnswer(const std::vector<std::pair<int64_t, int64_t>>& rows, Kind kind, Key key,
                          Pass pass) {
  int64_t count = 0, counts[3] = {0, 0, 0}, sums[3] = {0, 0, 0};
  auto add = [&](int64_t big_row, int64_t b2_row, int64_t small_row) {
    ++count;
    const int64_t values[3] = {big_row, b2_row, small_row};  // w, w2 and v are the row numbers
    for (int c = 0; c < 3; ++c) {
      if (values[c] < 0) continue;
      ++counts[c];
      sums[c] += values[c];
    }
  };
  std::map<int64_t, std::vector<size_t>> small_by_key;
  for (size_t s = 0; s < kSmallRows; ++s) {
    if (!SmallNull(s)) small_by_key[SmallKey(s)].push_back(s);
  }
  std::vector<bool> small_paired(kSmallRows, false);
  for (const auto& [big_row, b2_row] : rows) {
    const int64_t k = key(big_row, b2_row);
    bool paired = false;
    auto it = k < 0 ? small_by_key.end() : small_by_key.find(k);
    for (size_t s : it == small_by_key.end() ? std::vector<size_t>() : it->second) {
      if (!pass(static_cast<int64_t>(s), b2_row)) continue;
      add(big_row, b2_row, static_cast<int64_t>(s));
      paired = small_paired[s] = true;
    }
    if (!paired && kind != Kind::kInner) add(big_row, b2_row, -1);
  }
  for (size_t s = 0; s < kSmallRows && kind == Kind::kFull; ++s) {
    if (!small_paired[s]) add(-1, -1, static_cast<int64_t>(s));
  }
  std::string text = std::to_string(count) + "\t";
  for (int c = 0; c < 3; ++c) text += std::to_string(counts[c]) + "\t";
  for (int c = 0; c < 3; ++c) text += (counts[c] == 0 ? std::string("NULL") : std::to_string(sums[c])) + "\t";
  return text + "\n";
}

// A FULL join below the top of a chain: its build rows without a pair (b2's, 46,364 of them:
// two tails of a morsel's rows) go through the joins above it. b2's keys from 30,000 pair with
// small's and with no row of big, so only the tails' rows meet small there.
TEST(OuterJoinPipelineTest, OuterJoinsBelowTheTopOfAChainSendTheirUnpairedBuildRowsUpward) {
  std::unique_ptr<Database> db = Open();
  const std::string full =
      "big FULL JOIN (SELECT k + 15000 AS k, w AS w2 FROM big WHERE w < 60000) b2 ON big.k = b2.k";
  const std::string aggregates = "SELECT count(*), count(w), count(w2), count(v), sum(w), sum(w2), sum(v) FROM ";
  const std::vector<std::pair<int64_t, int64_t>> rows = FullJoinRows();
  auto b2_key = [](int64_t, int64_t b2) { return b2 < 0 || BigNull(b2) ? -1 : BigKey(b2) + 15000 - 30000; };
  auto either_key = [](int64_t big, int64_t b2) {
    if (big >= 0 && !BigNull(big)) return BigKey(big) - 15000;
    return b2 < 0 || BigNull(b2) ? -1 : BigKey(b2);
  };
  auto big_key = [](int64_t big, int64_t) { return big < 0 || BigNull(big) ? -1 : BigKey(big); };
  auto any = [](int64_t, int64_t) { return true; };
  auto residual = [](int64_t s, int64_t b2) { return b2 >= 0 && (s + b2) % 3 != 0; };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {" JOIN small ON small.k = b2.k - 30000", ChainedAnswer(rows, Kind::kInner, b2_key, any)},
      {" JOIN small ON small.k = coalesce(big.k - 15000, b2.k)",
       ChainedAnswer(rows, Kind::kInner, either_key, any)},
      {" LEFT JOIN small ON small.k = b2.k - 30000", ChainedAnswer(rows, Kind::kLeft, b2_key, any)},
      {" FULL JOIN small ON small.k = b2.k - 30000", ChainedAnswer(rows, Kind::kFull, b2_key, any)},
      {" JOIN small ON small.k = b2.k - 30000 AND (small.v + b2.w2) % 3 <> 0",
       ChainedAnswer(rows, Kind::kInner, b2_key, residual)},
      // On big's key: the tails' rows drop out.
      {" JOIN small ON small.k = big.k", ChainedAnswer(rows, Kind::kInner, big_key, any)}};
  for (const auto& [chained, expected] : cases) {
    const std::string sql = aggregates + full + chained;
    for (int threads : {1, 3, 4}) EXPECT_EQ(Rows(*db, sql, threads), expected) << sql << " threads " << threads;
  }
  // The tails ran in the chain (a span of their own in the profile), and the rows come in the
  // same order on every thread count.
  const std::string sql = "SELECT big.w, b2.w2, small.v FROM " + full + " LEFT JOIN small ON small.k = b2.k - 30000";
  QueryOptions options;
  options.profile = true;
  ASSERT_TRUE(db->Query(sql, options).ok());
  EXPECT_NE(db->LastProfileJson().find("probe tail"), std::string::npos);
  const std::string one = Rows(*db, sql, 1);
  EXPECT_EQ(Rows(*db, sql, 4), one);
}

}  // namespace
}  // namespace laneql
