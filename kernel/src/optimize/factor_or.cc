// (a AND b AND x) OR (a AND c AND y) -> a, (b AND x) OR (c AND y): the terms every branch of an
// OR shares become conditions of their own, so that an equality repeated in each branch (TPC-H
// Q19) can drive a hash join instead of leaving a cross product under the OR. Terms compare by
// their text (sql::ToString).
#include <algorithm>
#include <string>
#include <utility>

#include "src/optimize/optimizer.h"
#include "src/plan/query_ast.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace optimize {
namespace {

bool IsOr(const sql::Expr& expr) {
  return expr.kind == sql::ExprKind::kBinary && expr.binary_op == sql::BinaryOp::kOr;
}

void SplitOr(sql::ExprPtr expr, std::vector<sql::ExprPtr>* out) {
  if (IsOr(*expr)) {
    SplitOr(std::move(expr->left), out);
    SplitOr(std::move(expr->right), out);
    return;
  }
  out->push_back(std::move(expr));
}

bool Contains(const std::vector<std::string>& list, const std::string& text) {
  return std::find(list.begin(), list.end(), text) != list.end();
}

void FactorOr(sql::ExprPtr expr, std::vector<sql::ExprPtr>* out) {
  if (!IsOr(*expr)) {
    out->push_back(std::move(expr));
    return;
  }
  std::vector<sql::ExprPtr> branches;
  SplitOr(std::move(expr), &branches);
  std::vector<std::vector<sql::ExprPtr>> terms(branches.size());
  for (size_t b = 0; b < branches.size(); ++b) plan::SplitAnd(std::move(branches[b]), &terms[b]);
  std::vector<std::string> common;
  for (const sql::ExprPtr& t : terms[0]) {
    const std::string text = sql::ToString(*t);
    bool everywhere = true;
    for (size_t b = 1; b < terms.size() && everywhere; ++b) {
      bool found = false;
      for (const sql::ExprPtr& u : terms[b]) found = found || sql::ToString(*u) == text;
      everywhere = found;
    }
    if (everywhere && !Contains(common, text)) common.push_back(text);
  }
  for (const sql::ExprPtr& t : terms[0]) {
    if (Contains(common, sql::ToString(*t))) out->push_back(sql::Clone(*t));
  }
  sql::ExprPtr rebuilt;
  bool some_branch_empty = false;
  for (auto& branch : terms) {
    std::vector<sql::ExprPtr> rest;
    for (sql::ExprPtr& t : branch) {
      if (!Contains(common, sql::ToString(*t))) rest.push_back(std::move(t));
    }
    if (rest.empty()) some_branch_empty = true;
    sql::ExprPtr joined = plan::JoinAnd(std::move(rest));
    if (!joined) continue;
    rebuilt = rebuilt ? plan::MakeBinary(sql::BinaryOp::kOr, std::move(rebuilt), std::move(joined))
                      : std::move(joined);
  }
  // A branch made only of common terms is true whenever they are: the OR adds nothing.
  if (rebuilt && !some_branch_empty) out->push_back(std::move(rebuilt));
}

}  // namespace

void FactorOrConditions(plan::LogicalPtr* root) {
  plan::LogicalOperator* op = root->get();
  for (plan::LogicalPtr& child : op->children) FactorOrConditions(&child);
  if (op->select_clause) return;
  std::vector<sql::ExprPtr> factored;
  for (sql::ExprPtr& c : op->conditions) FactorOr(std::move(c), &factored);
  op->conditions = std::move(factored);
}

}  // namespace optimize
}  // namespace laneql
