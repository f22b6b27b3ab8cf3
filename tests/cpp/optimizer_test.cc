// Each optimizer rule (src/optimize/) on a plan built by hand: the plan's EXPLAIN text before
// and after the rule.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "src/optimize/optimizer.h"
#include "src/plan/logical_operator.h"
#include "src/sql/parser.h"
#include "src/storage/table_statistics.h"
#include "src/optimize/estimates.h"

namespace laneql {
namespace {

using plan::LogicalKind;
using plan::LogicalPtr;

sql::ExprPtr Parse(const std::string& text) {
  sql::ExprPtr expr;
  sql::ParseError error;
  EXPECT_TRUE(sql::ParseExpression(text, &expr, &error)) << text << ": " << error.ToString();
  return expr;
}

// A Get of `rows` rows over INTEGER columns named `columns`, qualified by `name`, each holding
// row % distinct (every row distinct when 0).
LogicalPtr Get(const std::string& name, const std::vector<std::string>& columns, size_t rows,
               const std::vector<std::string>& filters = {}, size_t distinct = 0) {
  auto table = std::make_shared<Table>();
  std::string error;
  for (const std::string& column_name : columns) {
    Column column(TypeId::kInt32);
    for (size_t r = 0; r < rows; ++r) {
      EXPECT_TRUE(column.Append(static_cast<int32_t>(distinct == 0 ? r : r % distinct), &error));
    }
    EXPECT_TRUE(table->AddColumn(column_name, std::move(column), &error)) << error;
  }
  LogicalPtr get = plan::MakeLogical(LogicalKind::kGet);
  get->source = name;
  get->table = table;
  for (size_t i = 0; i < columns.size(); ++i) {
    get->scope.push_back(plan::ScopeColumn{name, columns[i], false});
    get->columns.push_back(i);
  }
  for (const std::string& f : filters) get->conditions.push_back(Parse(f));
  get->estimated_rows = static_cast<double>(rows);
  return get;
}

LogicalPtr Filter(LogicalPtr child, const std::vector<std::string>& conditions) {
  LogicalPtr filter = plan::MakeLogical(LogicalKind::kFilter);
  filter->scope = child->scope;
  for (const std::string& c : conditions) filter->conditions.push_back(Parse(c));
  filter->children.push_back(std::move(child));
  return filter;
}

LogicalPtr Join(sql::JoinType type, LogicalPtr left, LogicalPtr right,
                const std::vector<std::string>& conditions = {}) {
  LogicalPtr join = plan::MakeLogical(LogicalKind::kJoin);
  join->join_type = type;
  join->scope = left->scope;
  if (type != sql::JoinType::kSemi && type != sql::JoinType::kAnti) {
    join->scope.insert(join->scope.end(), right->scope.begin(), right->scope.end());
  }
  for (const std::string& c : conditions) join->conditions.push_back(Parse(c));
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  return join;
}

// The SELECT's projection on top, as the planner puts it.
LogicalPtr Project(LogicalPtr child, const std::vector<std::string>& items) {
  LogicalPtr project = plan::MakeLogical(LogicalKind::kProject);
  project->select_clause = true;
  project->scope = child->scope;
  for (const std::string& item : items) {
    if (item == "*") {  // a select list's star, which ParseExpression does not read
      project->exprs.push_back(std::make_unique<sql::Expr>());
      project->exprs.back()->kind = sql::ExprKind::kStar;
    } else {
      project->exprs.push_back(Parse(item));
    }
  }
  project->children.push_back(std::move(child));
  return project;
}

// EXPLAIN text without the estimates (rules other than cardinality do not set them).
std::string Text(const LogicalPtr& root) {
  std::string text = plan::ExplainText(*root), out;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    std::string line = text.substr(begin, end - begin);
    const size_t estimate = line.find("  (~");
    if (estimate != std::string::npos) line.resize(estimate);
    out += line + "\n";
    begin = end + 1;
  }
  return out;
}

TEST(OptimizerRules, ConstantConditionsAreDroppedOrStandAlone) {
  LogicalPtr root = Project(Filter(Get("a", {"x"}, 10), {"TRUE", "1 = 1", "a.x > 2"}), {"a.x"});
  EXPECT_EQ(Text(root), "PROJECT a.x\n  FILTER TRUE AND (1 = 1) AND (a.x > 2)\n    GET a\n");
  optimize::FoldConstantConditions(&root);
  EXPECT_EQ(Text(root), "PROJECT a.x\n  FILTER (a.x > 2)\n    GET a\n");

  root = Project(Filter(Get("a", {"x"}, 10), {"a.x > 2", "0 <> 0", "a.x < 5"}), {"a.x"});
  optimize::FoldConstantConditions(&root);
  EXPECT_EQ(Text(root), "PROJECT a.x\n  FILTER (0 <> 0)\n    GET a\n");

  root = Project(Filter(Get("a", {"x"}, 10), {"NOT FALSE"}), {"a.x"});
  optimize::FoldConstantConditions(&root);
  EXPECT_EQ(Text(root), "PROJECT a.x\n  GET a\n");  // the filter is gone
}

TEST(OptimizerRules, NotNullOfAColumnWithoutNullsGoes) {
  // a.x has no NULLs (no validity bitmap), a.y has one.
  auto table = std::make_shared<Table>();
  Column x(TypeId::kInt32), y(TypeId::kInt32);
  std::string error;
  for (int r = 0; r < 10; ++r) {
    ASSERT_TRUE(x.Append(int32_t{r}, &error)) << error;
    ASSERT_TRUE(r == 3 ? y.AppendNull(&error) : y.Append(int32_t{r}, &error)) << error;
  }
  ASSERT_TRUE(table->AddColumn("x", std::move(x), &error) && table->AddColumn("y", std::move(y), &error)) << error;
  LogicalPtr root = Get("a", {"x", "y"}, 0,
                        {"a.x IS NOT NULL", "a.y IS NOT NULL", "x IS NOT NULL", "a.x IS NULL", "a.x + 1 IS NOT NULL",
                         "a.x > 2"});
  root->table = table;
  optimize::DropNotNullOfColumnsWithoutNulls(&root);
  EXPECT_EQ(Text(root),
            "GET a filters: (a.y IS NOT NULL) AND (a.x IS NULL) AND ((a.x + 1) IS NOT NULL) AND (a.x > 2)\n");
  // The same condition in a FILTER above a join is left to filter pushdown.
  root = Filter(Join(sql::JoinType::kCross, Get("a", {"x"}, 10), Get("b", {"x"}, 10)), {"a.x IS NOT NULL"});
  optimize::DropNotNullOfColumnsWithoutNulls(&root);
  EXPECT_EQ(Text(root), "FILTER (a.x IS NOT NULL)\n  CROSS JOIN\n    GET a\n    GET b\n");
}

TEST(OptimizerRules, CommonTermsOfAnOrBecomeConditions) {
  LogicalPtr root = Filter(Join(sql::JoinType::kCross, Get("a", {"x", "z"}, 10), Get("b", {"y", "w"}, 10)),
                           {"(a.x = b.y AND a.z > 1) OR (a.x = b.y AND b.w < 2)"});
  optimize::FactorOrConditions(&root);
  EXPECT_EQ(Text(root),
            "FILTER (a.x = b.y) AND ((a.z > 1) OR (b.w < 2))\n"
            "  CROSS JOIN\n    GET a\n    GET b\n");
  // A branch made only of common terms makes the OR always true when they are.
  root = Filter(Get("a", {"x", "z"}, 10), {"(a.x = 1) OR (a.x = 1 AND a.z = 2)"});
  optimize::FactorOrConditions(&root);
  EXPECT_EQ(Text(root), "FILTER (a.x = 1)\n  GET a\n");
}

TEST(OptimizerRules, FiltersMoveIntoScansAndJoinKeys) {
  LogicalPtr root = Project(Filter(Join(sql::JoinType::kCross, Get("a", {"x", "z"}, 10), Get("b", {"y", "w"}, 10)),
                                   {"a.x = b.y", "a.z > 1", "b.w < 2", "a.z + b.w > 3", "nope = 1"}),
                            {"a.x"});
  optimize::PushDownFilters(&root);
  EXPECT_EQ(Text(root),
            "PROJECT a.x\n"
            "  FILTER (nope = 1)\n"  // an unknown name stays for the binder to report
            "    INNER JOIN ON a.x = b.y AND ((a.z + b.w) > 3)\n"
            "      GET a filters: (a.z > 1)\n"
            "      GET b filters: (b.w < 2)\n");
}

TEST(OptimizerRules, AnOrOverBothSidesFiltersEachSideByWhatItImplies) {
  LogicalPtr root = Project(Filter(Join(sql::JoinType::kCross, Get("a", {"x"}, 10), Get("b", {"y"}, 10)),
                                   {"(a.x = 1 AND b.y = 2) OR (a.x = 3 AND b.y = 4)", "(a.x = 5) OR (b.y = 6)"}),
                            {"a.x"});
  optimize::PushDownFilters(&root);
  // The ORs stay on the join; each side is filtered by the OR of its own terms, where every
  // branch has some (the second OR implies nothing for either side alone).
  EXPECT_EQ(Text(root),
            "PROJECT a.x\n"
            "  INNER JOIN ON (((a.x = 1) AND (b.y = 2)) OR ((a.x = 3) AND (b.y = 4))) AND ((a.x = 5) OR (b.y = 6))\n"
            "    GET a filters: ((a.x = 1) OR (a.x = 3))\n"
            "    GET b filters: ((b.y = 2) OR (b.y = 4))\n");
}

TEST(OptimizerRules, OuterJoinsPassConditionsOnTheirPreservedSideOnly) {
  LogicalPtr root = Project(Filter(Join(sql::JoinType::kLeft, Get("a", {"x"}, 10), Get("b", {"y"}, 10),
                                        {"b.y > 5", "a.x > 7"}),
                                   {"a.x < 3", "b.y IS NULL"}),
                            {"a.x"});
  optimize::PushDownFilters(&root);
  // WHERE on the left side goes down; WHERE on the padded side stays above; the ON condition on
  // the right side filters it first; ON on the left side decides matches and stays.
  EXPECT_EQ(Text(root),
            "PROJECT a.x\n"
            "  FILTER (b.y IS NULL)\n"
            "    LEFT JOIN ON (a.x > 7)\n"
            "      GET a filters: (a.x < 3)\n"
            "      GET b filters: (b.y > 5)\n");
  root = Project(Filter(Join(sql::JoinType::kFull, Get("a", {"x"}, 10), Get("b", {"y"}, 10), {"b.y > 5"}),
                        {"a.x < 3"}),
                 {"a.x"});
  optimize::PushDownFilters(&root);
  EXPECT_EQ(Text(root), "PROJECT a.x\n  FILTER (a.x < 3)\n    FULL JOIN ON (b.y > 5)\n      GET a\n      GET b\n");
}

TEST(OptimizerRules, RightJoinsBecomeLeftJoinsOfTheSwappedSides) {
  LogicalPtr join = Join(sql::JoinType::kRight, Get("a", {"x"}, 10), Get("b", {"y"}, 20), {"a.x < b.y"});
  join->left_keys.push_back(Parse("a.x"));
  join->right_keys.push_back(Parse("b.y"));
  LogicalPtr root = Project(std::move(join), {"*"});
  optimize::RightJoinsAsLeft(&root);
  // b (preserved) probes; the projection restores a's column before b's for the star.
  EXPECT_EQ(Text(root),
            "PROJECT *\n"
            "  PROJECT columns in FROM order\n"
            "    LEFT JOIN ON b.y = a.x AND (a.x < b.y)\n"
            "      GET b\n"
            "      GET a\n");
  const plan::LogicalOperator& reorder = *root->children[0];
  ASSERT_EQ(reorder.scope.size(), 2u);
  EXPECT_EQ(reorder.scope[0].qualifier, "a");
  EXPECT_EQ(reorder.children[0]->scope[0].qualifier, "b");
  // Not without keys, not with USING, not where two columns share a qualifier and name.
  LogicalPtr cross = Project(Join(sql::JoinType::kRight, Get("a", {"x"}, 10), Get("b", {"y"}, 20), {"a.x < b.y"}), {"*"});
  const std::string before = Text(cross);
  optimize::RightJoinsAsLeft(&cross);
  EXPECT_EQ(Text(cross), before);
  LogicalPtr same = Join(sql::JoinType::kRight, Get("", {"x"}, 10), Get("", {"x"}, 20));
  same->left_keys.push_back(Parse("x"));
  same->right_keys.push_back(Parse("x"));
  optimize::RightJoinsAsLeft(&same);
  EXPECT_EQ(same->kind, LogicalKind::kJoin);
  EXPECT_EQ(same->join_type, sql::JoinType::kRight);
}

TEST(OptimizerRules, OuterJoinsBuildOnTheirSmallerSide) {
  // a (10 rows) LEFT JOIN b (100 rows): a, the preserved side, builds; b probes.
  LogicalPtr join = Join(sql::JoinType::kLeft, Get("a", {"x"}, 10), Get("b", {"y"}, 100), {"a.x < b.y"});
  join->left_keys.push_back(Parse("a.x"));
  join->right_keys.push_back(Parse("b.y"));
  LogicalPtr root = Project(std::move(join), {"*"});
  optimize::BuildOuterJoinsOnSmallerSide(&root);
  EXPECT_EQ(Text(root),
            "PROJECT *\n"
            "  PROJECT columns in FROM order\n"
            "    RIGHT JOIN ON b.y = a.x AND (a.x < b.y)\n"
            "      GET b\n"
            "      GET a\n");
  // A RIGHT join made LEFT by RightJoinsAsLeft, its preserved side small: back to RIGHT, and
  // the two FROM-order projections cancel out.
  join = Join(sql::JoinType::kRight, Get("b", {"y"}, 100), Get("a", {"x"}, 10));
  join->left_keys.push_back(Parse("b.y"));
  join->right_keys.push_back(Parse("a.x"));
  root = Project(std::move(join), {"*"});
  optimize::RightJoinsAsLeft(&root);
  optimize::BuildOuterJoinsOnSmallerSide(&root);
  EXPECT_EQ(Text(root), "PROJECT *\n  RIGHT JOIN ON b.y = a.x\n    GET b\n    GET a\n");
  // FULL joins swap too; a LEFT join whose preserved side is not under half the other stays.
  join = Join(sql::JoinType::kFull, Get("a", {"x"}, 10), Get("b", {"y"}, 100));
  join->left_keys.push_back(Parse("a.x"));
  join->right_keys.push_back(Parse("b.y"));
  optimize::BuildOuterJoinsOnSmallerSide(&join);
  EXPECT_EQ(Text(join), "PROJECT columns in FROM order\n  FULL JOIN ON b.y = a.x\n    GET b\n    GET a\n");
  join = Join(sql::JoinType::kLeft, Get("a", {"x"}, 60), Get("b", {"y"}, 100));
  join->left_keys.push_back(Parse("a.x"));
  join->right_keys.push_back(Parse("b.y"));
  const std::string before = Text(join);
  optimize::BuildOuterJoinsOnSmallerSide(&join);
  EXPECT_EQ(Text(join), before);
  // Not without keys (a nested-loop join), nor for USING.
  LogicalPtr cross = Join(sql::JoinType::kLeft, Get("a", {"x"}, 10), Get("b", {"y"}, 100), {"a.x < b.y"});
  const std::string cross_before = Text(cross);
  optimize::BuildOuterJoinsOnSmallerSide(&cross);
  EXPECT_EQ(Text(cross), cross_before);
  LogicalPtr using_join = Join(sql::JoinType::kLeft, Get("a", {"x"}, 10), Get("b", {"x"}, 100));
  using_join->left_keys.push_back(Parse("a.x"));
  using_join->right_keys.push_back(Parse("b.x"));
  using_join->using_columns.push_back("x");
  optimize::BuildOuterJoinsOnSmallerSide(&using_join);
  EXPECT_EQ(using_join->join_type, sql::JoinType::kLeft);
}

TEST(OptimizerRules, CardinalityFromRowsStatisticsAndConditions) {
  // a: 1,000 rows, x with 50 distinct values; b: 300 rows, every y distinct.
  LogicalPtr root =
      Join(sql::JoinType::kInner, Get("a", {"x"}, 1000, {"a.x = 5"}, 50), Get("b", {"y"}, 300, {"b.y + 0 < 9"}));
  root->left_keys.push_back(Parse("a.x"));
  root->right_keys.push_back(Parse("b.y"));
  optimize::EstimateCardinality(root.get());
  EXPECT_DOUBLE_EQ(root->children[0]->estimated_rows, 20);   // equality: 1 / distinct
  EXPECT_DOUBLE_EQ(root->children[1]->estimated_rows, 100);  // a range over no column: 1/3
  // Each of a's 20 rows meets 100 / max(20, 100) of b's: distinct counts capped by the rows.
  EXPECT_DOUBLE_EQ(root->estimated_rows, 20);
  EXPECT_DOUBLE_EQ(optimize::EstimateDistinct(*root->children[0], *Parse("a.x")), 20);
  EXPECT_DOUBLE_EQ(optimize::EstimateDistinct(*root->children[1], *Parse("b.y")), 100);
  root->left_keys.clear();
  root->right_keys.clear();
  root->join_type = sql::JoinType::kCross;
  optimize::EstimateCardinality(root.get());
  EXPECT_DOUBLE_EQ(root->estimated_rows, 20 * 100);
}

TEST(OptimizerRules, RangesFromTheSampledMinAndMax) {
  // x holds 0 .. 9,999: a range keeps its share of [min, max]; the conditions on one column
  // are one interval (not a product: x >= 1000 AND x < 2000 is 10 %, not 90 % x 20 %).
  auto rows = [](const std::vector<std::string>& filters) {
    LogicalPtr get = Get("t", {"x"}, 10000, filters);
    optimize::EstimateCardinality(get.get());
    return get->estimated_rows;
  };
  EXPECT_NEAR(rows({"t.x < 2500"}), 2500, 10);
  EXPECT_NEAR(rows({"2500 > t.x"}), 2500, 10);  // the constant on the left
  EXPECT_NEAR(rows({"t.x >= 1000", "t.x < 2000"}), 1000, 10);
  EXPECT_NEAR(rows({"t.x BETWEEN 9000 AND 20000"}), 1000, 10);  // clipped to the range
  EXPECT_NEAR(rows({"t.x > 1000", "t.x < 500"}), 1, 0.5);      // nothing: one value's share
  EXPECT_NEAR(rows({"t.x < 2500", "t.x <> 7"}), 2500 * 0.9, 10);  // with another condition
  EXPECT_NEAR(rows({"t.x + 1 < 2500"}), 10000.0 / 3, 1);       // no column: the 1/3 guess
  Column dates(TypeId::kDate32), strings(TypeId::kString);
  std::string error;
  for (int32_t d = 0; d < 3650; ++d) {  // 1970-01-01 .. 1979-12-30
    ASSERT_TRUE(dates.Append(d, &error));
    ASSERT_TRUE(strings.AppendString(std::to_string(d), &error));
  }
  const ColumnStatistics date_stats = ComputeColumnStatistics(dates);
  ASSERT_TRUE(date_stats.has_range);
  EXPECT_LE(date_stats.min, 2);  // a stratified sample of 3,650 rows takes them all
  EXPECT_GE(date_stats.max, 3647);
  EXPECT_FALSE(ComputeColumnStatistics(strings).has_range);
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("d", std::move(dates), &error));
  LogicalPtr get = plan::MakeLogical(LogicalKind::kGet);
  get->table = table;
  get->scope.push_back(plan::ScopeColumn{"t", "d", false});
  get->columns.push_back(0);
  get->conditions.push_back(Parse("d >= DATE '1971-01-01'"));
  get->conditions.push_back(Parse("d < DATE '1972-01-01'"));
  optimize::EstimateCardinality(get.get());
  EXPECT_NEAR(get->estimated_rows, 365, 5);
}

