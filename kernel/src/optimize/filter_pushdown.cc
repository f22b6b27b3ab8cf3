// Conditions move down to the lowest operator that has every column they read. A condition
// whose names are unknown or ambiguous, or that holds a subquery, stays where it was written
// (the binder then reports it, or the SELECT evaluates it).
#include <utility>

#include "src/optimize/optimizer.h"
#include "src/plan/query_ast.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace optimize {
namespace {

using plan::LogicalKind;
using plan::LogicalOperator;
using plan::LogicalPtr;

bool IsEquality(const sql::Expr& expr) {
  return expr.kind == sql::ExprKind::kBinary && expr.binary_op == sql::BinaryOp::kEquals && expr.left &&
         expr.right;
}

void SplitOr(const sql::Expr& expr, std::vector<const sql::Expr*>* out) {
  if (expr.kind == sql::ExprKind::kBinary && expr.binary_op == sql::BinaryOp::kOr) {
    SplitOr(*expr.left, out);
    SplitOr(*expr.right, out);
    return;
  }
  out->push_back(&expr);
}

// From an OR over both sides of a join, what it implies for side `bit` alone: the OR of each
// branch's conditions on that side ((n1 = 'FRANCE' AND n2 = 'GERMANY') OR (n1 = 'GERMANY' AND
// n2 = 'FRANCE') implies n1 = 'FRANCE' OR n1 = 'GERMANY'); null when some branch says nothing
// about that side. The OR itself stays: this only filters earlier (TPC-H Q7's nations).
sql::ExprPtr ImpliedFor(const sql::Expr& condition, const std::vector<const plan::ColumnScope*>& sides, uint64_t bit) {
  std::vector<const sql::Expr*> branches;
  SplitOr(condition, &branches);
  if (branches.size() < 2) return nullptr;
  sql::ExprPtr implied;
  for (const sql::Expr* branch : branches) {
    std::vector<sql::ExprPtr> terms, own;
    plan::SplitAnd(sql::Clone(*branch), &terms);
    for (sql::ExprPtr& term : terms) {
      bool unknown = false;
      if (plan::ReadsOf(term.get(), sides, &unknown) == bit && !unknown) own.push_back(std::move(term));
    }
    if (own.empty()) return nullptr;
    sql::ExprPtr part = plan::JoinAnd(std::move(own));
    implied = implied ? plan::MakeBinary(sql::BinaryOp::kOr, std::move(implied), std::move(part)) : std::move(part);
  }
  return implied;
}

using plan::FilterAbove;

void Push(LogicalPtr* slot, std::vector<sql::ExprPtr> pending);

void PushIntoJoin(LogicalPtr* slot, std::vector<sql::ExprPtr> pending) {
  LogicalOperator* join = slot->get();
  const sql::JoinType type = join->join_type;
  const bool inner = type == sql::JoinType::kInner || type == sql::JoinType::kCross;
  const bool left_kept = inner || type == sql::JoinType::kLeft || type == sql::JoinType::kSemi ||
                         type == sql::JoinType::kAnti || type == sql::JoinType::kMark ||
                         type == sql::JoinType::kSingle;  // the left side's rows are not padded
  const bool right_kept = inner || type == sql::JoinType::kRight;
  const std::vector<const plan::ColumnScope*> sides{&join->children[0]->scope, &join->children[1]->scope};
  std::vector<sql::ExprPtr> to_left, to_right, stay;
  if (inner) {
    // An inner join's own conditions are the same as conditions above it.
    for (sql::ExprPtr& c : join->conditions) pending.push_back(std::move(c));
    join->conditions.clear();
  } else {
    // An outer / semi / anti join's conditions on its matched side alone only decide which of
    // that side's rows can match: they filter that side first.
    std::vector<sql::ExprPtr> own;
    for (sql::ExprPtr& c : join->conditions) {
      bool unknown = false;
      const uint64_t reads = plan::ReadsOf(c.get(), sides, &unknown);
      if (!unknown && reads == 2 && type != sql::JoinType::kRight && type != sql::JoinType::kFull) {
        to_right.push_back(std::move(c));
      } else if (!unknown && reads == 1 && type == sql::JoinType::kRight) {
        to_left.push_back(std::move(c));
      } else {
        own.push_back(std::move(c));
      }
    }
    join->conditions = std::move(own);
  }
  for (sql::ExprPtr& c : pending) {
    bool unknown = false;
    const uint64_t reads = plan::ReadsOf(c.get(), sides, &unknown);
    if (unknown || reads == 0) {
      stay.push_back(std::move(c));
    } else if (reads == 1 && left_kept) {
      to_left.push_back(std::move(c));
    } else if (reads == 2 && right_kept) {
      to_right.push_back(std::move(c));
    } else if (reads == 3 && inner) {
      if (c->kind == sql::ExprKind::kBinary && c->binary_op == sql::BinaryOp::kOr) {
        if (sql::ExprPtr left_part = ImpliedFor(*c, sides, 1)) to_left.push_back(std::move(left_part));
        if (sql::ExprPtr right_part = ImpliedFor(*c, sides, 2)) to_right.push_back(std::move(right_part));
      }
      bool u = false;
      const uint64_t l = IsEquality(*c) ? plan::ReadsOf(c->left.get(), sides, &u) : 0;
      const uint64_t r = IsEquality(*c) ? plan::ReadsOf(c->right.get(), sides, &u) : 0;
      if (!u && l == 1 && r == 2) {
        join->left_keys.push_back(std::move(c->left));
        join->right_keys.push_back(std::move(c->right));
      } else if (!u && l == 2 && r == 1) {
        join->left_keys.push_back(std::move(c->right));
        join->right_keys.push_back(std::move(c->left));
      } else {
        join->conditions.push_back(std::move(c));
      }
    } else {
      stay.push_back(std::move(c));
    }
  }
  if (inner) {
    join->join_type = join->left_keys.empty() && join->conditions.empty() ? sql::JoinType::kCross
                                                                            : sql::JoinType::kInner;
  }
  Push(&join->children[0], std::move(to_left));
  Push(&join->children[1], std::move(to_right));
  FilterAbove(slot, std::move(stay));
}

void Push(LogicalPtr* slot, std::vector<sql::ExprPtr> pending) {
  LogicalOperator* op = slot->get();
  if (op->select_clause) {
    for (LogicalPtr& child : op->children) Push(&child, {});
    FilterAbove(slot, std::move(pending));
    return;
  }
  switch (op->kind) {
    case LogicalKind::kFilter: {
      for (sql::ExprPtr& c : op->conditions) pending.push_back(std::move(c));
      LogicalPtr child = std::move(op->children[0]);
      *slot = std::move(child);
      Push(slot, std::move(pending));
      return;
    }
    case LogicalKind::kGet:
      for (sql::ExprPtr& c : pending) op->conditions.push_back(std::move(c));
      return;
    case LogicalKind::kJoin:
      PushIntoJoin(slot, std::move(pending));
      return;
    case LogicalKind::kProject:  // a reordering of columns: the same names below
      Push(&op->children[0], std::move(pending));
      return;
    default:
      for (LogicalPtr& child : op->children) Push(&child, {});
      FilterAbove(slot, std::move(pending));
      return;
  }
}

}  // namespace

void PushDownFilters(LogicalPtr* root) { Push(root, {}); }

}  // namespace optimize
}  // namespace laneql
