// Depth is bounded by the parser's limits on expression height and query nesting, as for the
// other recursive passes over the tree.
#include "src/sql/ast_walk.h"

namespace laneql {
namespace sql {
namespace {

void WalkTableRef(TableRef* ref, const ExprVisitor& visit) {
  if (ref == nullptr) return;
  for (TableOption& option : ref->options) WalkExprs(&option.value, visit);
  if (ref->subquery) WalkExprs(ref->subquery.get(), visit);
  for (std::vector<ExprPtr>& row : ref->values) {
    for (ExprPtr& e : row) WalkExprs(&e, visit);
  }
  WalkTableRef(ref->left.get(), visit);
  WalkTableRef(ref->right.get(), visit);
  WalkExprs(&ref->on, visit);
}

void WalkOrder(std::vector<OrderItem>* order_by, const ExprVisitor& visit) {
  for (OrderItem& item : *order_by) WalkExprs(&item.expr, visit);
}

void WalkWindow(WindowSpec* spec, const ExprVisitor& visit) {
  for (ExprPtr& e : spec->partition_by) WalkExprs(&e, visit);
  WalkOrder(&spec->order_by, visit);
  WalkExprs(&spec->start.offset, visit);
  WalkExprs(&spec->end.offset, visit);
}

}  // namespace

void WalkExprs(ExprPtr* slot, const ExprVisitor& visit) {
  if (slot->get() == nullptr) return;
  visit(slot);
  Expr* expr = slot->get();
  if (expr == nullptr) return;
  WalkExprs(&expr->operand, visit);
  WalkExprs(&expr->left, visit);
  WalkExprs(&expr->right, visit);
  for (ExprPtr& arg : expr->args) WalkExprs(&arg, visit);
  for (CaseBranch& branch : expr->branches) {
    WalkExprs(&branch.when, visit);
    WalkExprs(&branch.then, visit);
  }
  WalkExprs(&expr->else_result, visit);
  if (expr->subquery) WalkExprs(expr->subquery.get(), visit);
  if (expr->window) WalkWindow(expr->window.get(), visit);
}

void WalkExprs(QueryNode* query, const ExprVisitor& visit) {
  for (CommonTableExpr& cte : query->ctes) {
    if (cte.query) WalkExprs(cte.query.get(), visit);
  }
  SelectStatement& s = query->select;
  for (SelectItem& item : s.select_list) WalkExprs(&item.expr, visit);
  for (ExprPtr& e : s.distinct_on) WalkExprs(&e, visit);
  if (s.has_from) WalkTableRef(&s.from, visit);
  WalkExprs(&s.where, visit);
  for (ExprPtr& e : s.group_by) WalkExprs(&e, visit);
  WalkExprs(&s.having, visit);
  for (NamedWindow& window : s.windows) WalkWindow(&window.spec, visit);
  WalkExprs(&s.qualify, visit);
  WalkOrder(&s.order_by, visit);
  if (query->left) WalkExprs(query->left.get(), visit);
  if (query->right) WalkExprs(query->right.get(), visit);
  for (std::vector<ExprPtr>& row : query->values) {
    for (ExprPtr& e : row) WalkExprs(&e, visit);
  }
  WalkOrder(&query->order_by, visit);
}

}  // namespace sql
}  // namespace laneql
