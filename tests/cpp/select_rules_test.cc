// The optimizer's rules over one bound SELECT (src/optimize/optimizer.h): each plan before and
// after its rule, and the answers of the rewritten plan. (Derived GROUP BY keys have their own
// file, derived_keys_test.cc.)
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "bind_sql.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"

namespace laneql {
namespace {

using plan::AggKind;

// x: INTEGER with a NULL; full: INTEGER without NULLs; k: a key.
std::shared_ptr<Table> Sample() {
  Column x(TypeId::kInt32), full(TypeId::kInt32), k(TypeId::kInt32);
  std::string error;
  const int32_t xs[] = {5, -7, 0, 100, 42, INT32_MIN + 2};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_TRUE(i == 2 ? x.AppendNull(&error) : x.Append<int32_t>(xs[i], &error));
    EXPECT_TRUE(full.Append<int32_t>(static_cast<int32_t>(i), &error));
    EXPECT_TRUE(k.Append<int32_t>(static_cast<int32_t>(i % 2), &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("x", std::move(x), &error));
  EXPECT_TRUE(table->AddColumn("full", std::move(full), &error));
  EXPECT_TRUE(table->AddColumn("k", std::move(k), &error));
  return table;
}

std::vector<AggKind> Kinds(const plan::Plan& plan) {
  std::vector<AggKind> kinds;
  for (const auto& aggregate : plan.aggregates) kinds.push_back(aggregate.kind);
  return kinds;
}

std::string Csv(const std::shared_ptr<Table>& table, const std::string& sql) {
  Database db;
  std::string error;
  EXPECT_TRUE(db.Register("t", std::shared_ptr<const Table>(table), &error)) << error;
  const Result r = db.Query(sql);
  return r.ok() ? PrintCsv(r) : "error: " + r.error();
}

TEST(SelectRules, SumsOfOffsetsShareOneSumCountAndExtreme) {
  auto t = Sample();
  using K = std::vector<AggKind>;
  const std::string sql = "SELECT k, SUM(x + 2), SUM(3 + x), SUM(x - 5) FROM t GROUP BY k ORDER BY SUM(x - 5)";
  const plan::Plan before = BindSql(*t, sql, false);
  EXPECT_EQ(Kinds(before), K({AggKind::kSum, AggKind::kSum, AggKind::kSum}));
  const plan::Plan after = BindSql(*t, sql);
  // SUM(x), COUNT(x), and MIN(x) for the overflow check of x - 5.
  EXPECT_EQ(Kinds(after), K({AggKind::kSum, AggKind::kCount, AggKind::kMin}));
  for (const auto& aggregate : after.aggregates) {
    ASSERT_EQ(aggregate.arg->kind, plan::BoundKind::kColumn);
    EXPECT_EQ(aggregate.arg->column, 0);
  }
  // Every reference to an old aggregate (the outputs and the hidden ORDER BY key) now computes
  // from the new ones; the key stays column 0.
  ASSERT_EQ(after.outputs.size(), before.outputs.size());
  EXPECT_EQ(after.outputs[0]->kind, plan::BoundKind::kColumn);
  for (size_t i = 1; i < after.outputs.size(); ++i) {
    EXPECT_EQ(after.outputs[i]->kind, plan::BoundKind::kCall) << i;
  }
  // x - 5 overflows INTEGER on INT32_MIN + 2 (a k = 1 row), as DuckDB's row-by-row x - 5 does.
  EXPECT_NE(Csv(t, sql).find("error: "), std::string::npos);
  // k = 0 has 5, NULL and 42.
  EXPECT_EQ(Csv(t, "SELECT k, SUM(x + 2), SUM(3 + x), SUM(x - 5) FROM t WHERE k = 0 GROUP BY k"),
            "k,sum((x + 2)),sum((3 + x)),sum((x - 5))\n0,51,53,37\n");
  // HAVING reads the new aggregates too.
  const std::string having = "SELECT k, SUM(x + 2) FROM t GROUP BY k HAVING SUM(x + 2) > 0";
  const plan::Plan with_having = BindSql(*t, having);
  EXPECT_EQ(Kinds(with_having), K({AggKind::kSum, AggKind::kCount}));
  ASSERT_TRUE(with_having.having);
  EXPECT_EQ(with_having.having->args[0]->kind, plan::BoundKind::kCall);
  EXPECT_EQ(Csv(t, having), "k,sum((x + 2))\n0,51\n");
}

// SUM(x - k)'s overflow check is an output expression, so it stays a sum of x - k where some
// groups' outputs are never evaluated: under a LIMIT, or a HAVING on aggregates.
TEST(SelectRules, SumsOfDifferencesStayWhereSomeGroupsAreNotOutput) {
  auto t = Sample();
  using K = std::vector<AggKind>;
  for (const char* sql : {"SELECT k, SUM(x - 5) FROM t GROUP BY k ORDER BY k LIMIT 1",
                          "SELECT k, SUM(x - 5) FROM t GROUP BY k HAVING max(x) < 50"}) {
    const plan::Plan after = BindSql(*t, sql);
    ASSERT_FALSE(after.aggregates.empty());
    EXPECT_EQ(after.aggregates[0].arg->kind, plan::BoundKind::kCall) << sql;
    EXPECT_NE(Csv(t, sql).find("error: "), std::string::npos) << sql;  // as DuckDB
  }
  EXPECT_EQ(Kinds(BindSql(*t, "SELECT k, SUM(x - 5) FROM t GROUP BY k HAVING k = 0")),
            K({AggKind::kSum, AggKind::kCount, AggKind::kMin}));
  EXPECT_EQ(Csv(t, "SELECT k, SUM(x - 5) FROM t GROUP BY k HAVING k = 0"), "k,sum((x - 5))\n0,37\n");
}

TEST(SelectRules, OtherSumsStayAsTheyAre) {
  auto t = Sample();
  using K = std::vector<AggKind>;
  for (const char* sql : {"SELECT SUM(x * 2), SUM(x + full) FROM t", "SELECT SUM(x + 1.5) FROM t",
                          "SELECT SUM(x + NULL) FROM t", "SELECT SUM(5 - x) FROM t"}) {
    EXPECT_EQ(Kinds(BindSql(*t, sql)), Kinds(BindSql(*t, sql, false))) << sql;
  }
  EXPECT_EQ(Kinds(BindSql(*t, "SELECT SUM(x + 1), SUM(x) FROM t")), K({AggKind::kSum, AggKind::kCount}));
}

TEST(SelectRules, CountsWithoutAScanOnlyWhenTheMetadataAnswers) {
  auto t = Sample();
  EXPECT_FALSE(BindSql(*t, "SELECT count(*) FROM t", false).answer_from_metadata);
  EXPECT_TRUE(BindSql(*t, "SELECT count(*) FROM t").answer_from_metadata);
  EXPECT_TRUE(BindSql(*t, "SELECT count(*), count(full) + 1 FROM t").answer_from_metadata);
  // x has a NULL; a WHERE, a GROUP BY or another aggregate needs the rows.
  EXPECT_FALSE(BindSql(*t, "SELECT count(x) FROM t").answer_from_metadata);
  EXPECT_FALSE(BindSql(*t, "SELECT count(*) FROM t WHERE k = 1").answer_from_metadata);
  EXPECT_FALSE(BindSql(*t, "SELECT count(*) FROM t GROUP BY k").answer_from_metadata);
  EXPECT_FALSE(BindSql(*t, "SELECT count(*), max(full) FROM t").answer_from_metadata);
  EXPECT_FALSE(BindSql(*t, "SELECT count(DISTINCT full) FROM t").answer_from_metadata);
  EXPECT_FALSE(BindSql(*t, "SELECT full FROM t").answer_from_metadata);
  EXPECT_EQ(Csv(t, "SELECT count(*), count(full) FROM t"), "count_star(),count(full)\n6,6\n");
}

TEST(SelectRules, ShortStringKeysAreHashedAsPackedIntegers) {
  // s: at most 1 byte; m: at most 3 (a two-byte character among them); l: 8 bytes, too long.
  Column s(TypeId::kString), m(TypeId::kString), l(TypeId::kString), v(TypeId::kInt32);
  std::string error;
  const char* ss[] = {"A", "", "N", "A"};
  const char* ms[] = {"ab", "\xc3\xa9", "abc", "ab"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(i == 2 ? s.AppendNull(&error) : s.AppendString(ss[i], &error));
    EXPECT_TRUE(m.AppendString(ms[i], &error));
    EXPECT_TRUE(l.AppendString(i % 2 ? "abcdefgh" : "x", &error));
    EXPECT_TRUE(v.Append<int32_t>(static_cast<int32_t>(i), &error));
  }
  auto t = std::make_shared<Table>();
  EXPECT_TRUE(t->AddColumn("s", std::move(s), &error) && t->AddColumn("m", std::move(m), &error) &&
              t->AddColumn("l", std::move(l), &error) && t->AddColumn("v", std::move(v), &error));
  const std::string sql = "SELECT s, m, l, sum(v) FROM t GROUP BY s, m, l HAVING s IS NULL OR s <> 'Z' ORDER BY m, s, l";
  const plan::Plan before = BindSql(*t, sql, false);
  for (const auto& key : before.group_keys) EXPECT_EQ(key->type, TypeId::kString);
  const plan::Plan after = BindSql(*t, sql);
  ASSERT_EQ(after.group_keys.size(), 3u);
  EXPECT_EQ(after.group_keys[0]->type, TypeId::kUInt16);
  EXPECT_EQ(after.group_keys[0]->scalar, plan::ScalarFn::kPackShortString);
  EXPECT_EQ(after.group_keys[1]->type, TypeId::kUInt32);
  EXPECT_EQ(after.group_keys[2]->type, TypeId::kString);  // 8 bytes: hashed as a string
  // What reads the keys per group reads them unpacked, as strings.
  EXPECT_EQ(after.outputs[0]->type, TypeId::kString);
  EXPECT_EQ(after.outputs[0]->scalar, plan::ScalarFn::kUnpackShortString);
  EXPECT_EQ(after.outputs[2]->kind, plan::BoundKind::kColumn);
  // (CSV: NULL is empty, the empty string "".)
  EXPECT_EQ(Csv(t, sql), "s,m,l,sum(v)\nA,ab,abcdefgh,3\nA,ab,x,0\n,abc,x,2\n\"\",\xc3\xa9,abcdefgh,1\n");
}

// The kinds of the calls down a bound expression's first arguments and both sides of ORs.
std::string Shape(const plan::BoundExpr& e) {
  if (e.kind != plan::BoundKind::kCall) return e.kind == plan::BoundKind::kColumn ? "col" : "const";
  std::string name = e.fn == plan::Fn::kOr ? "or" : e.fn == plan::Fn::kNot ? "not" : e.fn == plan::Fn::kLike ? "like"
                   : e.fn == plan::Fn::kInList ? "in" : e.fn == plan::Fn::kEquals ? "eq" : "call";
  if (e.fn == plan::Fn::kLike) return name + "(" + Shape(*e.args[0]) + "," + e.args[1]->constant.text + ")";
  std::string out = name + "(";
  for (size_t i = 0; i < e.args.size(); ++i) out += (i ? "," : "") + Shape(*e.args[i]);
  return out + ")";
}

TEST(SelectRules, SubstringPrefixesInAListBecomePrefixLikes) {
  Column s(TypeId::kString);
  std::string error;
  for (const char* v : {"13-555", "31-1", "1", "", "\xc3\xa9x-7", "17", "1_-2", "23"}) {
    ASSERT_TRUE(s.AppendString(v, &error)) << error;
  }
  ASSERT_TRUE(s.AppendNull(&error));
  auto t = std::make_shared<Table>();
  ASSERT_TRUE(t->AddColumn("s", std::move(s), &error)) << error;
  auto where = [&](const std::string& condition) {
    const plan::Plan plan = BindSql(*t, "SELECT s FROM t WHERE " + condition);
    return plan.where ? Shape(*plan.where) : std::string("none");
  };
  EXPECT_EQ(where("substring(s, 1, 2) IN ('13', '31', '\xc3\xa9x')"),
            "or(or(like(col,13%),like(col,31%)),like(col,\xc3\xa9x%))");
  EXPECT_EQ(where("substring(s, 1, 2) NOT IN ('13', '17')"), "not(or(like(col,13%),like(col,17%)))");
  EXPECT_EQ(where("'23' = substring(s, 1, 2)"), "like(col,23%)");
  // Kept: a literal of another length, a wildcard in a literal, a start other than 1.
  EXPECT_EQ(where("substring(s, 1, 2) IN ('13', '1')"), "in(call(col,const,const),const,const)");
  EXPECT_EQ(where("substring(s, 1, 2) IN ('1_')"), "in(call(col,const,const),const)");
  EXPECT_EQ(where("substring(s, 2, 2) = '3-'"), "eq(call(col,const,const),const)");
  // The answers, as DuckDB gives them (a NULL s is in no answer; '1' is 1 code point).
  const std::string q = "SELECT s FROM t WHERE substring(s, 1, 2) ";
  EXPECT_EQ(Csv(t, q + "IN ('13', '31', '\xc3\xa9x', '17') ORDER BY s"), "s\n13-555\n17\n31-1\n\xc3\xa9x-7\n");
  EXPECT_EQ(Csv(t, q + "NOT IN ('13', '31', '17') ORDER BY s"), "s\n\"\"\n1\n1_-2\n23\n\xc3\xa9x-7\n");
  EXPECT_EQ(Csv(t, q + "IN ('1_', '23') ORDER BY s"), "s\n1_-2\n23\n");
  EXPECT_EQ(Csv(t, "SELECT count(*) FROM t WHERE substring(s, 1, 1) = '1'"), "count_star()\n4\n");
}

}  // namespace
}  // namespace laneql
