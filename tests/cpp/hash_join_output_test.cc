// CompleteJoin on hand-made pairs (orders, kMark's NULL rules), RowsWithNullKey, and GatherRows
// with kNoRow on every column type.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "hash_join_test_util.h"
#include "src/common/query_budget.h"
#include "src/exec/hash_join.h"

namespace laneql {
namespace exec {
namespace {

using join_test::AppendNull;
using join_test::AppendValue;
using join_test::RandomColumn;
using join_test::Spell;

MatchPairs Pairs(const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  MatchPairs out;
  for (const auto& [p, b] : pairs) {
    out.probe_rows.push_back(p);
    out.build_rows.push_back(b);
  }
  return out;
}

constexpr uint32_t N = kNoRow;

TEST(HashJoinCompleteTest, OrdersOfEachKind) {
  // Probe rows 0..4, build rows 0..3; probe 1 matches builds 0 and 2, probe 3 matches build 2.
  const MatchPairs matched = Pairs({{1, 0}, {1, 2}, {3, 2}});
  JoinOutput out;
  CompleteJoin(JoinKind::kInner, matched, 5, 4, {}, false, &out);
  EXPECT_EQ(out.probe_rows, (std::vector<uint32_t>{1, 1, 3}));
  EXPECT_EQ(out.build_rows, (std::vector<uint32_t>{0, 2, 2}));
  CompleteJoin(JoinKind::kLeft, matched, 5, 4, {}, false, &out);
  EXPECT_EQ(out.probe_rows, (std::vector<uint32_t>{0, 1, 1, 2, 3, 4}));
  EXPECT_EQ(out.build_rows, (std::vector<uint32_t>{N, 0, 2, N, 2, N}));
  CompleteJoin(JoinKind::kRight, matched, 5, 4, {}, false, &out);
  EXPECT_EQ(out.probe_rows, (std::vector<uint32_t>{1, 1, 3, N, N}));
  EXPECT_EQ(out.build_rows, (std::vector<uint32_t>{0, 2, 2, 1, 3}));
  CompleteJoin(JoinKind::kFull, matched, 5, 4, {}, false, &out);
  EXPECT_EQ(out.probe_rows, (std::vector<uint32_t>{0, 1, 1, 2, 3, 4, N, N}));
  EXPECT_EQ(out.build_rows, (std::vector<uint32_t>{N, 0, 2, N, 2, N, 1, 3}));
  CompleteJoin(JoinKind::kSemi, matched, 5, 4, {}, false, &out);
  EXPECT_EQ(out.probe_rows, (std::vector<uint32_t>{1, 3}));
  EXPECT_TRUE(out.build_rows.empty());
  CompleteJoin(JoinKind::kAnti, matched, 5, 4, {}, false, &out);
  EXPECT_EQ(out.probe_rows, (std::vector<uint32_t>{0, 2, 4}));
  EXPECT_TRUE(out.build_rows.empty());
  EXPECT_TRUE(out.mark.empty());
  // No pairs at all: outer joins keep every row of their side.
  CompleteJoin(JoinKind::kFull, MatchPairs(), 2, 1, {}, false, &out);
  EXPECT_EQ(out.probe_rows, (std::vector<uint32_t>{0, 1, N}));
  EXPECT_EQ(out.build_rows, (std::vector<uint32_t>{N, N, 0}));
}

// x IN (subquery): true on a match; NULL when there is none but a NULL is involved (x NULL, or a
// NULL in the set), unless the set is empty (then false whatever x is).
TEST(HashJoinCompleteTest, MarkNullRules) {
  const MatchPairs matched = Pairs({{0, 1}});
  const std::vector<uint8_t> probe_null = {0, 0, 1};  // row 2's key is NULL
  JoinOutput out;
  CompleteJoin(JoinKind::kMark, matched, 3, 2, probe_null, false, &out);
  EXPECT_EQ(out.probe_rows, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(out.mark, (std::vector<uint8_t>{kMarkTrue, kMarkFalse, kMarkNull}));
  EXPECT_TRUE(out.build_rows.empty());
  CompleteJoin(JoinKind::kMark, matched, 3, 2, probe_null, true, &out);  // the set has a NULL
  EXPECT_EQ(out.mark, (std::vector<uint8_t>{kMarkTrue, kMarkNull, kMarkNull}));
  CompleteJoin(JoinKind::kMark, MatchPairs(), 3, 0, probe_null, true, &out);  // empty set
  EXPECT_EQ(out.mark, (std::vector<uint8_t>{kMarkFalse, kMarkFalse, kMarkFalse}));
  CompleteJoin(JoinKind::kMark, MatchPairs(), 3, 2, {}, false, &out);  // no NULL anywhere
  EXPECT_EQ(out.mark, (std::vector<uint8_t>{kMarkFalse, kMarkFalse, kMarkFalse}));
  CompleteJoin(JoinKind::kMark, MatchPairs(), 0, 2, {}, true, &out);
  EXPECT_TRUE(out.mark.empty());
  EXPECT_TRUE(out.probe_rows.empty());
}

TEST(HashJoinCompleteTest, OverTheMemoryLimit) {
  MatchPairs matched;
  for (uint32_t i = 0; i < 100000; ++i) {
    matched.probe_rows.push_back(i);
    matched.build_rows.push_back(i);
  }
  QueryBudget budget(64 << 10, nullptr, 0);
  const ScopedQueryBudget scope(&budget);
  JoinOutput out;
  std::string error;
  EXPECT_FALSE(CompleteJoin(JoinKind::kFull, matched, 200000, 200000, {}, false, &out, &error));
  EXPECT_EQ(error.rfind("out of memory", 0), 0u) << error;
  EXPECT_TRUE(out.probe_rows.empty());
  EXPECT_EQ(budget.used_bytes(), 0);
  bool thrown = false;
  try {
    CompleteJoin(JoinKind::kInner, matched, 200000, 200000, {}, false, &out);
  } catch (...) {  // QueryAbort (not by type: see QueryAbort in query_budget.h)
    thrown = true;
  }
  EXPECT_TRUE(thrown);
  EXPECT_EQ(budget.AbortMessage().rfind("out of memory", 0), 0u);
}

TEST(HashJoinNullKeysTest, RowsWithNullKey) {
  Column a(TypeId::kInt32), b(TypeId::kString);
  for (int i = 0; i < 130; ++i) {
    if (i % 7 == 3) AppendNull(&a); else AppendValue(&a, i);
    if (i % 11 == 5) AppendNull(&b); else AppendValue(&b, i);
  }
  const std::vector<uint8_t> has_null = RowsWithNullKey({&a, &b}, 130);
  ASSERT_EQ(has_null.size(), 130u);
  for (int i = 0; i < 130; ++i) EXPECT_EQ(has_null[i], (i % 7 == 3 || i % 11 == 5) ? 1 : 0) << i;
  EXPECT_TRUE(AnyRowWithNullKey({&a, &b}, 130));
  EXPECT_TRUE(AnyRowWithNullKey({&b}, 6));
  EXPECT_FALSE(AnyRowWithNullKey({&b}, 5));  // the first NULL is row 5
  EXPECT_FALSE(AnyRowWithNullKey({&a}, 3));
  Column c(TypeId::kDate32);
  AppendValue(&c, 1);
  EXPECT_FALSE(AnyRowWithNullKey({&c}, 1));
  EXPECT_EQ(RowsWithNullKey({&c}, 1), std::vector<uint8_t>{0});
}

// Every type: a random gather with kNoRow among the rows equals the rows spelled one by one,
// NULL slots hold zero bytes / empty strings, and a bitmap exists exactly when a NULL does.
TEST(HashJoinGatherTest, EveryTypeWithMissingRows) {
  const TypeId types[] = {TypeId::kInt8,  TypeId::kInt16,   TypeId::kInt32,   TypeId::kInt64,
                          TypeId::kUInt8, TypeId::kUInt16,  TypeId::kUInt32,  TypeId::kUInt64,
                          TypeId::kFloat32, TypeId::kFloat64, TypeId::kDate32, TypeId::kTimestampSeconds,
                          TypeId::kTimestampMicros, TypeId::kString, TypeId::kLargeString, TypeId::kInt128,
                          TypeId::kBool};
  std::mt19937_64 rng(7);
  for (TypeId type : types) {
    for (double nulls : {0.0, 0.2}) {
      for (double missing : {0.0, 0.3, 1.0}) {
        SCOPED_TRACE(testing::Message() << TypeName(type) << " nulls " << nulls << " missing " << missing);
        const Column source = RandomColumn(type, 300, 0, 120, nulls, &rng);
        std::vector<uint32_t> rows;
        std::bernoulli_distribution is_missing(missing);
        for (size_t i = 0; i < 1000; ++i) {
          rows.push_back(is_missing(rng) ? kNoRow : static_cast<uint32_t>(rng() % 300));
        }
        Column out;
        std::string error;
        ASSERT_TRUE(GatherRows(source, rows, &out, &error)) << error;
        ASSERT_EQ(out.type(), type);
        ASSERT_EQ(out.length(), rows.size());
        size_t null_rows = 0;
        for (size_t i = 0; i < rows.size(); ++i) {
          const std::string want = rows[i] == kNoRow ? "NULL" : Spell(source, rows[i]);
          ASSERT_EQ(Spell(out, i), want) << "row " << i;
          if (!out.IsValid(i)) {
            ++null_rows;
            if (IsString(type)) {
              ASSERT_EQ(out.StringAt(i).size(), 0u);
            } else {
              const size_t w = TypeByteWidth(type);
              for (size_t k = 0; k < w; ++k) ASSERT_EQ(out.values_buffer().data()[i * w + k], 0) << "row " << i;
            }
          }
        }
        EXPECT_EQ(out.null_count(), null_rows);
        EXPECT_EQ(out.validity() != nullptr, null_rows != 0);
      }
    }
  }
}

TEST(HashJoinGatherTest, EmptySourcesAndNoRows) {
  for (TypeId type : {TypeId::kInt64, TypeId::kString, TypeId::kInt128, TypeId::kLargeString}) {
    SCOPED_TRACE(TypeName(type));
    const Column empty(type);
    Column out;
    std::string error;
    // An outer join's missing side: every row kNoRow, from a source with no rows at all.
    ASSERT_TRUE(GatherRows(empty, {N, N, N}, &out, &error)) << error;
    EXPECT_EQ(out.length(), 3u);
    EXPECT_EQ(out.null_count(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_FALSE(out.IsValid(i));
    ASSERT_TRUE(GatherRows(empty, {}, &out, &error)) << error;
    EXPECT_EQ(out.length(), 0u);
    EXPECT_EQ(out.type(), type);
  }
  // Multi-byte strings and -0.0 keep their exact bytes; repeats are fine.
  Column strings(TypeId::kString), doubles(TypeId::kFloat64);
  AppendValue(&strings, 3);  // a multi-byte string
  AppendValue(&strings, 0);  // ''
  AppendValue(&doubles, 1);  // -0.0
  Column out;
  std::string error;
  ASSERT_TRUE(GatherRows(strings, {0, N, 1, 0}, &out, &error)) << error;
  EXPECT_EQ(out.StringAt(0), strings.StringAt(0));
  EXPECT_FALSE(out.IsValid(1));
  EXPECT_TRUE(out.IsValid(2));
  EXPECT_EQ(out.StringAt(2), "");
  EXPECT_EQ(out.StringAt(3), strings.StringAt(0));
  ASSERT_TRUE(GatherRows(doubles, {0, 0}, &out, &error)) << error;
  EXPECT_TRUE(std::signbit(out.Values<double>()[1]));
  EXPECT_EQ(out.validity(), nullptr);
}

}  // namespace
}  // namespace exec
}  // namespace laneql