TEST(OptimizerRules, DistinctCountsFromASample) {
  Column unique(TypeId::kInt64), repeated(TypeId::kInt64), strings(TypeId::kString);
  std::string error;
  for (int64_t r = 0; r < 100000; ++r) {
    ASSERT_TRUE(unique.Append(r, &error));
    ASSERT_TRUE(repeated.Append(r % 5000, &error));
    ASSERT_TRUE(r % 4 == 0 ? strings.AppendNull(&error) : strings.AppendString(std::to_string(r % 10), &error));
  }
  EXPECT_DOUBLE_EQ(ComputeColumnStatistics(unique).distinct, 100000);  // nothing repeats: unique
  const double d = ComputeColumnStatistics(repeated).distinct;
  EXPECT_GT(d, 2500);  // 5,000 true: Duj1 within a factor of 2 on a 4,096-row sample
  EXPECT_LT(d, 10000);
  const ColumnStatistics s = ComputeColumnStatistics(strings);
  EXPECT_NEAR(s.null_fraction, 0.25, 0.03);  // 4 standard errors of a 4,096-row sample
  EXPECT_NEAR(s.distinct, 10, 1);
  EXPECT_DOUBLE_EQ(ComputeColumnStatistics(Column(TypeId::kInt32)).distinct, 0);  // empty
}

