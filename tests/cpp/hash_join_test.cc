// HashJoinPairs and CompleteJoin against nested-loop references on random keys of every type,
// on 1, 2 and 4 threads (the parallel path forced by a small min_parallel_rows), plus the
// memory limit and interrupts.
#include "src/exec/hash_join.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "hash_join_test_util.h"
#include "src/common/query_budget.h"
#include "src/exec/thread_pool.h"

namespace laneql {
namespace exec {
namespace {

using join_test::AppendNull;
using join_test::AppendValue;
using join_test::Pointers;
using join_test::RandomColumn;
using join_test::Spell;
using join_test::ValuesEqual;

// Every (probe, build) pair with all keys non-NULL and equal, probe-major: the definition.
MatchPairs NestedLoopPairs(const std::vector<Column>& build, const std::vector<Column>& probe) {
  MatchPairs out;
  const size_t build_rows = build.empty() ? 0 : build[0].length();
  const size_t probe_rows = probe.empty() ? 0 : probe[0].length();
  for (size_t p = 0; p < probe_rows; ++p) {
    for (size_t b = 0; b < build_rows; ++b) {
      bool equal = true;
      for (size_t k = 0; k < build.size() && equal; ++k) {
        equal = build[k].IsValid(b) && probe[k].IsValid(p) && ValuesEqual(build[k], b, probe[k], p);
      }
      if (equal) {
        out.probe_rows.push_back(static_cast<uint32_t>(p));
        out.build_rows.push_back(static_cast<uint32_t>(b));
      }
    }
  }
  return out;
}

// The pairs of one key column by a map from each value's spelling to its build rows: the
// nested loop's answer where the sides are too large for it.
MatchPairs MapPairs(const Column& build, const Column& probe) {
  std::map<std::string, std::vector<uint32_t>> rows_of;
  for (size_t b = 0; b < build.length(); ++b) {
    if (build.IsValid(b)) rows_of[Spell(build, b)].push_back(static_cast<uint32_t>(b));
  }
  MatchPairs out;
  for (size_t p = 0; p < probe.length(); ++p) {
    if (!probe.IsValid(p)) continue;
    const auto it = rows_of.find(Spell(probe, p));
    if (it == rows_of.end()) continue;
    for (const uint32_t b : it->second) {
      out.probe_rows.push_back(static_cast<uint32_t>(p));
      out.build_rows.push_back(b);
    }
  }
  return out;
}

// CompleteJoin's definition, spelled out per probe row and per build row.
JoinOutput ReferenceComplete(JoinKind kind, const MatchPairs& matched, size_t probe_rows, size_t build_rows,
                             const std::vector<uint8_t>& probe_null, bool build_null) {
  std::vector<std::vector<uint32_t>> by_probe(probe_rows);
  std::vector<bool> build_has_pair(build_rows, false);
  for (size_t i = 0; i < matched.size(); ++i) {
    by_probe[matched.probe_rows[i]].push_back(matched.build_rows[i]);
    build_has_pair[matched.build_rows[i]] = true;
  }
  JoinOutput out;
  auto add = [&](uint32_t p, uint32_t b) {
    out.probe_rows.push_back(p);
    out.build_rows.push_back(b);
  };
  if (kind == JoinKind::kInner || kind == JoinKind::kRight) {
    for (size_t i = 0; i < matched.size(); ++i) add(matched.probe_rows[i], matched.build_rows[i]);
  }
  if (kind == JoinKind::kLeft || kind == JoinKind::kFull) {
    for (uint32_t p = 0; p < probe_rows; ++p) {
      if (by_probe[p].empty()) add(p, kNoRow);
      for (uint32_t b : by_probe[p]) add(p, b);
    }
  }
  if (kind == JoinKind::kRight || kind == JoinKind::kFull) {
    for (uint32_t b = 0; b < build_rows; ++b) {
      if (!build_has_pair[b]) add(kNoRow, b);
    }
  }
  for (uint32_t p = 0; p < probe_rows; ++p) {
    if ((kind == JoinKind::kSemi && !by_probe[p].empty()) || (kind == JoinKind::kAnti && by_probe[p].empty())) {
      out.probe_rows.push_back(p);
    }
    if (kind == JoinKind::kMark) {
      out.probe_rows.push_back(p);
      uint8_t mark = 0;
      if (!by_probe[p].empty()) {
        mark = 1;
      } else if (build_rows > 0 && (probe_null[p] != 0 || build_null)) {
        mark = 2;
      }
      out.mark.push_back(mark);
    }
  }
  return out;
}

constexpr JoinKind kAllKinds[] = {JoinKind::kInner, JoinKind::kLeft, JoinKind::kRight, JoinKind::kFull,
                                  JoinKind::kSemi,  JoinKind::kAnti, JoinKind::kMark};

void ExpectCompleteMatchesReference(const MatchPairs& matched, const std::vector<Column>& build,
                                    const std::vector<Column>& probe) {
  const size_t probe_rows = probe[0].length(), build_rows = build[0].length();
  const std::vector<uint8_t> probe_null = RowsWithNullKey(Pointers(probe), probe_rows);
  const bool build_null = AnyRowWithNullKey(Pointers(build), build_rows);
  for (JoinKind kind : kAllKinds) {
    SCOPED_TRACE(testing::Message() << "kind " << static_cast<int>(kind));
    JoinOutput got;
    CompleteJoin(kind, matched, probe_rows, build_rows, probe_null, build_null, &got);
    const JoinOutput want = ReferenceComplete(kind, matched, probe_rows, build_rows, probe_null, build_null);
    EXPECT_EQ(got.probe_rows, want.probe_rows);
    EXPECT_EQ(got.build_rows, want.build_rows);
    EXPECT_EQ(got.mark, want.mark);
  }
}

struct JoinCase {
  const char* name;
  std::vector<TypeId> types;
  size_t build_rows, probe_rows;
  int domain;
  double build_nulls, probe_nulls;
  int build_first = 0;  // build values from [build_first, build_first + domain)
};

class HashJoinTest : public testing::Test {
 protected:
  HashJoinTest() : pool_(4) {}
  ExecContext Context(int threads) {
    ExecContext ctx;
    ctx.pool = &pool_;
    ctx.threads = threads;
    ctx.min_parallel_rows = 1;  // the parallel path even on a few thousand rows
    ctx.budget = &budget_;
    return ctx;
  }
  // Runs the case on 1, 2 and 4 threads: each must give the nested loop's pairs exactly.
  void Run(const JoinCase& c, uint64_t seed) {
    SCOPED_TRACE(c.name);
    std::mt19937_64 rng(seed);
    std::vector<Column> build, probe;
    for (TypeId type : c.types) {
      build.push_back(RandomColumn(type, c.build_rows, c.build_first, c.domain, c.build_nulls, &rng));
      probe.push_back(RandomColumn(type, c.probe_rows, 0, c.domain, c.probe_nulls, &rng));
    }
    const MatchPairs want = NestedLoopPairs(build, probe);
    ExpectEveryThreadCountMatches(build, probe, want);
    ExpectCompleteMatchesReference(want, build, probe);
    // A residual condition dropping some pairs: outer rows reappear unmatched.
    MatchPairs kept;
    for (size_t i = 0; i < want.size(); ++i) {
      if ((want.probe_rows[i] + 2 * want.build_rows[i]) % 3 != 0) {
        kept.probe_rows.push_back(want.probe_rows[i]);
        kept.build_rows.push_back(want.build_rows[i]);
      }
    }
    ExpectCompleteMatchesReference(kept, build, probe);
  }

