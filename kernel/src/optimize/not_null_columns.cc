// x IS NOT NULL in a scan's conditions, where x is a column of the scanned table that has no
// NULLs (no validity bitmap at all), holds on every row: the condition goes. NOT IN adds one
// such condition to its outer column (a NULL there makes NOT IN NULL): TPC-H Q16's partsupp
// scan then evaluated ps_suppkey IS NOT NULL on its 800,000 rows and handed the joins a
// selection of all of them instead of the table as it is.
#include <utility>
#include <vector>

#include "src/common/ascii.h"
#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {
namespace {

// The table column `ref` names among the scan's columns (its kept ones, then those only its
// conditions read), or -1 when it names none or more than one.
int TableColumnOf(const plan::LogicalOperator& scan, const sql::Expr& ref) {
  int found = -1;
  for (const auto& [scope, columns] : {std::make_pair(&scan.scope, &scan.columns),
                                      std::make_pair(&scan.filter_scope, &scan.filter_columns)}) {
    for (size_t k = 0; k < scope->size() && k < columns->size(); ++k) {
      const plan::ScopeColumn& column = (*scope)[k];
      if (!ref.qualifier.empty() ? !ascii::EqualsIgnoreCase(ref.qualifier, column.qualifier) : column.hidden) continue;
      if (!ascii::EqualsIgnoreCase(ref.text, column.name)) continue;
      const int at = static_cast<int>((*columns)[k]);
      if (found >= 0 && found != at) return -1;
      found = at;
    }
  }
  return found;
}

bool HoldsOnEveryRow(const plan::LogicalOperator& scan, const sql::Expr& condition) {
  if (condition.kind != sql::ExprKind::kIsNull || !condition.negated || condition.operand == nullptr ||
      condition.operand->kind != sql::ExprKind::kColumnRef) {
    return false;
  }
  const int at = TableColumnOf(scan, *condition.operand);
  if (at < 0 || static_cast<size_t>(at) >= scan.table->num_columns()) return false;
  const Column& column = scan.table->column(static_cast<size_t>(at));
  return column.validity() == nullptr && column.null_count() == 0;
}

}  // namespace

void DropNotNullOfColumnsWithoutNulls(plan::LogicalPtr* root) {
  plan::LogicalOperator& op = **root;
  for (plan::LogicalPtr& child : op.children) DropNotNullOfColumnsWithoutNulls(&child);
  if (op.kind != plan::LogicalKind::kGet || op.table == nullptr) return;
  std::vector<sql::ExprPtr> kept;
  for (sql::ExprPtr& condition : op.conditions) {
    if (!HoldsOnEveryRow(op, *condition)) kept.push_back(std::move(condition));
  }
  op.conditions = std::move(kept);
}

}  // namespace optimize
}  // namespace laneql