// Over 2^20 rows, stratum i's bounds i * n / 4096 pass 2^32: in wasm32 (32-bit size_t) they
// once wrapped, so the sample read rows past the column's end (a trap in TPC-H SF 1's joins,
// lineitem and orders being over 2^20 rows) or only the first 2^20 rows. `make
// test-wasm-kernels` runs this in wasm32; natively it pins what the sample must cover.
TEST(OptimizerRules, SampleSpansColumnsOverAMillionRows) {
  constexpr int32_t kRows = 3'000'000;
  Column numbers(TypeId::kInt32), strings(TypeId::kString);
  std::string error;
  for (int32_t r = 0; r < kRows; ++r) {
    ASSERT_TRUE(numbers.Append(r, &error));
    ASSERT_TRUE(strings.AppendString(std::to_string(r % 1000), &error));
  }
  const ColumnStatistics n = ComputeColumnStatistics(numbers);
  ASSERT_TRUE(n.has_range);
  EXPECT_GE(n.min, 0);
  EXPECT_LE(n.min, kRows / 4096);           // from the first stratum
  EXPECT_GE(n.max, kRows - kRows / 4096);   // and from the last one
  EXPECT_LT(n.max, kRows);
  EXPECT_DOUBLE_EQ(n.distinct, kRows);      // nothing repeats
  EXPECT_NEAR(ComputeColumnStatistics(strings).distinct, 1000, 50);
}