  // HashJoinPairs on 1, 2 and 4 threads, and JoinBuildTable, must give `want` exactly.
  void ExpectEveryThreadCountMatches(const std::vector<Column>& build, const std::vector<Column>& probe,
                                     const MatchPairs& want) {
    for (int threads : {1, 2, 4}) {
      SCOPED_TRACE(testing::Message() << threads << " threads");
      MatchPairs got;
      std::string error;
      ASSERT_TRUE(HashJoinPairs(Pointers(build), Pointers(probe), Context(threads), &got, &error)) << error;
      EXPECT_EQ(got.probe_rows, want.probe_rows);
      EXPECT_EQ(got.build_rows, want.build_rows);
    }
    ExpectJoinBuildTableMatches(build, probe, want);
  }

  // JoinBuildTable (the probe pipeline's table): built once, probed by three threads at once,
  // each with a slice of the probe rows (as morsels are); the slices' pairs, offset and in
  // slice order, must be the nested loop's.
  void ExpectJoinBuildTableMatches(const std::vector<Column>& build, const std::vector<Column>& probe,
                                   const MatchPairs& want) {
    SCOPED_TRACE("JoinBuildTable");
    JoinBuildTable table;
    std::string error;
    ASSERT_TRUE(table.Build(Pointers(build), Context(2), &error)) << error;
    const size_t rows = probe.empty() ? 0 : probe[0].length();
    constexpr int kSlices = 3;
    std::vector<MatchPairs> got(kSlices);
    std::vector<std::string> errors(kSlices);
    std::vector<size_t> starts;
    for (int i = 0; i <= kSlices; ++i) starts.push_back(rows * static_cast<size_t>(i) / kSlices);
    const auto probe_slice = [&](int i) {
      std::vector<uint32_t> slice;
      for (size_t r = starts[i]; r < starts[i + 1]; ++r) slice.push_back(static_cast<uint32_t>(r));
      std::vector<Column> keys(probe.size());
      for (size_t k = 0; k < probe.size(); ++k) {
        if (!GatherRows(probe[k], slice, &keys[k], &errors[i])) return;
      }
      if (!table.Probe(Pointers(keys), &got[i], &errors[i])) errors[i] += " (probe)";
    };
    // Every slice on whatever threads the pool has (one where the build has no threads).
    const int workers = std::min(kSlices, pool_.threads());
    pool_.Run(workers, [&](int w) {
      for (int i = w; i < kSlices; i += workers) probe_slice(i);
    });
    MatchPairs all;
    for (int i = 0; i < kSlices; ++i) {
      ASSERT_EQ(errors[i], "");
      for (size_t p = 0; p < got[i].size(); ++p) {
        all.probe_rows.push_back(got[i].probe_rows[p] + static_cast<uint32_t>(starts[i]));
        all.build_rows.push_back(got[i].build_rows[p]);
      }
    }
    EXPECT_EQ(all.probe_rows, want.probe_rows);
    EXPECT_EQ(all.build_rows, want.build_rows);
  }

