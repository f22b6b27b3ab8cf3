// Pieces the unnesting of correlated subqueries shares (query_decorrelate.cc, where they are
// defined, and query_subquery_marks.cc).
#ifndef LANEQL_EXEC_DECORRELATE_H_
#define LANEQL_EXEC_DECORRELATE_H_

#include <string>
#include <vector>

#include "src/exec/relation.h"
#include "src/plan/logical_operator.h"
#include "src/sql/ast.h"

namespace laneql {
namespace exec {

// The words that mark a subquery's failure as correlation (the cue to unnest it instead).
inline constexpr const char* kCorrelatedMarker = "correlated subqueries (that read the outer query's columns)";

// What PlanSelect says of a correlated subquery in an aggregate query's SELECT list (RunSelect
// then runs the query in two levels).
inline constexpr const char* kAggregateCorrelated =
    "a correlated subquery in the SELECT list of a query with GROUP BY or aggregates";

// Whether a subquery's error says it names columns it does not have: the outer query's.
bool LooksCorrelated(const Result& result);

// The index of the scope entry a column reference names (qualified: that qualifier's; not: the
// first visible column of that name), or -1.
int LookupScopeColumn(const sql::Expr& ref, const plan::ColumnScope& scope);
// CAST('value' AS type) of column[row] (CAST(NULL AS type) for a NULL), placed at `at`: a value
// put into a query as a literal of exactly its column's type.
sql::ExprPtr LiteralOf(const Column& column, size_t row, const sql::Expr& at);
// Whether unnesting a correlated subquery failed for a form it does not handle (the cue to run
// it once per distinct outer binding instead, ApplyPerBinding) rather than for an error of the
// query.
bool UnnestingUnsupported(const Result& error);

// A SELECT with FROM, LIMIT or OFFSET, and none of GROUP BY, HAVING, aggregates, DISTINCT,
// DISTINCT ON, ORDER BY ALL, CTEs or subqueries in ORDER BY (query_first_rows.cc): its rows per
// correlation key are the first ones in its order.
bool IsLimitedSelect(const sql::QueryNode& query);
// Whether every ORDER BY position (ORDER BY 2) names a SELECT item; else the query's run
// reports it, so no path that drops the ORDER BY may take it.
bool OrderPositionsValid(const sql::SelectStatement& select);
// `select` without ORDER BY, LIMIT and OFFSET; its ORDER BY expressions (positions and aliases
// resolved to their items) into *order_exprs and also listed as extra SELECT items.
sql::SelectStatement WithoutLimit(const sql::SelectStatement& select, std::vector<sql::ExprPtr>* order_exprs);

// Whether every Get of the tree reads a table (an ON clause's stand-in side has none yet), so
// that the tree can run now.
bool Runnable(const plan::LogicalOperator& op);

// Qualifies every column reference of `expr` (innermost first: `inner`, then `outer`) and says
// which side(s) it reads: bit 1 inner, bit 2 outer, bit 4 neither (an unknown name).
int Classify(sql::Expr* expr, const plan::ColumnScope& inner, const plan::ColumnScope& outer);
// A SELECT with FROM and no GROUP BY, HAVING, LIMIT, OFFSET, DISTINCT ON or CTEs.
bool IsSimpleSelect(const sql::QueryNode& query);
// `cond` an equality between an expression of the inner scope alone and one of the outer
// scope alone (after Classify): its inner side's slot (*outer_side the other's); else null.
sql::ExprPtr* InnerSideOfEquality(sql::Expr* cond, const plan::ColumnScope& inner, const plan::ColumnScope& outer,
                                  sql::ExprPtr** outer_side);
// Conditions tying a subquery's relation to the outer query, split: equalities between an
// outer and an inner expression become keys; the rest is residual.
struct Correlation {
  std::vector<sql::ExprPtr> outer_keys, inner_keys, residual;
};
Correlation Split(std::vector<sql::ExprPtr> conditions, const plan::ColumnScope& inner,
                  const plan::ColumnScope& outer);
// `*from` joined (`type`) with `right` on outer_keys[i] = inner_keys[i] and `residual`; a mark
// join's scope adds `mark` (its BOOLEAN column).
void JoinAbove(plan::LogicalPtr* from, plan::LogicalPtr right, sql::JoinType type,
               std::vector<sql::ExprPtr> outer_keys, std::vector<sql::ExprPtr> inner_keys,
               std::vector<sql::ExprPtr> residual, plan::ScopeColumn mark = {});

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_DECORRELATE_H_