TEST(OptimizerRules, JoinsStartSmallFollowEqualitiesAndBuildTheSmallerSide) {
  // FROM big, mid, small WHERE big.m = mid.m AND mid.s = small.s AND big.x > small.x
  LogicalPtr from = Join(sql::JoinType::kInner,
                         Join(sql::JoinType::kInner, Get("big", {"m", "x"}, 100000), Get("mid", {"m", "s"}, 1000)),
                         Get("small", {"s", "x"}, 10));
  from->children[0]->left_keys.push_back(Parse("big.m"));
  from->children[0]->right_keys.push_back(Parse("mid.m"));
  from->left_keys.push_back(Parse("mid.s"));
  from->right_keys.push_back(Parse("small.s"));
  from->conditions.push_back(Parse("big.x > small.x"));
  LogicalPtr root = Project(std::move(from), {"big.x"});
  optimize::EstimateCardinality(root.get());
  optimize::OrderJoins(&root);
  EXPECT_EQ(Text(root),
            "PROJECT big.x\n"
            "  PROJECT columns in FROM order\n"
            "    INNER JOIN ON big.m = mid.m AND (big.x > small.x)\n"
            "      GET big\n"
            "      INNER JOIN ON mid.s = small.s\n"
            "        GET mid\n"
            "        GET small\n");
  // The projection lists the FROM order again.
  const plan::ColumnScope& scope = root->children[0]->scope;
  ASSERT_EQ(scope.size(), 6u);
  EXPECT_EQ(scope[0].qualifier + "." + scope[0].name, "big.m");
  EXPECT_EQ(scope[5].qualifier + "." + scope[5].name, "small.x");
}