  ThreadPool pool_;
  QueryBudget budget_{0, nullptr, 0};
};

TEST_F(HashJoinTest, OneKeyOfEachType) {
  const TypeId types[] = {TypeId::kInt8,    TypeId::kInt16,  TypeId::kInt32,           TypeId::kInt64,
                          TypeId::kUInt8,   TypeId::kUInt16, TypeId::kUInt32,          TypeId::kUInt64,
                          TypeId::kFloat32, TypeId::kFloat64, TypeId::kDate32,         TypeId::kTimestampSeconds,
                          TypeId::kTimestampMicros, TypeId::kString, TypeId::kLargeString, TypeId::kInt128,
                          TypeId::kBool};
  uint64_t seed = 1;
  for (TypeId type : types) {
    SCOPED_TRACE(TypeName(type));
    // Bool has two values: few build rows, or every probe row matches hundreds.
    const size_t build_rows = type == TypeId::kBool ? 40 : 700;
    Run(JoinCase{"one key, NULLs on both sides", {type}, build_rows, 7000, 40, 0.1, 0.1}, seed++);
  }
}

TEST_F(HashJoinTest, WideDomainsAndNoNulls) {
  Run(JoinCase{"uint8 over all 256 values", {TypeId::kUInt8}, 1500, 9000, 256, 0, 0}, 11);
  Run(JoinCase{"int64 mostly unmatched", {TypeId::kInt64}, 2000, 9000, 100000, 0, 0}, 12);
  Run(JoinCase{"double specials only", {TypeId::kFloat64}, 300, 6000, 5, 0, 0.05}, 13);
  Run(JoinCase{"strings specials only", {TypeId::kString}, 300, 6000, 6, 0.05, 0}, 14);
}

TEST_F(HashJoinTest, TwoAndThreeKeys) {
  Run(JoinCase{"int32, string", {TypeId::kInt32, TypeId::kString}, 800, 8000, 8, 0.05, 0.05}, 21);
  Run(JoinCase{"date, double", {TypeId::kDate32, TypeId::kFloat64}, 800, 8000, 9, 0.1, 0.0}, 22);
  Run(JoinCase{"double, int64, uint8", {TypeId::kFloat64, TypeId::kInt64, TypeId::kUInt8}, 900, 9000, 4, 0.05,
               0.05},
      23);
  Run(JoinCase{"string, large_string, int128", {TypeId::kString, TypeId::kLargeString, TypeId::kInt128}, 600,
               7000, 4, 0.0, 0.1},
      24);
  Run(JoinCase{"bool, timestamp", {TypeId::kBool, TypeId::kTimestampMicros}, 300, 5000, 6, 0.1, 0.1}, 25);
}

TEST_F(HashJoinTest, EmptySidesNoMatchesAllMatching) {
  Run(JoinCase{"empty build", {TypeId::kInt32}, 0, 5000, 10, 0, 0}, 31);
  Run(JoinCase{"empty probe", {TypeId::kString}, 500, 0, 10, 0, 0}, 32);
  Run(JoinCase{"both empty", {TypeId::kInt64, TypeId::kFloat64}, 0, 0, 10, 0, 0}, 33);
  Run(JoinCase{"no matches", {TypeId::kInt32, TypeId::kString}, 700, 7000, 50, 0.1, 0.1, 1000}, 34);
  Run(JoinCase{"all matching", {TypeId::kInt64}, 30, 9000, 1, 0, 0}, 35);
  Run(JoinCase{"all matching, two keys", {TypeId::kString, TypeId::kFloat64}, 25, 6000, 1, 0, 0}, 36);
  Run(JoinCase{"every build key NULL", {TypeId::kInt32}, 400, 5000, 10, 1.0, 0.1}, 37);
  Run(JoinCase{"every probe key NULL", {TypeId::kDate32}, 400, 5000, 10, 0.1, 1.0}, 38);
  Run(JoinCase{"one row each", {TypeId::kFloat64}, 1, 1, 1, 0, 0}, 39);
}

// A string key with int32 offsets on one side and int64 (large_string) on the other: the pairs
// of both sides narrow, on every thread count (a large column probed by a short list of
// strings, or the other way round).
TEST_F(HashJoinTest, StringKeysOfEitherOffsetWidth) {
  std::mt19937_64 rng(41);
  const Column build = RandomColumn(TypeId::kString, 600, 0, 30, 0.1, &rng);
  const Column probe = RandomColumn(TypeId::kString, 7000, 0, 30, 0.1, &rng);
  auto widen = [](const Column& narrow) {
    std::vector<int64_t> offsets(narrow.Offsets32(), narrow.Offsets32() + narrow.length() + 1);
    Column wide;
    std::string error;
    EXPECT_TRUE(Column::FromLargeStrings(offsets.data(), narrow.StringData(), narrow.length(), narrow.validity(),
                                         &wide, &error)) << error;
    return wide;
  };
  const Column wide_build = widen(build), wide_probe = widen(probe);
  MatchPairs want;
  std::string error;
  ASSERT_TRUE(HashJoinPairs({&build}, {&probe}, Context(1), &want, &error)) << error;
  ASSERT_GT(want.size(), 1000u);
  for (int threads : {1, 2, 4}) {
    for (const auto& sides : {std::make_pair(&build, &wide_probe), std::make_pair(&wide_build, &probe)}) {
      MatchPairs got;
      ASSERT_TRUE(HashJoinPairs({sides.first}, {sides.second}, Context(threads), &got, &error)) << error;
      EXPECT_EQ(got.probe_rows, want.probe_rows) << threads << " threads";
      EXPECT_EQ(got.build_rows, want.build_rows) << threads << " threads";
    }
  }
  JoinBuildTable table;
  ASSERT_TRUE(table.Build({&build}, Context(2), &error)) << error;
  MatchPairs got;
  ASSERT_TRUE(table.Probe({&wide_probe}, &got, &error)) << error;
  EXPECT_EQ(got.probe_rows, want.probe_rows);
  EXPECT_EQ(got.build_rows, want.build_rows);
}

TEST_F(HashJoinTest, RejectsMismatchedKeys) {
  Column a(TypeId::kInt32), b(TypeId::kInt64), c(TypeId::kInt32);
  AppendValue(&a, 1);
  AppendValue(&b, 1);
  MatchPairs out;
  std::string error;
  EXPECT_FALSE(HashJoinPairs({&a}, {&b}, Context(1), &out, &error));
  EXPECT_NE(error.find("int32"), std::string::npos) << error;
  EXPECT_FALSE(HashJoinPairs({}, {}, Context(1), &out, &error));
  EXPECT_FALSE(HashJoinPairs({&a, &a}, {&a}, Context(1), &out, &error));
  EXPECT_FALSE(HashJoinPairs({&a, &c}, {&a, &a}, Context(1), &out, &error));  // lengths 1 and 0
}

// A build side past the caches is placed by partitions (on 1 thread too): the pairs must be
// those of a map from each key to its rows, on every thread count and from JoinBuildTable.
TEST_F(HashJoinTest, LargeBuildSidesPlacedByPartitions) {
  std::mt19937_64 rng(51);
  for (const int domain : {150000, 20}) {  // mostly unique keys; few keys with many rows
    SCOPED_TRACE(testing::Message() << "domain " << domain);
    std::vector<Column> build, probe;
    build.push_back(RandomColumn(TypeId::kInt64, 300000, 0, domain, 0.1, &rng));
    probe.push_back(RandomColumn(TypeId::kInt64, domain > 1000 ? 30000 : 300, 0, 2 * domain, 0.1, &rng));
    const MatchPairs want = MapPairs(build[0], probe[0]);
    ASSERT_GT(want.size(), 1000u);
    ExpectEveryThreadCountMatches(build, probe, want);
  }
}

// `v` as a value of the column's integer type (its width and signedness).
void AppendRaw(Column* column, int64_t v) {
  std::string error;
  bool ok = false;
  switch (column->type()) {
    case TypeId::kInt8: ok = column->Append<int8_t>(static_cast<int8_t>(v), &error); break;
    case TypeId::kInt32:
    case TypeId::kDate32: ok = column->Append<int32_t>(static_cast<int32_t>(v), &error); break;
    case TypeId::kUInt32: ok = column->Append<uint32_t>(static_cast<uint32_t>(v), &error); break;
    default: ok = column->Append<int64_t>(v, &error); break;
  }
  ASSERT_TRUE(ok) << error;
}

// One dense integer key builds a direct table (a bucket per value from key - min): probe keys
// below the smallest, above the largest and at the type's extremes (whose offsets wrap around)
// must find nothing, NULLs nothing, and a key range too wide for a direct table takes the hash.
TEST_F(HashJoinTest, DenseIntegerKeysGetADirectTable) {
  struct Keys {
    const char* name;
    TypeId type;
    std::vector<int64_t> build, probe;
    bool direct;
  };
  const int64_t lo = INT64_MIN, hi = INT64_MAX;
  const std::vector<Keys> cases = {
      {"int64 near the minimum", TypeId::kInt64, {lo, lo + 1, lo + 3, lo + 3}, {lo + 3, hi, lo, 0, lo + 2, hi - 1, lo + 1}, true},
      {"int64 near the maximum", TypeId::kInt64, {hi, hi - 2, hi - 2}, {hi, lo, hi - 2, hi - 1, 0, hi - 4}, true},
      {"int64 over the whole range", TypeId::kInt64, {lo, hi, 0}, {0, hi, lo, 1, -1}, false},
      {"int8 negative", TypeId::kInt8, {-128, -127, -120}, {-128, 127, -120, 0, -126}, true},
      {"uint32 top values", TypeId::kUInt32, {4294967295, 4294967294}, {0, 4294967295, 4294967293}, true},
      {"date32 before 1970", TypeId::kDate32, {-5, -4, -3, -1}, {-5, 0, -1, -2, 5}, true},
      {"int32 sparse keys", TypeId::kInt32, {0, 1000, 2000}, {0, 1000, 1500}, false},
  };
  for (const Keys& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<Column> build, probe;
    build.emplace_back(c.type);
    probe.emplace_back(c.type);
    for (int64_t v : c.build) AppendRaw(&build[0], v);
    AppendNull(&build[0]);
    for (int64_t v : c.probe) AppendRaw(&probe[0], v);
    AppendNull(&probe[0]);
    JoinBuildTable table;
    std::string error;
    ASSERT_TRUE(table.Build(Pointers(build), Context(1), &error)) << error;
    EXPECT_EQ(table.direct(), c.direct);
    ExpectEveryThreadCountMatches(build, probe, NestedLoopPairs(build, probe));
  }
  // Past the caches a direct table is placed by partitions too: 300,000 rows over 150,000 keys
  // (some NULL), probed by keys from twice the range.
  std::mt19937_64 rng(61);
  std::vector<Column> build, probe;
  build.push_back(RandomColumn(TypeId::kInt32, 300000, 0, 150000, 0.1, &rng));
  probe.push_back(RandomColumn(TypeId::kInt32, 20000, 0, 300000, 0.1, &rng));
  JoinBuildTable table;
  std::string error;
  ASSERT_TRUE(table.Build(Pointers(build), Context(2), &error)) << error;
  EXPECT_TRUE(table.direct());
  EXPECT_GT(table.partitions(), 1u);
  const MatchPairs want = MapPairs(build[0], probe[0]);
  ASSERT_GT(want.size(), 1000u);
  ExpectEveryThreadCountMatches(build, probe, want);
}

// Over the memory limit the join fails with the budget's error and holds nothing afterwards.
TEST_F(HashJoinTest, MemoryLimitFailsCleanly) {
  std::mt19937_64 rng(41);
  std::vector<Column> build, probe;
  build.push_back(RandomColumn(TypeId::kInt64, 100000, 0, 1000, 0, &rng));
  probe.push_back(RandomColumn(TypeId::kInt64, 20000, 0, 1000, 0, &rng));
  for (uint64_t limit : {uint64_t{256} << 10, uint64_t{6} << 20}) {  // the table; the pairs (16 MB)
    QueryBudget budget(limit, nullptr, 0);
    for (int threads : {1, 4}) {
      ExecContext ctx = Context(threads);
      ctx.budget = &budget;
      MatchPairs out;
      std::string error;
      EXPECT_FALSE(HashJoinPairs(Pointers(build), Pointers(probe), ctx, &out, &error));
      EXPECT_EQ(error.rfind("out of memory", 0), 0u) << error;
      EXPECT_EQ(out.size(), 0u);
      EXPECT_EQ(budget.used_bytes(), 0);
    }
  }
  // With room, what stays charged is exactly the output.
  QueryBudget budget(uint64_t{256} << 20, nullptr, 0);
  ExecContext ctx = Context(4);
  ctx.budget = &budget;
  MatchPairs out;
  std::string error;
  ASSERT_TRUE(HashJoinPairs(Pointers(build), Pointers(probe), ctx, &out, &error)) << error;
  EXPECT_EQ(budget.used_bytes(), static_cast<int64_t>(out.size() * 2 * sizeof(uint32_t)));
  EXPECT_GT(budget.peak_bytes(), budget.used_bytes());
}

TEST_F(HashJoinTest, StopsWhenInterrupted) {
  std::mt19937_64 rng(42);
  std::vector<Column> build, probe;
  build.push_back(RandomColumn(TypeId::kInt32, 5000, 0, 100, 0, &rng));
  probe.push_back(RandomColumn(TypeId::kInt32, 50000, 0, 100, 0, &rng));
  std::atomic<uint64_t> interrupts{0};
  QueryBudget budget(0, &interrupts, 0);
  interrupts.fetch_add(1);
  for (int threads : {1, 4}) {
    ExecContext ctx = Context(threads);
    ctx.budget = &budget;
    MatchPairs out;
    std::string error;
    EXPECT_FALSE(HashJoinPairs(Pointers(build), Pointers(probe), ctx, &out, &error));
    EXPECT_EQ(error, "query interrupted");
    EXPECT_EQ(out.size(), 0u);
  }
}

}  // namespace
}  // namespace exec
}  // namespace laneql
