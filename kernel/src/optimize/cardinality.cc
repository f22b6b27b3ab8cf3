// Estimated rows per operator. A table knows its row count; a condition keeps a fraction of the
// rows by its shape (the classic System R guesses: an equality with a constant 1/10, a range
// 1/3, BETWEEN 1/4, LIKE 1/10), conditions multiply as if independent, and an equi-join yields
// as many rows as its larger input (a key joined to a foreign key), a cross join the product.
#include <algorithm>

#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {
namespace {

double Selectivity(const sql::Expr& c) {
  switch (c.kind) {
    case sql::ExprKind::kBinary:
      switch (c.binary_op) {
        case sql::BinaryOp::kAnd:
          return Selectivity(*c.left) * Selectivity(*c.right);
        case sql::BinaryOp::kOr:
          return std::min(1.0, Selectivity(*c.left) + Selectivity(*c.right));
        case sql::BinaryOp::kEquals:
          return 0.1;
        case sql::BinaryOp::kNotEquals:
          return 0.9;
        case sql::BinaryOp::kLess:
        case sql::BinaryOp::kLessEquals:
        case sql::BinaryOp::kGreater:
        case sql::BinaryOp::kGreaterEquals:
          return 1.0 / 3;
        default:
          return 0.5;
      }
    case sql::ExprKind::kBetween:
      return c.negated ? 0.75 : 0.25;
    case sql::ExprKind::kInList: {
      const double in = std::min(1.0, 0.1 * static_cast<double>(c.args.size()));
      return c.negated ? 1 - in * 0.5 : in;
    }
    case sql::ExprKind::kLike:
      return c.negated ? 0.9 : 0.1;
    case sql::ExprKind::kIsNull:
      return c.negated ? 0.9 : 0.1;
    case sql::ExprKind::kUnary:
      return c.unary_op == sql::UnaryOp::kNot && c.operand ? 1 - 0.5 * Selectivity(*c.operand) : 0.5;
    default:
      return 0.5;
  }
}

double Conditions(const std::vector<sql::ExprPtr>& conditions) {
  double s = 1;
  for (const sql::ExprPtr& c : conditions) s *= Selectivity(*c);
  return s;
}

}  // namespace

void EstimateCardinality(plan::LogicalOperator* op) {
  for (plan::LogicalPtr& child : op->children) EstimateCardinality(child.get());
  const double in = op->children.empty() ? 0 : op->children[0]->estimated_rows;
  switch (op->kind) {
    case plan::LogicalKind::kGet: {
      const double rows = op->table ? static_cast<double>(op->table->num_rows()) : 1;
      op->estimated_rows = op->conditions.empty() ? rows : std::max(1.0, rows * Conditions(op->conditions));
      break;
    }
    case plan::LogicalKind::kFilter:
      op->estimated_rows = op->select_clause ? in : std::max(1.0, in * Conditions(op->conditions));
      break;
    case plan::LogicalKind::kJoin: {
      const double l = in, r = op->children[1]->estimated_rows;
      double rows;
      switch (op->join_type) {
        case sql::JoinType::kCross:
          rows = l * r;
          break;
        case sql::JoinType::kSemi:
        case sql::JoinType::kAnti:
          rows = l * 0.5;
          break;
        case sql::JoinType::kMark:
        case sql::JoinType::kSingle:
          rows = l;
          break;
        case sql::JoinType::kLeft:
          rows = std::max(l, op->left_keys.empty() ? l * r : std::max(l, r));
          break;
        case sql::JoinType::kRight:
          rows = std::max(r, op->left_keys.empty() ? l * r : std::max(l, r));
          break;
        case sql::JoinType::kFull:
          rows = op->left_keys.empty() ? l * r + l + r : l + r;
          break;
        default:
          rows = op->left_keys.empty() ? l * r : std::max(l, r);
          break;
      }
      op->estimated_rows = std::max(1.0, rows * Conditions(op->conditions));
      break;
    }
    case plan::LogicalKind::kAggregate:
      op->estimated_rows = op->exprs.empty() ? 1 : std::max(1.0, in / 10);
      break;
    default:
      op->estimated_rows = in;
      break;
  }
}

}  // namespace optimize
}  // namespace laneql