TEST(OptimizerRules, SemiJoinsMoveToTheInputTheyFilterWhenTheirSideIsSmaller) {
  auto plan = [](size_t semi_rows) {
    LogicalPtr inner = Join(sql::JoinType::kInner, Get("a", {"k", "x"}, 1000), Get("b", {"k"}, 1000));
    inner->left_keys.push_back(Parse("a.k"));
    inner->right_keys.push_back(Parse("b.k"));
    LogicalPtr semi = Join(sql::JoinType::kSemi, std::move(inner), Get("s", {"v"}, semi_rows));
    semi->left_keys.push_back(Parse("a.x"));
    semi->right_keys.push_back(Parse("s.v"));
    LogicalPtr root = Project(std::move(semi), {"a.x"});
    optimize::EstimateCardinality(root.get());
    optimize::PushDownSemiJoins(&root);
    return Text(root);
  };
  // a.x IN (10 values) filters a before a meets b.
  EXPECT_EQ(plan(10),
            "PROJECT a.x\n  INNER JOIN ON a.k = b.k\n    SEMI JOIN ON a.x = s.v\n      GET a\n      GET s\n    GET b\n");
  // Against 5,000 rows the semi join stays above, where fewer rows probe it.
  EXPECT_EQ(plan(5000),
            "PROJECT a.x\n  SEMI JOIN ON a.x = s.v\n    INNER JOIN ON a.k = b.k\n      GET a\n      GET b\n    GET s\n");
}

