// Small pieces the query planner, its optimizer rules and the query tree runner use to read and rewrite syntax trees (query_ast.cc):
// conjunct lists, located errors, column references, subquery search.
#ifndef LANEQL_PLAN_QUERY_AST_H_
#define LANEQL_PLAN_QUERY_AST_H_

#include <string>
#include <vector>

#include "laneql/result.h"
#include "src/sql/ast.h"

namespace laneql {
namespace plan {

// "<kind> error at line L, column C: <message>" with the position in the Result.
Result ErrorAt(sql::SourcePos pos, const std::string& kind, const std::string& message);

// a AND b AND c -> [a, b, c] (moved out of `expr`).
void SplitAnd(sql::ExprPtr expr, std::vector<sql::ExprPtr>* out);
// The inverse; null for an empty list.
sql::ExprPtr JoinAnd(std::vector<sql::ExprPtr> terms);
// left <op> right.
sql::ExprPtr MakeBinary(sql::BinaryOp op, sql::ExprPtr left, sql::ExprPtr right);
// [qualifier.]name at `pos`.
sql::ExprPtr MakeColumnRef(const std::string& qualifier, const std::string& name, sql::SourcePos pos);
// Whether `expr` calls an aggregate (count, sum, avg, min, max) outside a subquery.
bool ContainsAggregate(const sql::Expr* expr);
// Whether a SELECT aggregates its rows: GROUP BY (or ALL), HAVING, or an aggregate in its list.
bool Aggregates(const sql::SelectStatement& select);
// Whether `expr` is an aggregate call (count, sum, avg, min, max).
bool IsAggregateCall(const sql::Expr& expr);
// The first node holding a subquery (scalar, EXISTS, IN, ANY / ALL), or null.
const sql::Expr* FindAnySubquery(const sql::Expr* expr);

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_QUERY_AST_H_
