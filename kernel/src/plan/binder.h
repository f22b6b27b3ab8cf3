// The binder: a parsed SELECT -> a typed logical Plan (src/plan/bound_expr.h), constants
// folded; the optimizer's rules over one SELECT (optimize::OptimizeSelect) then rewrite it.
#ifndef LANEQL_PLAN_BINDER_H_
#define LANEQL_PLAN_BINDER_H_

#include <functional>
#include <string>
#include <string_view>

#include "laneql/table.h"
#include "src/plan/bound_expr.h"
#include "src/sql/ast.h"

namespace laneql {
namespace plan {

struct BindError {
  // "binder error at line L, column C: <what>" (or "type error", "conversion error").
  std::string message;
  int line = 0;
  int column = 0;
};

// The name of a SELECT item without an alias, as DuckDB names it (a column's name, count_star(),
// else the expression's text).
std::string DefaultOutputName(const sql::Expr& expr);

using TableResolver = std::function<const Table*(std::string_view name)>;

bool BindSelect(const sql::SelectStatement& statement, const TableResolver& tables, Plan* plan,
                BindError* error);

// The columns of a relation made from several sources (a join) or renamed ones (a subquery, a
// CTE): for each column of the table, the source name (alias) that qualifies it and the name
// queries use. Hidden columns (the right side's copies of USING / NATURAL keys) are found by
// qualified names only and never expanded by *.
struct ScopeColumn {
  std::string qualifier;
  std::string name;
  bool hidden = false;
};
using ColumnScope = std::vector<ScopeColumn>;

// BindSelect over `table` (the statement's FROM already made into it), naming its columns by
// `scope` (one entry per table column).
bool BindSelectOver(const sql::SelectStatement& statement, const Table* table,
                    const ColumnScope& scope, Plan* plan, BindError* error);

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_BINDER_H_