TEST(OptimizerRules, ScansKeepOnlyTheColumnsNamed) {
  LogicalPtr join = Join(sql::JoinType::kInner, Get("a", {"k", "x", "unused"}, 10), Get("b", {"k", "y", "z"}, 10));
  join->left_keys.push_back(Parse("a.k"));
  join->right_keys.push_back(Parse("b.k"));
  LogicalPtr root = Project(std::move(join), {"x", "sum(b.y)"});
  optimize::PruneColumns(&root);
  EXPECT_EQ(Text(root),
            "PROJECT x, sum(b.y)\n  INNER JOIN ON a.k = b.k\n    GET a [2 of 3 columns]\n    GET b [2 of 3 columns]\n");
  EXPECT_EQ(root->children[0]->scope.size(), 4u);
  // count(*) alone keeps one column of each scan (its rows); a star keeps every column.
  root = Project(Get("a", {"k", "x"}, 10), {"count(*)"});
  optimize::PruneColumns(&root);
  EXPECT_EQ(Text(root), "PROJECT count(*)\n  GET a [1 of 2 columns]\n");
  root = Project(Get("a", {"k", "x"}, 10), {"*"});
  optimize::PruneColumns(&root);
  EXPECT_EQ(Text(root), "PROJECT *\n  GET a\n");
}

