// Visits every expression of a syntax tree, subqueries included (ast_walk.cc).
#ifndef LANEQL_SQL_AST_WALK_H_
#define LANEQL_SQL_AST_WALK_H_

#include <functional>

#include "src/sql/ast.h"

namespace laneql {
namespace sql {

// Calls visit(slot) for every non-null expression slot under `slot` (itself first, then its
// operands, then the expressions of its subquery), parents before children. `visit` may
// replace *slot; the walk then goes on into the replacement.
using ExprVisitor = std::function<void(ExprPtr* slot)>;
void WalkExprs(ExprPtr* slot, const ExprVisitor& visit);
// The same for every expression of a query: its CTEs, SELECT clauses, FROM items (derived
// tables, VALUES rows, ON conditions, table function options), set-operation branches and
// ORDER BY.
void WalkExprs(QueryNode* query, const ExprVisitor& visit);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_AST_WALK_H_
