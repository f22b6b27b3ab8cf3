#include "src/plan/query_ast.h"
#include "src/plan/scalar_functions.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "src/common/ascii.h"

namespace laneql {
namespace plan {

Result ErrorAt(sql::SourcePos pos, const std::string& kind, const std::string& message) {
  return Result::Error(kind + " error at line " + std::to_string(pos.line) + ", column " +
                           std::to_string(pos.column) + ": " + message,
                       pos.line, pos.column);
}

void SplitAnd(sql::ExprPtr expr, std::vector<sql::ExprPtr>* out) {
  if (!expr) return;
  if (expr->kind == sql::ExprKind::kBinary && expr->binary_op == sql::BinaryOp::kAnd) {
    SplitAnd(std::move(expr->left), out);
    SplitAnd(std::move(expr->right), out);
    return;
  }
  out->push_back(std::move(expr));
}

sql::ExprPtr MakeBinary(sql::BinaryOp op, sql::ExprPtr left, sql::ExprPtr right) {
  auto node = std::make_unique<sql::Expr>();
  node->kind = sql::ExprKind::kBinary;
  node->binary_op = op;
  node->pos = left->pos;
  node->offset = left->offset;
  node->height = std::max(left->height, right->height) + 1;
  node->left = std::move(left);
  node->right = std::move(right);
  return node;
}

sql::ExprPtr JoinAnd(std::vector<sql::ExprPtr> terms) {
  sql::ExprPtr out;
  for (sql::ExprPtr& term : terms) {
    out = out ? MakeBinary(sql::BinaryOp::kAnd, std::move(out), std::move(term)) : std::move(term);
  }
  return out;
}

sql::ExprPtr MakeColumnRef(const std::string& qualifier, const std::string& name, sql::SourcePos pos) {
  auto ref = std::make_unique<sql::Expr>();
  ref->kind = sql::ExprKind::kColumnRef;
  ref->qualifier = qualifier;
  ref->text = name;
  ref->pos = pos;
  return ref;
}

namespace {

bool IsAggregateName(const std::string& name) { return IsAggregateFunctionName(ascii::Lower(name)); }

}  // namespace

bool Aggregates(const sql::SelectStatement& select) {
  if (!select.group_by.empty() || select.group_by_all || select.having) return true;
  for (const sql::SelectItem& item : select.select_list) {
    if (ContainsAggregate(item.expr.get())) return true;
  }
  return false;
}

bool IsAggregateCall(const sql::Expr& expr) {
  return expr.kind == sql::ExprKind::kFunctionCall && IsAggregateName(expr.text);
}

bool ContainsAggregate(const sql::Expr* expr) {
  if (expr == nullptr) return false;
  if (expr->kind == sql::ExprKind::kFunctionCall && IsAggregateName(expr->text)) return true;
  if (ContainsAggregate(expr->operand.get()) || ContainsAggregate(expr->left.get()) ||
      ContainsAggregate(expr->right.get()) || ContainsAggregate(expr->else_result.get())) {
    return true;
  }
  for (const sql::ExprPtr& arg : expr->args) {
    if (ContainsAggregate(arg.get())) return true;
  }
  for (const sql::CaseBranch& branch : expr->branches) {
    if (ContainsAggregate(branch.when.get()) || ContainsAggregate(branch.then.get())) return true;
  }
  if (expr->window) {  // rank() OVER (ORDER BY count(*)): the window reads the groups
    for (const sql::ExprPtr& key : expr->window->partition_by) {
      if (ContainsAggregate(key.get())) return true;
    }
    for (const sql::OrderItem& item : expr->window->order_by) {
      if (ContainsAggregate(item.expr.get())) return true;
    }
  }
  return false;
}

const sql::Expr* FindAnySubquery(const sql::Expr* expr) {
  if (expr == nullptr) return nullptr;
  if (expr->subquery) return expr;
  for (const sql::Expr* child : {expr->operand.get(), expr->left.get(), expr->right.get(), expr->else_result.get()}) {
    if (const sql::Expr* found = FindAnySubquery(child)) return found;
  }
  for (const sql::ExprPtr& arg : expr->args) {
    if (const sql::Expr* found = FindAnySubquery(arg.get())) return found;
  }
  for (const sql::CaseBranch& branch : expr->branches) {
    if (const sql::Expr* found = FindAnySubquery(branch.when.get())) return found;
    if (const sql::Expr* found = FindAnySubquery(branch.then.get())) return found;
  }
  if (expr->window) {
    for (const sql::ExprPtr& key : expr->window->partition_by) {
      if (const sql::Expr* found = FindAnySubquery(key.get())) return found;
    }
    for (const sql::OrderItem& item : expr->window->order_by) {
      if (const sql::Expr* found = FindAnySubquery(item.expr.get())) return found;
    }
  }
  return nullptr;
}

}  // namespace plan
}  // namespace laneql