TEST(OptimizerRules, ColumnsOnlyAScansFilterReadsAreNotYielded) {
  // b.z is read by b's own filter alone: read there, not part of b's rows above (a join would
  // gather it for nothing); b.y is read by the filter and above, so it stays.
  LogicalPtr b = Get("b", {"k", "y", "z", "w"}, 10);
  b->conditions.push_back(Parse("b.z NOT LIKE '%x%'"));
  b->conditions.push_back(Parse("b.y > 1"));
  LogicalPtr join = Join(sql::JoinType::kInner, Get("a", {"k", "x"}, 10), std::move(b));
  join->left_keys.push_back(Parse("a.k"));
  join->right_keys.push_back(Parse("b.k"));
  LogicalPtr root = Project(std::move(join), {"x", "sum(b.y)"});
  optimize::PruneColumns(&root);
  EXPECT_EQ(Text(root),
            "PROJECT x, sum(b.y)\n  INNER JOIN ON a.k = b.k\n    GET a\n"
            "    GET b [2 of 4 columns, 1 more read by the filters] filters: (b.z NOT LIKE '%x%') AND (b.y > 1)\n");
  const plan::LogicalOperator& scan = *root->children[0]->children[1];
  ASSERT_EQ(scan.filter_scope.size(), 1u);
  EXPECT_EQ(scan.filter_scope[0].name, "z");
  EXPECT_EQ(root->children[0]->scope.size(), 4u);  // a.k, a.x, b.k, b.y
  // Pruned again (the optimizer runs more than once): the same.
  optimize::PruneColumns(&root);
  EXPECT_EQ(root->children[0]->children[1]->filter_scope.size(), 1u);
  EXPECT_EQ(root->children[0]->scope.size(), 4u);
  // A count(*) over a filtered scan yields one column for its rows.
  LogicalPtr c = Get("c", {"k", "x"}, 10);
  c->conditions.push_back(Parse("c.x > 1"));
  root = Project(std::move(c), {"count(*)"});
  optimize::PruneColumns(&root);
  EXPECT_EQ(root->children[0]->scope.size(), 1u);
  EXPECT_EQ(root->children[0]->scope.size() + root->children[0]->filter_scope.size(), 1u);
}

}  // namespace
}  // namespace laneql
