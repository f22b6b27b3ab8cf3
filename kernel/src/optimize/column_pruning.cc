// Scans keep only the columns an expression of the plan names, so that the filters and joins
// above copy fewer columns (TPC-H's lineitem has 16 columns; its queries read 4 to 7). Names
// match as the binder would resolve them, or more loosely: a reference without qualifier keeps
// the column of that name in every scan. Nothing is pruned when a star or a subquery is left in
// the plan (either may read any column).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "src/common/ascii.h"
#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {
namespace {

using plan::LogicalKind;
using plan::LogicalOperator;
using plan::LogicalPtr;

struct Names {
  std::vector<const sql::Expr*> refs;
  bool everything = false;
};

void CollectExpr(const sql::Expr* expr, Names* names) {
  if (expr == nullptr) return;
  if (expr->kind == sql::ExprKind::kStar || expr->subquery) names->everything = true;
  if (expr->kind == sql::ExprKind::kColumnRef) names->refs.push_back(expr);
  for (const sql::Expr* child : {expr->operand.get(), expr->left.get(), expr->right.get(), expr->else_result.get()}) {
    CollectExpr(child, names);
  }
  for (const sql::ExprPtr& arg : expr->args) CollectExpr(arg.get(), names);
  for (const sql::CaseBranch& branch : expr->branches) {
    CollectExpr(branch.when.get(), names);
    CollectExpr(branch.then.get(), names);
  }
}

void Collect(const LogicalOperator& op, Names* names) {
  for (const auto* list : {&op.conditions, &op.left_keys, &op.right_keys, &op.exprs}) {
    for (const sql::ExprPtr& e : *list) CollectExpr(e.get(), names);
  }
  for (const LogicalPtr& child : op.children) Collect(*child, names);
}

// Whether a reference in `names` (other than those in `except`) names the column.
bool Named(const plan::ScopeColumn& column, const Names& names, const Names* except = nullptr) {
  for (const sql::Expr* ref : names.refs) {
    if (except != nullptr && std::find(except->refs.begin(), except->refs.end(), ref) != except->refs.end()) continue;
    if (!ref->qualifier.empty() && !ascii::EqualsIgnoreCase(ref->qualifier, column.qualifier)) continue;
    if (ascii::EqualsIgnoreCase(ref->text, column.name)) return true;
  }
  return false;
}

// Prunes the scans under *slot and recomputes every scope above them; drops the projections
// that only restored the FROM order (no star reads it).
void Prune(LogicalPtr* slot, const Names& names) {
  LogicalOperator* op = slot->get();
  for (LogicalPtr& child : op->children) Prune(&child, names);
  switch (op->kind) {
    case LogicalKind::kGet: {
      // Every column it reads (those a previous pass left to its conditions too): yielded when
      // named outside its own conditions, read by the filter alone when named only there.
      Names own;
      for (const sql::ExprPtr& c : op->conditions) CollectExpr(c.get(), &own);
      std::vector<size_t> candidates = op->columns, columns, filter_columns;
      plan::ColumnScope candidate_scope = op->scope, scope, filter_scope;
      candidates.insert(candidates.end(), op->filter_columns.begin(), op->filter_columns.end());
      candidate_scope.insert(candidate_scope.end(), op->filter_scope.begin(), op->filter_scope.end());
      for (size_t i = 0; i < candidates.size(); ++i) {
        if (Named(candidate_scope[i], names, &own)) {
          columns.push_back(candidates[i]);
          scope.push_back(candidate_scope[i]);
        } else if (Named(candidate_scope[i], own)) {
          filter_columns.push_back(candidates[i]);
          filter_scope.push_back(candidate_scope[i]);
        }
      }
      if (columns.empty() && !filter_columns.empty()) {  // count(*) over it: one column gives the rows
        columns.push_back(filter_columns[0]);
        scope.push_back(filter_scope[0]);
        filter_columns.erase(filter_columns.begin());
        filter_scope.erase(filter_scope.begin());
      } else if (columns.empty() && !candidates.empty()) {
        columns.push_back(candidates[0]);
        scope.push_back(candidate_scope[0]);
      }
      op->columns = std::move(columns);
      op->scope = std::move(scope);
      op->filter_columns = std::move(filter_columns);
      op->filter_scope = std::move(filter_scope);
      break;
    }
    case LogicalKind::kJoin: {
      if (op->join_type == sql::JoinType::kMark) {  // the left side's columns and the mark
        plan::ScopeColumn mark = op->scope.back();
        op->scope = op->children[0]->scope;
        op->scope.push_back(std::move(mark));
        break;
      }
      op->scope = op->children[0]->scope;
      if (op->join_type == sql::JoinType::kSemi || op->join_type == sql::JoinType::kAnti) break;
      if (op->join_type == sql::JoinType::kSingle) {  // the value: the right side's last column
        op->scope.push_back(op->children[1]->scope.back());
        break;
      }
      const size_t left = op->scope.size();
      op->scope.insert(op->scope.end(), op->children[1]->scope.begin(), op->children[1]->scope.end());
      for (size_t c = left; c < op->scope.size(); ++c) {
        for (const std::string& name : op->using_columns) {
          if (ascii::EqualsIgnoreCase(op->scope[c].name, name)) op->scope[c].hidden = true;
        }
      }
      break;
    }
    case LogicalKind::kProject:
      if (!op->select_clause) {
        LogicalPtr child = std::move(op->children[0]);
        *slot = std::move(child);
        break;
      }
      [[fallthrough]];
    default:
      if (!op->select_clause && !op->children.empty()) op->scope = op->children[0]->scope;
      break;
  }
}

}  // namespace

void PruneColumns(LogicalPtr* root) {
  Names names;
  Collect(**root, &names);
  if (names.everything) return;
  Prune(root, names);
}

}  // namespace optimize
}  // namespace laneql
